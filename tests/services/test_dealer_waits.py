"""Issue 10: the dealer sleeps until the next deadline or a notification on the bus; rounds move
soon after their deadlines; a round nobody bet on costs no write per window (its window is
reopened lazily, shown to players as the window in force)."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import Row, select

from casino_holdem.extensions import SQLITE_BUSY_SECONDS, WRITES, db
from casino_holdem.models import AuditEntry, GameRound, utcnow
from casino_holdem.services import dealer, rounds, viewing
from casino_holdem.services.windows import window_end
from support.casino import T0
from support.server import wait_until

CEILING = 60.0


@pytest.fixture
def running(app, casino) -> Iterator[list[int]]:
    """The dealer loop on a thread; yields a list that counts its :func:`dealer.due` queries."""
    calls: list[int] = []
    real_due = dealer.due

    def counted(*args, **kwargs):
        calls.append(1)
        return real_due(*args, **kwargs)

    dealer.due = counted
    stop = threading.Event()
    thread = threading.Thread(target=dealer.run, kwargs={"app": app, "stop": stop})
    thread.start()
    try:
        yield calls
    finally:
        stop.set()
        thread.join(timeout=CEILING)
        dealer.due = real_due
    assert not thread.is_alive()


def _round(table: int) -> Row | None:
    """The table's latest round (id, number, phase, deadline), read without keeping a transaction
    open (on SQLite a transaction holds the write lock the dealer needs)."""
    found = db.session.execute(select(GameRound.id, GameRound.number, GameRound.phase, GameRound.deadline)
                               .where(GameRound.table_id == table).order_by(GameRound.id.desc())).first()
    db.session.rollback()
    return found


def test_the_dealer_wakes_on_a_deadline(casino, running) -> None:
    table = casino.table(betting_seconds=2, decision_seconds=600)
    player = casino.player()
    opened = wait_until(lambda: _round(table), seconds=CEILING, what="a round opened")
    rounds.place_bets(player, table, "10", request_id="r")
    deadline = _round(table).deadline
    wait_until(lambda: _round(table).phase == "pre_flop", seconds=CEILING, what="the hole cards")
    assert opened.number == 1 and utcnow() >= deadline


def test_the_dealer_wakes_on_the_last_decision_of_a_street(casino, running) -> None:
    table = casino.table(betting_seconds=1, decision_seconds=600)
    player = casino.player()
    wait_until(lambda: _round(table), seconds=CEILING, what="a round opened")
    rounds.place_bets(player, table, "10", request_id="r")
    current = wait_until(lambda: (row := _round(table)).phase == "pre_flop" and row, seconds=CEILING,
                         what="the hole cards")
    started = time.monotonic()
    rounds.decide(player, current.id, "flop", request_id="d")
    wait_until(lambda: _round(table).phase == "flop", seconds=CEILING, what="the flop")
    assert time.monotonic() - started < 600  # long before the 600 s window would have closed


@pytest.mark.parametrize(("due_now", "sleep", "named_again"), [
    ([7], dealer.BUSY_RETRY_SECONDS, {8}),       # due: tried again at once
    ([], dealer.NAMED_BUSY_RETRY_SECONDS, {7, 8}),  # only named: its holder's commit wakes the loop
])
def test_a_held_table_is_tried_again_soon_when_due_and_later_when_only_named(
        app, monkeypatch, due_now: list[int], sleep: float, named_again: set[int]) -> None:
    """Issue 10: a table held by a bet or decision in flight is skipped (SKIP LOCKED); R8: one
    whose deadline passed is tried again within milliseconds, one the bus only named (a street's
    last decision may have made it due) at the latest half a second later."""
    waker = dealer.Waker()
    waker(frozenset({"table:7/players", "table:8/players"}))
    monkeypatch.setattr(dealer, "due", lambda **_: dealer.Due(due_now, None))

    def held(*, tables: list[int], busy: set[int], **_: object) -> list[object]:
        busy.update(tables)
        return []

    monkeypatch.setattr(dealer, "tick", held)
    with app.app_context():
        assert dealer._pass(waker, None, None) == sleep
    assert waker.take() == named_again


def test_an_empty_table_costs_no_write_and_no_wake_per_window(casino, running) -> None:
    table = casino.table(betting_seconds=1)
    wait_until(lambda: _round(table), seconds=CEILING, what="a round opened")
    before = len(running)
    time.sleep(3.5)  # three betting windows pass unseen: nothing to assert on but what did NOT happen
    extended = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "betting_extended")).all()
    db.session.rollback()
    assert extended == [] and len(running) - before <= 1


@pytest.mark.parametrize(("seconds_after", "window"), [(-1, 0), (0, 1), (14, 1), (15, 2), (31, 3)])
def test_r2_1_the_window_in_force_of_an_empty_round(seconds_after: int, window: int) -> None:
    deadline = T0
    now = deadline + dt.timedelta(seconds=seconds_after)
    assert window_end(deadline, 15, now) == deadline + dt.timedelta(seconds=15 * window)


def test_r2_1_a_late_first_bet_takes_the_window_in_force(casino) -> None:
    table = casino.table(betting_seconds=10)
    casino.open(table, now=T0)
    player = casino.player()
    rounds.place_bets(player, table, "10", request_id="late", now=T0 + dt.timedelta(seconds=25))
    assert _round(table).deadline == T0 + dt.timedelta(seconds=30)


def test_r2_1_an_empty_round_tells_the_pages_its_window_repeats(casino) -> None:
    """Nothing is written while nobody bets, so nothing is published: the pages roll the countdown
    over to the next window themselves, every ``repeats_every`` seconds, until the first bet."""
    table = casino.table(betting_seconds=10)
    round_id = casino.open(table, now=T0)
    player = casino.player()
    assert viewing.round_view(round_id, player)["repeats_every"] == 10
    rounds.place_bets(player, table, "10", request_id="first", now=T0)
    assert viewing.round_view(round_id, player)["repeats_every"] is None


def test_a_page_reads_while_the_dealer_holds_the_write_lock(casino) -> None:
    """SQLite: a page or a stream reads a snapshot (deferred BEGIN) and never queues behind a
    writer — a stream that waited for the dealer's lock showed a street seconds late."""
    if db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's database-wide write lock")
    table = casino.table()
    round_id = casino.open(table, now=T0)
    player = casino.player()
    with db.engine.connect().execution_options(**{WRITES: True}) as writer:
        writer.exec_driver_sql("SELECT 1")  # BEGIN IMMEDIATE: the write lock, as a dealer step holds it
        started = time.monotonic()
        assert viewing.round_view(round_id, player)["phase"] == "betting"
        assert time.monotonic() - started < SQLITE_BUSY_SECONDS
        writer.rollback()
