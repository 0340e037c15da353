"""Concurrency on PostgreSQL: many threads betting on tables that share one pool while a prize
hits, and several dealers advancing the same tables. (The rest of the suite also runs on
PostgreSQL through the ``app`` fixture's parameter.)"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from decimal import Decimal

import pytest
from sqlalchemy import select

from casino_holdem.extensions import db
from casino_holdem.models import AuditEntry, GameRound, LedgerTransaction
from casino_holdem.services import dealer, dealer_steps, jackpot, rounds, verify, wallet
from casino_holdem.services.errors import ServiceError
from support.casino import SECOND, T0, deck_with

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg(app, casino):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("PostgreSQL only")
    return casino


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

    def stopper() -> None:
        time.sleep(5)
        stop.set()

    assert in_threads(app, [dealing, dealing, dealing, betting, stopper]) == []
    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.action.in_(("dealt", "round_settled")))).all()
    steps = Counter((entry.round_id, entry.action, entry.detail.get("street")) for entry in entries)
    assert steps and max(steps.values()) == 1
    settled = db.session.scalars(select(GameRound.id).where(GameRound.phase == "settled")).all()
    settlements = Counter(db.session.scalars(select(LedgerTransaction.round_id)
                                             .where(LedgerTransaction.kind == "settlement")))
    assert len(settled) >= 3 and set(settlements) == set(settled) and max(settlements.values()) == 1
    assert all(steps[(round_id, "dealt", "river")] == 1 for round_id in settled)
    assert verify.audit_ledger() == []


def test_each_paytable_version_is_claimed_by_exactly_one_computing_process(app, pg) -> None:
    """Issues 11 and 13: the dealers' background workers race for the versions without figures;
    each version is computed by one of them (row lock, SKIP LOCKED, re-checked under the lock)."""
    from pathlib import Path

    from casino_holdem.services import paytable_figures, paytable_versions

    text = (Path(__file__).resolve().parents[2] / "paytables" / "standard-v1.toml").read_text()
    versions = [paytable_versions.submit(text.replace("version = 1", f"version = {n}", 1).encode(), "operator:ann")
                for n in (1, 2, 3)]
    claims: list[paytable_figures.Claim | None] = []
    assert in_threads(app, [lambda: claims.append(paytable_figures.claim_next("engine")) for _ in range(8)]) == []
    claimed = [claim.sha256 for claim in claims if claim is not None]
    assert len(claimed) == len(set(claimed)) and set(claimed) <= {version.sha256 for version in versions}
    while (claim := paytable_figures.claim_next("engine")) is not None:
        claimed.append(claim.sha256)
    assert sorted(claimed) == sorted(version.sha256 for version in versions)
