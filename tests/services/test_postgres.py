"""Concurrency on PostgreSQL: many threads betting on tables that share one pool while a prize
hits, and several dealers advancing the same tables. (The rest of the suite also runs on
PostgreSQL through the ``app`` fixture's parameter.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from decimal import Decimal
from typing import TypeVar

import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.exc import OperationalError

from casino_holdem.core.money import ZERO, round_down
from casino_holdem.extensions import db
from casino_holdem.models import GameRound, GameTable
from casino_holdem.services import audit, dealer, dealer_steps, jackpot, pool_admin, rounds, verify, wallet
from casino_holdem.services.errors import Conflict, ServiceError
from casino_holdem.services.transaction import locked
from support.casino import BETTING, SECOND, T0, assert_each_step_taken_once, deck_with, staff
from support.server import wait_until

pytestmark = pytest.mark.postgres
Read = TypeVar("Read")


@pytest.fixture
def pg(postgres_app, casino):
    return casino


def plan_of(read: Callable[[], Read], marker: str) -> tuple[Read, str]:
    """What ``read`` returns, and PostgreSQL's plan (``EXPLAIN``) of the one statement containing
    ``marker`` that it sent, as sent (its parameters too)."""
    sent: list[tuple[str, object]] = []

    def record(_connection: object, _cursor: object, statement: str, parameters: object, *_rest: object) -> None:
        sent.append((statement, parameters))

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        result = read()
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
    (statement, parameters), = [(s, p) for s, p in sent if marker in s]
    with db.engine.connect() as connection:
        plan = "\n".join(connection.exec_driver_sql(f"EXPLAIN {statement}", parameters).scalars())  # type: ignore[arg-type]
    return result, plan


def in_threads(app, jobs: list[Callable[[], object]]) -> list[Exception]:
    """Run each job in its own thread and app context, all released at once; the errors raised."""
    start, errors = threading.Barrier(len(jobs)), []

    def run(job: Callable[[], object]) -> None:
        with app.app_context():
            start.wait()
            try:
                job()
            except Exception as error:  # noqa: BLE001 (collected for the assertion)
                errors.append(error)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


def test_many_bettors_and_a_prize_on_one_pool_lose_no_update(app, pg) -> None:
    casino = pg
    pool = casino.pool(seed="1000")
    hit, *others = [casino.table(pool) for _ in range(3)]
    winner = casino.player()
    round_id = casino.open(hit, deck_with("7c 7d", "4h Kd", "7s 7h 2s 9d Jc"))  # P2 Four of a Kind: 120
    rounds.place_bets(winner, hit, "10", progressive=True, request_id="w", now=T0)
    casino.run(hit, T0 + 10 * SECOND)
    rounds.decide(winner, round_id, "flop", request_id="f", now=T0 + 11 * SECOND)
    for seconds in (12, 30, 50):
        casino.run(hit, T0 + seconds * SECOND, steps=1)
    now = T0 + 60 * SECOND
    for table in others:
        casino.open(table, now=now)
    bettors = [casino.player(currency, amount) for currency, amount in (("USD", "100"), ("THB", "2500"),
                                                                        ("JPY", "10000")) * 6]
    jobs: list[Callable[[], object]] = [
        (lambda p=p, t=t: rounds.place_bets(p, t, wallet.currency_spec(wallet.balance(p).currency).multiplier,
                                            progressive=True, request_id=f"{p}-{t}", now=now))
        for p in bettors for t in others]
    jobs += [lambda: dealer_steps.advance(hit, now)] + [
        (lambda: rounds.place_bets(bettors[0], others[0], "1", progressive=True, request_id=f"{bettors[0]}-{others[0]}",
                                   now=now))] * 4  # the same request retried at once
    errors = in_threads(app, jobs)
    assert errors == []
    bets = len(bettors) * len(others)
    assert jackpot.pool_view(pool).amount == Decimal(1000) + Decimal("0.95") * (bets + 1) - 120
    assert casino.balance(winner) == Decimal(1000 - 11 - 20 + 20 + 40 + 120)  # Ante and Flop win (R3), P2
    assert casino.balance(bettors[0]) == Decimal(100 - 2 * 2)  # Ante and Progressive once per table
    assert verify.audit_ledger() == []


def test_two_dealers_advance_each_round_exactly_once(app, pg) -> None:
    casino = pg
    pool = casino.pool(seed="100")
    table_ids = [casino.table(pool, betting_seconds=1, decision_seconds=1) for _ in range(3)]
    players = [casino.player() for _ in range(4)]
    stop = threading.Event()

    def dealing() -> None:
        while not stop.is_set():
            dealer.tick()
            time.sleep(0.01)

    def betting() -> None:
        while not stop.is_set():
            for table in table_ids:
                for player in players:
                    try:
                        rounds.place_bets(player, table, "1", progressive=True, request_id=f"{time.time()}-{player}")
                    except ServiceError:
                        pass

    def stopper() -> None:  # until three rounds are settled (a generous ceiling: the machine is shared)
        try:
            wait_until(lambda: db.session.scalar(select(func.count()).select_from(GameRound)
                                                 .where(GameRound.phase == "settled")) >= 3,
                       seconds=120, what="three settled rounds")
        finally:
            stop.set()

    assert in_threads(app, [dealing, dealing, dealing, betting, stopper]) == []
    assert len(assert_each_step_taken_once()) >= 3
    assert verify.audit_ledger() == []


def test_r5_two_linked_tables_hitting_p1_in_the_same_instant_while_a_third_bets(app, pg) -> None:
    """The house's rule (docs/rules.md R5): linked tables settling at once are paid in the order
    they take the pool's lock, each its percentage of the pool as it stands then (this round's and
    every committed contribution in it, the earlier prize out of it); the pool stays exact."""
    casino = pg
    pool = casino.pool(seed="1000")
    first, second, third = (casino.table(pool) for _ in range(3))
    alice, bob = casino.player(), casino.player()
    hits = [casino.play_royal(first, alice, "a"), casino.play_royal(second, bob, "b")]
    casino.to_showdown(first)
    casino.to_showdown(second)
    now = T0 + 60 * SECOND
    casino.open(third, now=now)
    bettors = [casino.player(currency, amount) for currency, amount in (("USD", "100"), ("THB", "2500")) * 8]
    jobs: list[Callable[[], object]] = [lambda t=t: dealer_steps.advance(t, now) for t in (first, second)]
    jobs += [(lambda p=p: rounds.place_bets(p, third, wallet.currency_spec(wallet.balance(p).currency).multiplier,
                                            progressive=True, request_id=f"{p}", now=now)) for p in bettors]
    assert in_threads(app, jobs) == []
    history = list(reversed(pool_admin.history(pool, limit=1000)))
    standing, prizes = ZERO, []
    for movement in history:
        if movement["kind"] == "prize":
            assert -movement["amount"] == round_down(standing * Decimal("0.9"), Decimal("0.01"))  # R5 P1, R6
            prizes.append(movement["shares"][0]["player_id"])
        standing += movement["amount"]
    assert sorted(prizes) == sorted([alice, bob])
    contributions = Decimal("0.95") * (2 + len(bettors))
    paid = sum((-m["amount"] for m in history if m["kind"] == "prize"), ZERO)
    assert jackpot.pool_view(pool).amount == standing == Decimal(1000) + contributions - paid
    assert pool_admin.reconcile(pool).sound
    assert all(verify.replay(round_id).identical for round_id in hits)
    assert verify.audit_ledger() == []


def _waiting_on(table: str) -> Callable[[], bool]:
    """Whether a session waits for a lock with a query on that table (pg_stat_activity)."""
    def waiting() -> bool:
        with db.engine.connect() as probe:
            return bool(probe.scalar(text(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND query ILIKE :table"), {"table": f"%{table}%"}))
    return waiting


def _in_background(app, jobs: list[Callable[[], object]]) -> tuple[threading.Thread, list[Exception]]:
    errors: list[Exception] = []
    thread = threading.Thread(target=lambda: errors.extend(in_threads(app, jobs)))
    thread.start()
    return thread, errors


def test_a_held_pool_lock_stops_no_linked_table_but_its_progressive_postings(app, pg) -> None:
    """Issue 10, R5: the pool row is a transaction's last lock. While another transaction holds it,
    a linked table still takes bets without the Progressive and settles a round without one; a
    Progressive bet queues on it only at its very end, then goes through."""
    casino = pg
    pool = casino.pool(seed="100")
    settling, betting = casino.table(pool), casino.table(pool)
    player, other, progressive = casino.player(), casino.player(), casino.player()
    round_id = casino.open(settling)
    rounds.place_bets(player, settling, "10", request_id="a", now=T0)
    casino.run(settling, T0 + 10 * SECOND)
    rounds.decide(player, round_id, "flop", request_id="a-flop", now=T0 + 11 * SECOND)
    casino.to_showdown(settling)
    now = T0 + 60 * SECOND
    casino.open(betting, now=now)
    holder = db.engine.connect()
    held = holder.begin()
    holder.execute(text("SELECT amount FROM jackpot_pools WHERE id = :id FOR UPDATE"), {"id": pool})
    try:
        free, free_errors = _in_background(app, [lambda: dealer_steps.advance(settling, now),
                                                 lambda: rounds.place_bets(other, betting, "10", request_id="b",
                                                                           now=now)])
        free.join(timeout=120)
        assert not free.is_alive() and free_errors == []
        queued, queued_errors = _in_background(app, [lambda: rounds.place_bets(progressive, betting, "10",
                                                                                progressive=True, request_id="c",
                                                                                now=now)])
        wait_until(_waiting_on("jackpot_pools"), seconds=120, what="the Progressive bet waiting on the pool row")
    finally:
        held.rollback()
        holder.close()
    queued.join(timeout=120)
    assert not queued.is_alive() and queued_errors == []
    assert db.session.get(GameRound, round_id).phase == "settled"
    assert jackpot.pool_view(pool).amount == Decimal(100) + Decimal("0.95")
    assert verify.audit_ledger() == []


def test_issue10_r2_1_a_bet_waits_for_the_in_play_account_another_is_opening_and_is_not_retried(app, pg) -> None:
    """Issue 10: the first bets of a round all find its in-play account missing. One that finds
    another transaction opening it waits for that commit and goes on with the account it made:
    one attempt, where a plain INSERT failed on the unique code and the whole bet was retried."""
    casino = pg
    table, player = casino.table(casino.pool()), casino.player()
    round_id = casino.open(table)
    holder = db.engine.connect()
    held = holder.begin()
    holder.execute(text("INSERT INTO ledger_accounts (code, kind, currency, round_id, balance, may_go_negative) "
                        "VALUES (:code, 'in_play', :currency, :round, 0, false)"),
                   {"code": f"in_play:{round_id}:USD", "currency": "USD", "round": round_id})
    bets_sent: list[str] = []

    def record(_connection: object, _cursor: object, statement: str, *_rest: object) -> None:
        if statement.startswith("INSERT INTO bets"):
            bets_sent.append(statement)

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        betting, errors = _in_background(app, [lambda: rounds.place_bets(player, table, "5", request_id="a", now=T0)])
        wait_until(_waiting_on("ledger_accounts"), seconds=120, what="the bet waiting for the account being opened")
        held.commit()
        betting.join(timeout=120)
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
        holder.close()
    assert not betting.is_alive() and errors == []
    assert len(bets_sent) == 1
    assert wallet.in_play_account(round_id, "USD").balance == Decimal(5)
    assert verify.audit_ledger() == []


def test_each_paytable_version_is_claimed_by_exactly_one_computing_process(app, pg) -> None:
    """Issues 11 and 13: the dealers' background workers race for the versions without figures;
    each version is computed by one of them (row lock, SKIP LOCKED, re-checked under the lock)."""
    from pathlib import Path

    from casino_holdem.services import paytable_figures, paytable_versions

    text = (Path(__file__).resolve().parents[2] / "paytables" / "standard-v1.toml").read_text()
    ann = staff("ann", "manager")
    versions = [paytable_versions.submit(text.replace("version = 1", f"version = {n}", 1).encode(), ann)
                for n in (1, 2, 3)]
    claims: list[paytable_figures.Claim | None] = []
    assert in_threads(app, [lambda: claims.append(paytable_figures.claim_next("engine")) for _ in range(8)]) == []
    claimed = [claim.sha256 for claim in claims if claim is not None]
    assert len(claimed) == len(set(claimed)) and set(claimed) <= {version.sha256 for version in versions}
    while (claim := paytable_figures.claim_next("engine")) is not None:
        claimed.append(claim.sha256)
    assert sorted(claimed) == sorted(version.sha256 for version in versions)


# --- issue 10: the bettors of one table go side by side ------------------------------------------

def test_r2_1_a_bet_in_flight_keeps_no_other_bettor_of_its_table_waiting(app, pg, monkeypatch) -> None:
    """Issue 10: a bet shares its table's and round's locks. While one bettor's transaction is
    paused half-way (its bet written, its money not yet posted), another bettor of the same table
    is served, and the dealer (SKIP LOCKED) leaves the table, marked busy to be tried again soon."""
    casino = pg
    table = casino.table(casino.pool())
    slow, quick = casino.player(), casino.player()
    round_id = casino.open(table)
    rounds.place_bets(casino.player(), table, "1", request_id="first", now=T0)  # the round's deadline is fixed
    paused, resume, entry = threading.Event(), threading.Event(), audit.entry

    def pausing_entry(actor: str, action: str, **detail: object) -> object:  # the entry goes in with the posting
        if detail.get("player_id") == slow:
            paused.set()
            resume.wait(timeout=120)
        return entry(actor, action, **detail)

    monkeypatch.setattr(audit, "entry", pausing_entry)
    holder, holder_errors = _in_background(app, [lambda: rounds.place_bets(slow, table, "5", request_id="slow",
                                                                              now=T0 + SECOND)])
    try:
        wait_until(paused.is_set, seconds=120, what="the slow bet holding its locks")
        other, other_errors = _in_background(app, [lambda: rounds.place_bets(quick, table, "5", request_id="quick",
                                                                                now=T0 + SECOND)])
        other.join(timeout=120)
        assert not other.is_alive() and other_errors == []
        busy: set[int] = set()
        assert dealer.tick(tables=[table], busy=busy) == [] and busy == {table}  # tried again soon
    finally:
        resume.set()
    holder.join(timeout=120)
    assert not holder.is_alive() and holder_errors == []
    db.session.rollback()
    assert {bet.player_id for bet in db.session.get(GameRound, round_id).bets} >= {slow, quick}
    assert verify.audit_ledger() == []


def _decision_due(casino) -> tuple[int, int, int]:
    """A table, its round and its one bettor (an Ante of 5), whose pre-flop decision is due (R2.3)."""
    table = casino.table(casino.pool())
    round_id = casino.open(table)
    player = casino.player()
    rounds.place_bets(player, table, "5", request_id="bet", now=T0)
    casino.run(table, T0 + 10 * SECOND)  # the hole cards
    return table, round_id, player


def test_r8_a_decision_in_flight_holds_its_round_and_leaves_its_table_free(app, pg, monkeypatch) -> None:
    """Issue 10: a decision locks its round row alone, ``FOR SHARE``. While one is paused half-way
    (its decision written, its Flop bet not yet posted), the table's row is free, so the dealer's
    ``SKIP LOCKED`` does not pass the table over; the round cannot be changed until the decision
    commits; and the decision, made inside its window, stands as the player's own (R2.3, R8)."""
    table, round_id, slow = _decision_due(pg)
    paused, resume, entry = threading.Event(), threading.Event(), audit.entry

    def pausing_entry(actor: str, action: str, **detail: object) -> object:  # the entry goes in with the posting
        if action == "decision" and detail.get("player_id") == slow:
            paused.set()
            resume.wait(timeout=120)
        return entry(actor, action, **detail)

    monkeypatch.setattr(audit, "entry", pausing_entry)
    holder, holder_errors = _in_background(app, [lambda: rounds.decide(slow, round_id, "flop", request_id="slow",
                                                                        now=T0 + 11 * SECOND)])
    try:
        wait_until(paused.is_set, seconds=120, what="the slow decision holding its lock")
        with db.engine.connect() as other:
            free = other.execute(text("SELECT id FROM game_tables WHERE id = :id FOR UPDATE NOWAIT"), {"id": table})
            assert free.scalar_one() == table
            other.rollback()
            with pytest.raises(OperationalError, match="could not obtain lock"):
                other.execute(text("SELECT id FROM rounds WHERE id = :id FOR UPDATE NOWAIT"), {"id": round_id})
            other.rollback()
    finally:
        resume.set()
    holder.join(timeout=120)
    assert not holder.is_alive() and holder_errors == []
    db.session.rollback()
    (bet,) = db.session.get(GameRound, round_id).bets
    assert [(d.street, d.action, d.automatic) for d in bet.decisions] == [("preflop", "flop", None)]
    assert pg.balance(slow) == Decimal(1000 - 5 - 10)
    assert verify.audit_ledger() == []


def test_r8_a_decision_after_its_window_is_refused_without_waiting_for_the_dealer_holding_its_round(app, pg) -> None:
    """Issue 10, R8: a decision's first read locks its round ``FOR SHARE`` only while the round's
    window is open. One sent after the window closed, while the dealer holds the round to close
    it, is refused at once, neither waiting for the dealer nor keeping it waiting."""
    _, round_id, player = _decision_due(pg)
    deadline = db.session.get(GameRound, round_id).deadline
    db.session.rollback()
    assert deadline is not None
    with db.engine.connect() as step:
        step.execute(text("SELECT id FROM rounds WHERE id = :id FOR NO KEY UPDATE"), {"id": round_id})
        deciding, errors = _in_background(app, [lambda: rounds.decide(player, round_id, "flop", request_id="late",
                                                                       now=deadline + SECOND)])
        deciding.join(timeout=60)
        waited = deciding.is_alive()
        step.rollback()
    deciding.join(timeout=60)
    assert not waited
    assert [type(error) for error in errors] == [Conflict] and "R8" in str(errors[0]), errors
    (bet,) = db.session.get(GameRound, round_id).bets
    assert bet.decisions == [] and bet.flop == ZERO


def test_r8_a_decision_writes_beside_the_dealer_holding_its_table(app, pg) -> None:
    """Issue 10: a step's exclusive lock on the table row (:func:`.transaction.locked`, as the
    dealer's ``SKIP LOCKED`` takes it) keeps other lockers out, but not a decision, which holds
    only its round ``FOR SHARE`` and writes rows naming the table (its audit entry's foreign key):
    it commits while the table is held. Under ``FOR UPDATE`` it waited for the holder, which in
    the dealer's step waits for the round the decision holds, a deadlock (R2.3, R8)."""
    table, round_id, player = _decision_due(pg)
    step_lock = locked(select(GameTable.id).where(GameTable.id == table), skip_locked=True)
    with db.engine.connect() as holder:
        assert holder.execute(step_lock).scalar_one() == table
        deciding, errors = _in_background(app, [lambda: rounds.decide(player, round_id, "flop", request_id="flop",
                                                                       now=T0 + 11 * SECOND)])
        deciding.join(timeout=60)
        assert not deciding.is_alive() and errors == []
        with pytest.raises(OperationalError, match="could not obtain lock"), db.engine.connect() as other:
            other.execute(text("SELECT id FROM game_tables WHERE id = :id FOR SHARE NOWAIT"), {"id": table})
        holder.rollback()
    db.session.rollback()
    (bet,) = db.session.get(GameRound, round_id).bets
    assert [(d.street, d.action) for d in bet.decisions] == [("preflop", "flop")]
    assert verify.audit_ledger() == []


def test_r2_1_twenty_bettors_at_once_on_a_new_round_one_bet_each(app, pg) -> None:
    """R2.1, R8: twenty bettors at once on a round with no bet yet, its first window gone by (the
    first bet fixes the window in force), one of them twice under two request ids: twenty bets,
    the double refused, every cent posted."""
    casino = pg
    table = casino.table(casino.pool(seed="100"))
    round_id = casino.open(table)
    bettors, later = [casino.player() for _ in range(20)], T0 + 2.5 * BETTING * SECOND
    jobs: list[Callable[[], object]] = [
        (lambda p=p: rounds.place_bets(p, table, "2", progressive=True, request_id=f"bet-{p}", now=later))
        for p in bettors]
    jobs.append(lambda: rounds.place_bets(bettors[0], table, "3", request_id="again", now=later))
    errors = in_threads(app, jobs)
    assert [str(error) for error in errors] == [f"R2.1: {bettors[0]} has already placed bets on this round"]
    round_row = db.session.get(GameRound, round_id)
    assert sorted(bet.player_id for bet in round_row.bets) == sorted(bettors)
    assert round_row.deadline == T0 + 3 * BETTING * SECOND
    progressive = sum(1 for bet in round_row.bets if bet.progressive)  # 19 or 20: whichever of the double won
    assert progressive >= 19
    assert jackpot.pool_view(round_row.table.pool_id).amount == Decimal(100) + Decimal("0.95") * progressive
    assert verify.audit_ledger() == []


def test_r1_a_cap_on_bettors_holds_when_they_come_at_once(app, pg) -> None:
    """R1: a table that seats three takes three of six bettors who come in the same instant."""
    casino = pg
    table = casino.table(casino.pool(), max_bettors=3)
    round_id = casino.open(table)
    rounds.place_bets(casino.player(), table, "1", request_id="first", now=T0)
    bettors = [casino.player() for _ in range(6)]
    errors = in_threads(app, [(lambda p=p: rounds.place_bets(p, table, "1", request_id=f"{p}", now=T0 + SECOND))
                              for p in bettors])
    assert [str(error) for error in errors] == ["R1: the table is full (3 bettors)"] * 4
    assert len(db.session.get(GameRound, round_id).bets) == 3
    assert verify.audit_ledger() == []


def test_r2_3_twenty_decisions_at_once_each_recorded_and_paid_in(app, pg) -> None:
    """R2.3: the twenty bettors of one round decide in the same instant (each a request retried at
    once): every decision is recorded once and every Flop bet leaves its wallet once."""
    casino = pg
    table = casino.table(casino.pool())
    round_id = casino.open(table)
    bettors = [casino.player() for _ in range(20)]
    for player in bettors:
        rounds.place_bets(player, table, "5", request_id=f"bet-{player}", now=T0)
    casino.run(table, T0 + 10 * SECOND)
    decide = [(lambda p=p, a=a: rounds.decide(p, round_id, a, request_id=f"pre-{p}", now=T0 + 11 * SECOND))
              for p, a in zip(bettors, ("flop", "fold") * 10, strict=True)]
    assert in_threads(app, decide + decide[:5]) == []
    db.session.rollback()
    for player, action in zip(bettors, ("flop", "fold") * 10, strict=True):
        assert casino.balance(player) == Decimal(1000 - 5 - (10 if action == "flop" else 0))
    assert sum(len(bet.decisions) for bet in db.session.get(GameRound, round_id).bets) == 20
    assert verify.audit_ledger() == []


def test_r8_requests_after_their_window_are_refused_without_waiting_for_the_dealer(app, pg) -> None:
    """R2.1, R8, issue 10: while the dealer holds the table and round rows (closing a window), a bet
    after the betting window and a decision after its window are refused at once from reads without
    a lock, and retries of those sent in time still get their first answers."""
    casino = pg
    table = casino.table(casino.pool())
    on_time, silent, late = casino.player(), casino.player(), casino.player()
    round_id = casino.open(table)
    placed = rounds.place_bets(on_time, table, "5", request_id="bet", now=T0)
    rounds.place_bets(silent, table, "5", request_id="bet", now=T0)
    casino.run(table, T0 + 10 * SECOND)  # the hole cards: the pre-flop window runs to T0 + 20 s
    decided = rounds.decide(on_time, round_id, "flop", request_id="flop", now=T0 + 11 * SECOND)
    holder = db.engine.connect()
    held = holder.begin()
    holder.execute(text("SELECT id FROM game_tables WHERE id = :id FOR UPDATE"), {"id": table})
    holder.execute(text("SELECT id FROM rounds WHERE id = :id FOR UPDATE"), {"id": round_id})
    answers: list[object] = []

    def requests() -> None:
        for request in (lambda: rounds.place_bets(late, table, "5", request_id="late", now=T0 + 12 * SECOND),
                        lambda: rounds.place_bets(on_time, table, "5", request_id="bet", now=T0 + 12 * SECOND),
                        lambda: rounds.decide(silent, round_id, "fold", request_id="late", now=T0 + 21 * SECOND),
                        lambda: rounds.decide(on_time, round_id, "flop", request_id="flop", now=T0 + 21 * SECOND)):
            try:
                answers.append(request())
            except ServiceError as error:
                answers.append(str(error))

    try:
        worker, errors = _in_background(app, [requests])
        worker.join(timeout=120)
        assert not worker.is_alive() and errors == []
    finally:
        held.rollback()
        holder.close()
    assert answers[0] == "R2.1: betting is closed at this table"
    assert isinstance(answers[1], rounds.BetReceipt) and answers[1].bet_id == placed.bet_id
    assert answers[2].startswith("R8: the decision window has closed")
    assert answers[3] == decided


def test_issue10_r2_1_a_players_open_rounds_are_found_without_reading_their_history(app, pg) -> None:
    """What a player's open bets reserve (R2.1) is read on every bet, balance and table state: the
    rounds in play are found by their own index, so the read does not grow with the settled rounds
    and bets a long-running floor keeps."""
    casino = pg
    table, player = casino.table(), casino.player()
    casino.open(table)
    settled = rounds.place_bets(player, table, "10", request_id="history", now=T0).round_id
    with db.engine.begin() as connection:  # a history: the same bet on 5,000 settled rounds of the table
        connection.execute(text(
            "INSERT INTO rounds (table_id, number, phase, commitment, deck, nonce, dealt_count, opened_at, "
            "paytable_id, paytable_version, paytable_sha256, dealing) "
            "SELECT table_id, number + g, 'settled', commitment, deck, nonce, dealt_count, opened_at, paytable_id, "
            "paytable_version, paytable_sha256, dealing FROM rounds, generate_series(1, 5000) g WHERE id = :id"),
            {"id": settled})
        connection.execute(text(
            "INSERT INTO bets (round_id, player_id, currency, ante, bonus, progressive, flop, turn, river, "
            "contribution, request_id, request_fingerprint, connected, placed_at) "
            "SELECT r.id, b.player_id, b.currency, b.ante, b.bonus, b.progressive, b.flop, b.turn, b.river, "
            "b.contribution, 'history-' || r.id, b.request_fingerprint, b.connected, b.placed_at "
            "FROM bets b JOIN rounds r ON r.table_id = :table AND r.id <> b.round_id WHERE b.round_id = :id"),
            {"table": table, "id": settled})
        connection.execute(text("ANALYZE rounds; ANALYZE bets"))
    reserved, plan = plan_of(lambda: wallet.balance(player).reserved, "FROM bets JOIN rounds")
    assert reserved == Decimal(40)  # R2.3-R2.5: the Ante's round is in play
    assert "ix_rounds_in_play" in plan and "Seq Scan on rounds" not in plan, plan


def test_issue10_r2_7_the_dealers_read_of_each_tables_last_finish_does_not_grow_with_its_history(app, pg) -> None:
    """The dealer's read of what is due (:func:`.dealer.due`, on every wake) asks when each table's
    last round finished (R2.7: the showdown pause before the next round): one step down the index
    of the rounds by table and finish, not a read of every round the table ever played (46 ms a
    read with 1,200 settled rounds on each of 50 tables; 0.9 ms by the index)."""
    casino = pg
    table = casino.table()
    casino.open(table)
    with db.engine.begin() as connection:  # a history: 5,000 settled rounds of the table, a minute apart
        connection.execute(text(
            "INSERT INTO rounds (table_id, number, phase, commitment, deck, nonce, dealt_count, opened_at, "
            "finished_at, paytable_id, paytable_version, paytable_sha256, dealing) "
            "SELECT table_id, number - g, 'settled', commitment, deck, nonce, dealt_count, opened_at, "
            "opened_at - g * interval '1 minute', paytable_id, paytable_version, paytable_sha256, dealing "
            "FROM rounds, generate_series(1, 5000) g WHERE table_id = :table"), {"table": table})
        connection.execute(text("ANALYZE rounds"))
    due, plan = plan_of(lambda: dealer.due(T0), "max(rounds_1.finished_at)")
    assert due.tables == []  # the open round takes bets: nothing is due
    assert "ix_rounds_table_finished" in plan and "Heap Scan on rounds rounds_1" not in plan, plan
    assert "Seq Scan on rounds rounds_1" not in plan, plan


def test_issue_10_postgresql_compiles_no_statement_just_in_time(pg) -> None:
    """Every statement reads a few rows through their keys, and JIT compilation only adds to it:
    the dealer's read of every table, planned on statistics a burst of rounds had left stale,
    spent about 300 ms compiling a read of 5 ms."""
    with db.engine.connect() as connection:
        assert connection.exec_driver_sql("SHOW jit").scalar() == "off"
