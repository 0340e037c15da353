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

from casino_holdem.core.round import Phase
from casino_holdem.extensions import SQLITE_BUSY_SECONDS, WRITES, db
from casino_holdem.models import AuditEntry, GameRound, utcnow
from casino_holdem.services import dealer, queries, rounds, viewing
from casino_holdem.services.round_rows import load_round
from casino_holdem.services.windows import window_end
from support.casino import SECOND, T0
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


def test_a_held_due_table_is_tried_again_soon(app, monkeypatch) -> None:
    """Issue 10: a due table held by a bet or decision in flight is skipped (SKIP LOCKED) and
    read again within milliseconds (R8: its window is over or its street decided)."""
    waker = dealer.Waker()
    waker(frozenset({"table:7/players", "table:8/players"}))
    monkeypatch.setattr(dealer, "due", lambda **_: dealer.Due([7, 8]))

    def held(*, tables: list[int], busy: set[int], **_: object) -> list[object]:
        busy.update(tables)
        return []

    monkeypatch.setattr(dealer, "tick", held)
    with app.app_context():
        assert dealer._pass(waker, None, None) == dealer.BUSY_RETRY_SECONDS
    assert waker.take() == dealer.Woken({7, 8}, everything=False)


@pytest.mark.parametrize(("topics", "read"), [
    ({"table:7/players"}, "tables [7]"),            # R2.1-R2.5: a bet or a decision: only its table is read
    ({"table:7"}, "tables [7]"),                    # a step, a moved deadline, the table itself: its table
    ({"table:7/players", "table:8"}, "tables [7, 8]"),
    ({"*"}, "every table"),                         # everything (the bus was away)
])
def test_a_change_reads_only_its_table_and_locks_only_a_due_round(app, monkeypatch, topics: set[str],
                                                                  read: str) -> None:
    """Issue 10: the dealer is woken by every bet, decision and step of the floor; for those it
    reads only the named tables' rounds (:func:`dealer.due` of those, no lock) and advances only
    the due ones, so it never locks a round its players are betting and deciding on to find
    nothing to do, and a step at one table is not a read of the whole floor."""
    later = utcnow() + dt.timedelta(seconds=20)
    schedule = dealer.Schedule({9: later}, read_all_at=later + dt.timedelta(seconds=5))
    reads: list[str] = []
    advanced: list[list[int]] = []
    monkeypatch.setattr(dealer, "due", lambda *, tables, **_: reads.append(
        "every table" if tables is None else f"tables {sorted(tables)}") or dealer.Due([], {9: later}))
    monkeypatch.setattr(dealer, "tick", lambda *, tables, **_: advanced.append(tables) or [])
    waker = dealer.Waker()
    waker(frozenset(topics))
    with app.app_context():
        sleep = dealer._pass(waker, None, None, schedule=schedule)
    assert reads == [read]
    assert advanced == [[]] and 10 < sleep <= 20  # the deadline the loop knew


def test_a_passed_deadline_reads_its_table_and_every_table_is_read_now_and_then(app, monkeypatch) -> None:
    """Issue 10: the loop keeps each table's next deadline; when one passes it reads that table
    (R2.1, R8: its window is over), a deadline that moved unannounced is found gone, and every
    table is read again IDLE_SECONDS after the last time (a notification lost to an outage)."""
    now = utcnow()
    schedule = dealer.Schedule({7: now - SECOND, 8: now + 5 * SECOND}, read_all_at=now + 20 * SECOND)
    reads: list[object] = []
    found = {None: dealer.Due([], {8: now + 5 * SECOND, 9: now + SECOND}),
             (7,): dealer.Due([])}  # table 7's deadline moved and was not announced: it has none now

    def due(*, tables, **_):
        reads.append(None if tables is None else tuple(sorted(tables)))
        return found[reads[-1]]

    monkeypatch.setattr(dealer, "due", due)
    monkeypatch.setattr(dealer, "tick", lambda **_: [])
    with app.app_context():
        dealer._pass(dealer.Waker(), None, None, schedule=schedule)
        assert reads == [(7,)] and schedule.deadlines == {8: now + 5 * SECOND}
        schedule.read_all_at = now - SECOND  # IDLE_SECONDS later
        dealer._pass(dealer.Waker(), None, None, schedule=schedule)
    assert reads == [(7,), None] and schedule.deadlines == {8: now + 5 * SECOND, 9: now + SECOND}
    assert schedule.read_all_at is not None and schedule.read_all_at > now + 29 * SECOND


def test_a_failed_step_is_tried_again_and_a_failed_pass_reads_every_table(app, monkeypatch) -> None:
    """Issue 10: a table whose step failed (rolled back) is read again a second later, not at the
    next read of every table; a pass that failed (the database away) reads every table next."""
    now = utcnow()
    schedule = dealer.Schedule({7: now - SECOND}, read_all_at=now + 20 * SECOND)
    monkeypatch.setattr(dealer, "due", lambda **_: dealer.Due([7]))
    monkeypatch.setattr(dealer, "advance", lambda *_a, **_k: 1 / 0)
    with app.app_context():
        dealer._pass(dealer.Waker(), None, None, schedule=schedule)
        retry = schedule.deadlines[7] - now
        assert dealer.FAILED_RETRY_SECONDS - 1 < retry.total_seconds() < dealer.FAILED_RETRY_SECONDS + CEILING
        monkeypatch.setattr(dealer, "due", lambda **_: 1 / 0)
        waker = dealer.Waker()
        waker(frozenset({"table:8"}))
        assert dealer._pass(waker, None, None, schedule=schedule) == 1.0
    assert schedule.to_read(dealer.Woken(set()), now) is None  # every table


def _acted(casino, table: int, script: list[tuple[int, str, str]]) -> tuple[int, list[int]]:
    """Play ``script`` (second after T0, who, what) on a fresh round of ``table``: ``bet`` by a
    player, ``deal`` by the dealer (one step), or a decision. Returns the round and its players."""
    round_id = casino.open(table, now=T0)
    players = {name: casino.player() for name in "ab"}
    for second, who, what in script:
        moment = T0 + second * SECOND
        if what == "bet":
            rounds.place_bets(players[who], table, "10", request_id=f"{who}-bet", now=moment)
        elif what == "deal":
            assert casino.run(table, moment, steps=1)
        else:
            rounds.decide(players[who], round_id, what, request_id=f"{who}-{second}", now=moment)
    return round_id, list(players.values())


BET_A, BET_B = (1, "a", "bet"), (2, "b", "bet")
HOLE_CARDS = (10, "", "deal")


@pytest.mark.parametrize(("script", "second", "is_due"), [
    pytest.param([], 5, False, id="R2.1 an empty round in its window"),
    pytest.param([], 25, False, id="R2.1 an empty round, its window gone by: never dealt"),
    pytest.param([BET_A], 5, False, id="R2.1 a bet in the window"),
    pytest.param([BET_A], 10, True, id="R2.1 the window over with a bet"),
    pytest.param([BET_A, BET_B, HOLE_CARDS, (11, "a", "flop")], 12, False, id="R2.3 one of two decided"),
    pytest.param([BET_A, BET_B, HOLE_CARDS, (11, "a", "flop"), (11, "b", "flop")], 12, True,
                 id="R2.3 both decided"),
    pytest.param([BET_A, BET_B, HOLE_CARDS, (11, "a", "fold"), (11, "b", "flop")], 12, True,
                 id="R2.3 a fold is a decision"),
    pytest.param([BET_A, BET_B, HOLE_CARDS, (11, "a", "fold"), (11, "b", "flop"), (12, "", "deal")], 13, False,
                 id="R2.4 the flop waits for the one still in"),
    pytest.param([BET_A, BET_B, HOLE_CARDS, (11, "a", "fold"), (11, "b", "flop"), (12, "", "deal"),
                  (13, "b", "check")], 13, True, id="R2.4 a folded bettor is not waited for"),
    pytest.param([BET_A, HOLE_CARDS], 19, False, id="R8 the window still open"),
    pytest.param([BET_A, HOLE_CARDS], 20, True, id="R8 the window over: the house decides"),
    pytest.param([BET_A, HOLE_CARDS, (11, "a", "fold"), (12, "", "deal"), (12, "", "deal"), (12, "", "deal")], 12,
                 True, id="R2.7 the showdown is settled"),
])
def test_r2_due_reads_a_named_round_as_due_exactly_when_the_core_does(
        casino, script: list[tuple[int, str, str]], second: int, is_due: bool) -> None:
    table = casino.table()
    round_id, _ = _acted(casino, table, script)
    moment = T0 + second * SECOND
    core = load_round(queries.round_with_bets(round_id))
    db.session.rollback()
    found = dealer.due(moment, tables=[table])
    assert (core.due(moment) or core.phase is Phase.SHOWDOWN) is is_due
    assert (table in found.tables) is is_due
    if not is_due and script:
        assert found.upcoming.get(table) == core.deadline  # the loop wakes for it


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
