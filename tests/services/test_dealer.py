"""The dealer loop with the demo bots, and the operating commands (init-db, replay, audit-ledger)."""

from __future__ import annotations

import datetime as dt
import random
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from freezegun import freeze_time
from sqlalchemy import func, select, text

from casino_holdem.cli import main
from casino_holdem.extensions import db
from casino_holdem.models import DecisionRecord, GameRound
from casino_holdem.services import dealer, dealer_steps, demo, rounds, verify
from support.casino import T0


def test_the_demo_casino_deals_by_itself(db_app_demo) -> None:
    with freeze_time(T0) as frozen:
        bots = dealer.Bots(random.Random(7))
        for _ in range(60):
            bots.play()
            dealer.tick()
            frozen.tick(dt.timedelta(seconds=1))
    settled = db.session.scalars(select(GameRound.id).where(GameRound.phase == "settled")).all()
    automatic = db.session.scalar(select(func.count()).select_from(DecisionRecord)
                                  .where(DecisionRecord.automatic.is_not(None)))
    db.session.rollback()
    assert len(settled) >= 9 and automatic > 0
    assert verify.audit_ledger() == []
    assert all(verify.replay(round_id).identical for round_id in settled)


@pytest.fixture
def db_app_demo(db):
    demo.ensure_demo_data(betting_seconds=2, decision_seconds=1)
    return db


def test_the_loop_runs_in_a_thread_until_stopped(app, db_app_demo) -> None:
    stop = threading.Event()
    thread = threading.Thread(target=dealer.run, kwargs={"app": app, "stop": stop, "bots": dealer.Bots(),
                                                         "tick_seconds": 0.05})
    thread.start()
    time.sleep(1.0)
    stop.set()
    thread.join(timeout=60)  # a generous ceiling: the pass in progress ends first
    assert not thread.is_alive()
    db.session.rollback()
    assert db.session.scalar(select(func.count()).select_from(GameRound)) == 4  # one open round per table, live too


def test_operating_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASINO_DATABASE_URL", f"sqlite:///{tmp_path / 'ops.sqlite3'}")
    monkeypatch.setenv("CASINO_SECRET_KEY", "test")
    monkeypatch.setenv("CASINO_BETTING_SECONDS", "2")
    monkeypatch.setenv("CASINO_DECISION_SECONDS", "1")
    runner = CliRunner()
    for _ in range(2):
        result = runner.invoke(main, ["init-db", "--demo"])
        assert result.exit_code == 0, result.output
    assert "demo1" in result.output
    assert runner.invoke(main, ["audit-ledger"]).exit_code == 0
    assert runner.invoke(main, ["replay", "1"]).exit_code == 2  # no such round
    from casino_holdem import create_app

    app = create_app()
    with app.app_context(), freeze_time(T0) as frozen:
        bots = dealer.Bots(random.Random(3), bet_chance=1.0)
        for _ in range(40):
            bots.play()
            dealer.tick()
            frozen.tick(dt.timedelta(seconds=1))
        settled = db.session.scalars(select(GameRound.id).where(GameRound.phase == "settled")).first()
        db.session.rollback()
    assert settled is not None
    result = runner.invoke(main, ["replay", str(settled), "--json"])
    assert result.exit_code == 0 and '"identical": true' in result.output
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(text("UPDATE bets SET returned = returned + 1 WHERE round_id = :r"), {"r": settled})
    result = runner.invoke(main, ["replay", str(settled)])
    assert result.exit_code == 1 and "DIFFERS" in result.output
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(text("UPDATE ledger_accounts SET balance = balance + 1 WHERE code = 'wallet:1'"))
    result = runner.invoke(main, ["audit-ledger"])
    assert result.exit_code == 1 and "wallet:1" in result.output


def test_one_broken_table_does_not_stop_the_others(casino, monkeypatch: pytest.MonkeyPatch) -> None:
    broken, healthy = casino.table(), casino.table()
    real_advance = dealer.advance

    def advance(table_id: int, **options: object):
        if table_id == broken:
            raise RuntimeError("the paytable file of this table was edited")
        return real_advance(table_id, **options)

    monkeypatch.setattr(dealer, "advance", advance)
    with freeze_time(T0):
        steps = dealer.tick()
    assert [(step.table_id, step.event) for step in steps] == [(healthy, "opened")]


def _rounds() -> list[tuple[int, str]]:
    rows = db.session.execute(select(GameRound.number, GameRound.phase).order_by(GameRound.number)).all()
    db.session.rollback()
    return [(number, phase) for number, phase in rows]


def test_r2_7_the_next_betting_window_waits_for_the_showdown_pause(db_app_demo) -> None:
    with freeze_time(T0) as frozen:
        bots = dealer.Bots(random.Random(7), bet_chance=1.0, decide_chance=1.0)
        while not any(phase == "settled" for _, phase in _rounds()):
            bots.play()
            dealer.tick(showdown_pause=5)
            frozen.tick(dt.timedelta(seconds=1))
        table_one = db.session.scalars(select(GameRound).where(GameRound.phase == "settled")).first()
        assert table_one is not None
        settled_at = table_one.finished_at
        table_id, number = table_one.table_id, table_one.number
        db.session.rollback()
        frozen.move_to(settled_at + dt.timedelta(seconds=4))
        dealer.tick(showdown_pause=5)
        assert db.session.scalar(select(GameRound.number).where(GameRound.table_id == table_id)
                                 .order_by(GameRound.number.desc()).limit(1)) == number
        db.session.rollback()
        frozen.move_to(settled_at + dt.timedelta(seconds=5))
        dealer.tick(showdown_pause=5)
        assert db.session.scalar(select(GameRound.number).where(GameRound.table_id == table_id)
                                 .order_by(GameRound.number.desc()).limit(1)) == number + 1


def test_a_stop_during_a_step_lets_that_step_commit_then_the_loop_ends(app, casino, monkeypatch) -> None:
    """Graceful shutdown (issue 10): SIGTERM only sets the loop's stop event
    (``commands.server``); the step in progress — here the hole cards, R2.2 — still commits,
    and the loop returns instead of starting another pass."""
    from casino_holdem.models import utcnow
    from casino_holdem.services import dealer_steps, rounds

    table = casino.table(betting_seconds=1, decision_seconds=60)
    player = casino.player()
    now = utcnow()
    round_id = casino.open(table, now=now)
    rounds.place_bets(player, table, "10", request_id="b", now=now)
    stop, original = threading.Event(), dealer_steps.deal_next

    def stopped_mid_step(*args, **kwargs):
        stop.set()  # the signal arrives while the step is being taken
        return original(*args, **kwargs)

    monkeypatch.setattr(dealer_steps, "deal_next", stopped_mid_step)
    thread = threading.Thread(target=dealer.run, kwargs={"app": app, "stop": stop})
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive() and stop.is_set()
    db.session.rollback()
    dealt = db.session.scalars(select(GameRound).where(GameRound.id == round_id)).one()
    assert dealt.phase == "pre_flop" and dealt.dealt_count == 4  # the Player's and the Dealer's hole cards
    assert verify.audit_ledger() == []


@pytest.mark.parametrize("seconds_after, waits", [(0, True), (4, True), (5, False), (60, False)])
def test_r2_7_the_step_and_the_sleep_read_one_showdown_pause(casino, seconds_after: int, waits: bool) -> None:
    """R2.7: the dealer's step (dealer_steps.advance) and its sleep (dealer.due) agree on when the
    showdown leaves the felt, because one function (windows.showdown_until) decides it for both."""
    with freeze_time(T0) as frozen:
        table, player = casino.table(), casino.player()
        round_id = casino.open(table)
        rounds.place_bets(player, table, "10", request_id="bet")
        frozen.tick(dt.timedelta(seconds=10))
        assert dealer_steps.advance(table).event == "hole_cards"
        for street, action in (("flop", "flop"), ("turn", "check"), ("river", "check")):
            rounds.decide(player, round_id, action, request_id=street)
            assert dealer_steps.advance(table).event == street
        assert dealer_steps.advance(table).event == "settled"
        frozen.tick(dt.timedelta(seconds=seconds_after))
        found = dealer.due(showdown_pause=5)
        step = dealer_steps.advance(table, showdown_pause=5)
    if waits:
        assert (table in found.tables, found.upcoming.get(table), step) == (False, T0 + dt.timedelta(seconds=15), None)
    else:
        assert table in found.tables and step is not None and step.event == "opened"


@pytest.mark.parametrize(("away", "showdown_pause", "events"), [
    pytest.param(False, 0.0, ["hole_cards"], id="R2.2: the hole cards open a window: not asked again"),
    pytest.param(True, 5.0, ["hole_cards", "flop", "turn", "river", "settled"],
                 id="R8: a bettor away is decided for at once: dealt to the showdown, which stays (R2.7)"),
    pytest.param(True, 0.0, ["hole_cards", "flop", "turn", "river", "settled", "opened"],
                 id="R8, R2.7: no showdown pause: the next round opens in the same pass"),
])
def test_issue_10_a_pass_asks_a_table_again_only_when_another_step_may_be_due(
        casino, monkeypatch: pytest.MonkeyPatch, away: bool, showdown_pause: float, events: list[str]) -> None:
    """Each step says whether another may be due at once (``Step.again``); the pass asks the
    table again only then, so a step after which the table waits for its players or a deadline
    costs no second lock and read of the round (issue 10)."""
    asked: list[int] = []
    real_advance = dealer.advance

    def advance(table_id: int, **options: object):
        asked.append(table_id)
        return real_advance(table_id, **options)

    monkeypatch.setattr(dealer, "advance", advance)
    with freeze_time(T0) as frozen:
        table, player = casino.table(), casino.player()
        casino.open(table)
        rounds.place_bets(player, table, "10", request_id="bet")
        if away:
            rounds.disconnect(player, table)
        frozen.tick(dt.timedelta(seconds=10))
        steps = dealer.tick(tables=[table], showdown_pause=showdown_pause)
    assert [step.event for step in steps] == events
    assert len(asked) == len(events)
    assert verify.audit_ledger() == []
