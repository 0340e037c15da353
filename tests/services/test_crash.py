"""A crash between any two steps of a service transaction leaves no partial money movement, and
the dealer resumes from the last committed step.

Every database write goes through ``Session.flush``; each test crashes the operation at its 1st,
2nd, 3rd … flush (the commit's own flush included) until it gets through, and checks after each
crash that nothing at all changed."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casino_holdem.extensions import db
from casino_holdem.models import (
    AuditEntry,
    Bet,
    DecisionRecord,
    GameRound,
    JackpotPool,
    LedgerAccount,
    LedgerTransaction,
    PoolMovement,
    Posting,
)
from casino_holdem.services import dealer, dealer_steps, rounds, verify, viewing, voids
from support.casino import SECOND, T0, deck_with, staff


class Crash(RuntimeError):
    """The process dies here."""


def snapshot() -> tuple[object, ...]:
    """Everything a crash could have left half-done."""
    db.session.rollback()
    counts = tuple(db.session.scalar(select(func.count()).select_from(model)) for model in
                   (LedgerTransaction, Posting, AuditEntry, Bet, DecisionRecord, GameRound, PoolMovement))
    balances = tuple(db.session.execute(select(LedgerAccount.code, LedgerAccount.balance).order_by(LedgerAccount.id)))
    pools = tuple(db.session.scalars(select(JackpotPool.amount).order_by(JackpotPool.id)))
    rounds = tuple(db.session.execute(select(GameRound.id, GameRound.phase, GameRound.dealt_count)))
    db.session.rollback()
    return counts, balances, pools, rounds


def crash_everywhere(monkeypatch: pytest.MonkeyPatch, operation: Callable[[], object]) -> int:
    """Run ``operation`` crashing at its n-th flush for n = 1, 2, … until it completes; returns how
    many crash points it had."""
    original = Session.flush
    for point in itertools.count(1):
        before = snapshot()
        calls = itertools.count(1)

        def flush(session: Session, objects: object = None, _point: int = point,
                  _calls: itertools.count[int] = calls) -> None:
            if next(_calls) == _point:
                raise Crash(f"killed at flush {_point}")
            original(session, objects)  # type: ignore[arg-type]

        with monkeypatch.context() as patch:
            patch.setattr(Session, "flush", flush)
            try:
                operation()
            except Crash:
                assert snapshot() == before, f"partial changes after a crash at flush {point}"
                continue
        return point - 1
    raise AssertionError("unreachable")


@pytest.fixture
def round_at(casino):
    """A table with a pool of 1000, two bettors with every bet, on a deck with Four of a Kind (P2)."""
    pool = casino.pool(seed="1000")
    table = casino.table(pool)
    alice, bob = casino.player(), casino.player("THB", "100000")
    round_id = casino.open(table, deck_with("7c 7d", "4h Kd", "7s 7h 2s 9d Jc"))
    return casino, table, round_id, alice, bob


def test_crash_while_placing_bets(round_at, monkeypatch) -> None:
    casino, table, _round_id, alice, _bob = round_at
    points = crash_everywhere(monkeypatch, lambda: rounds.place_bets(alice, table, "10", "5", True, request_id="a",
                                                                     now=T0))
    assert points > 5 and casino.balance(alice) == 1000 - 16
    casino.assert_sound()


def test_crash_while_deciding_and_dealing(round_at, monkeypatch) -> None:
    casino, table, round_id, alice, bob = round_at
    rounds.place_bets(alice, table, "10", "5", True, request_id="a", now=T0)
    rounds.place_bets(bob, table, "250", "0", True, request_id="b", now=T0)
    assert crash_everywhere(monkeypatch, lambda: dealer_steps.advance(table, T0 + 10 * SECOND)) > 3
    crash_everywhere(monkeypatch, lambda: rounds.decide(alice, round_id, "flop", request_id="f", now=T0 + 11 * SECOND))
    # bob times out (R8): the automatic fold and the flop are one step
    crash_everywhere(monkeypatch, lambda: dealer_steps.advance(table, T0 + 20 * SECOND))
    assert viewing.house_view(round_id)["bettors"][1]["decisions"]["preflop"]["automatic"] == "timeout"
    casino.assert_sound()


def test_crash_while_settling_a_prize_and_the_dealer_resumes(round_at, monkeypatch) -> None:
    casino, table, round_id, alice, bob = round_at
    rounds.place_bets(alice, table, "10", "5", True, request_id="a", now=T0)
    rounds.place_bets(bob, table, "250", "0", True, request_id="b", now=T0)
    casino.run(table, T0 + 10 * SECOND)
    rounds.decide(alice, round_id, "flop", request_id="f", now=T0 + 11 * SECOND)
    rounds.decide(bob, round_id, "flop", request_id="g", now=T0 + 11 * SECOND)
    for seconds in (12, 30, 50):  # the flop, then the turn and the river after R8 timeouts
        casino.run(table, T0 + seconds * SECOND, steps=1)
    assert viewing.house_view(round_id)["phase"] == "showdown"
    assert crash_everywhere(monkeypatch, lambda: dealer_steps.advance(table, T0 + 60 * SECOND)) > 10
    assert viewing.house_view(round_id)["phase"] == "settled" and verify.replay(round_id).identical
    assert [step.event for step in dealer.tick()] == ["opened"]  # the loop carries on from there
    casino.assert_sound()


def test_crash_while_voiding(round_at, monkeypatch) -> None:
    casino, table, round_id, alice, _bob = round_at
    rounds.place_bets(alice, table, "10", "5", True, request_id="a", now=T0)
    crash_everywhere(monkeypatch, lambda: voids.void_round(round_id, "misdeal", by=staff("pit", "pit"), now=T0))
    assert casino.balance(alice) == 1000
    casino.assert_sound()
