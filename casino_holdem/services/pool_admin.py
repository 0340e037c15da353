"""The jackpot pools as the back office sees them (R5, R6, R9): each pool's history, a
reconciliation that proves the pool from that history, and corrections of a wrongly displayed
amount that a second manager must approve before any money moves.

Two linked tables hitting in the same instant (R5, the house's rule): settlements lock the pool
row one after the other, so the first to take the lock is paid first and the second is paid its
percentage of the pool as the first one left it; nothing is paid from money the pool no longer
holds. The order is the order of the prize movements in the pool's history.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select

from ..core.money import POOL_QUANTUM, ZERO, is_multiple_of
from ..extensions import db
from ..models import AwardRecord, Bet, JackpotPool, MovementKind, PoolCorrection, PoolMovement
from . import audit, queries
from .errors import Conflict, Unprocessable
from .jackpot import house_move
from .transaction import clock, transactional
from .wallet import amount_of, pool_account

if TYPE_CHECKING:
    from .operators import OperatorView


class CorrectionStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """R5: ``amount`` (the meter) = the sum of the history = the pool's ledger balance."""

    pool_id: int
    amount: Decimal
    from_history: Decimal
    ledger_balance: Decimal
    by_kind: dict[str, Decimal]

    @property
    def sound(self) -> bool:
        return self.amount == self.from_history == self.ledger_balance


@transactional
def history(pool_id: int, *, limit: int = 200) -> list[dict[str, Any]]:
    """The pool's movements, newest first; each prize with how it was shared (R5: bettor, table,
    hand, share of how many, amount in base units and in the bettor's currency)."""
    pool = queries.get(JackpotPool, pool_id)
    movements = db.session.scalars(select(PoolMovement).where(PoolMovement.pool_id == pool.id)
                                   .order_by(PoolMovement.id.desc()).limit(limit)).all()
    rows = []
    for movement in movements:
        row: dict[str, Any] = {"id": movement.id, "at": movement.created_at, "kind": movement.kind,
                               "amount": movement.amount, "round_id": movement.round_id, "actor": movement.actor,
                               "reason": movement.reason}
        if movement.kind == MovementKind.PRIZE and movement.bet_id is not None:
            row["shares"] = [
                {"player_id": bet.player_id, "prize_table": award.prize_table, "hand": award.hand,
                 "share_of": award.share_of, "base_amount": award.base_amount, "amount": award.amount,
                 "currency": bet.currency}
                for award, bet in db.session.execute(
                    select(AwardRecord, Bet).join(Bet, Bet.id == AwardRecord.bet_id)
                    .where(AwardRecord.bet_id == movement.bet_id))]
        rows.append(row)
    return rows


@transactional
def reconcile(pool_id: int) -> Reconciliation:
    """Prove the pool from its history: its meter, the sum of every movement, and its ledger account."""
    pool = queries.get(JackpotPool, pool_id)
    by_kind = {kind: total for kind, total in db.session.execute(
        select(PoolMovement.kind, func.sum(PoolMovement.amount)).where(PoolMovement.pool_id == pool.id)
        .group_by(PoolMovement.kind))}
    sums = {kind.value: Decimal(by_kind.get(kind.value) or ZERO) for kind in MovementKind}
    return Reconciliation(pool.id, pool.amount, sum(sums.values(), ZERO), pool_account(pool.id).balance, sums)


def _correction(correction_id: int) -> PoolCorrection:
    correction = queries.lock(PoolCorrection, correction_id)
    if correction.status != CorrectionStatus.PENDING:
        raise Conflict(f"status: correction {correction.id} is already {correction.status}", "status")
    return correction


@transactional
def request_correction(pool_id: int, amount: Decimal | str | int, reason: str, by: OperatorView, *,
                       now: dt.datetime | None = None) -> dict[str, Any]:
    """R9: a manager asks to correct the pool by ``amount`` (signed base units) with a reason;
    nothing moves until a second manager approves."""
    value = amount_of(amount, "amount")
    if value == 0 or not is_multiple_of(value, POOL_QUANTUM):
        raise Unprocessable(f"amount: {value} must be non-zero with at most 5 decimal places (R6)", "amount")
    if not reason or not reason.strip():
        raise Unprocessable("reason: required (every pool change is audited)", "reason")
    pool = queries.get(JackpotPool, pool_id)
    moment = clock(now)
    correction = PoolCorrection(pool_id=pool.id, amount=value, reason=reason.strip(),
                                status=CorrectionStatus.PENDING.value, requested_by=audit.actor_of(by),
                                requested_at=moment)
    db.session.add(correction)
    db.session.flush()
    audit.operator_action(by, "pool_correction_requested", reason=correction.reason, now=moment, pool_id=pool.id,
                          correction_id=correction.id, amount=value, before=pool.amount, after=pool.amount + value)
    return _correction_view(correction)


@transactional
def approve_correction(correction_id: int, by: OperatorView, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """Four-eyes: a manager other than the requester applies the correction (R9); the pool never
    goes below zero (R5)."""
    actor = audit.actor_of(by)
    correction = _correction(correction_id)
    if correction.requested_by == actor:
        raise Conflict(f"decided_by: {actor} requested this correction; a second manager approves it (four-eyes)",
                       "decided_by")
    pool = queries.lock(JackpotPool, correction.pool_id)
    before = pool.amount
    if before + correction.amount < 0:
        raise Unprocessable(f"amount: the pool holds {before}; {correction.amount} would take it below zero (R5)",
                            "amount")
    moment = clock(now)
    transaction_id = house_move(pool.id, MovementKind.CORRECTION, correction.amount, actor=actor,
                             reason=f"{correction.reason} (requested by {correction.requested_by})")
    correction.status, correction.decided_by, correction.decided_at = CorrectionStatus.APPROVED.value, actor, moment
    correction.transaction_id = transaction_id
    audit.operator_action(by, "pool_correction", reason=correction.reason, now=moment, pool_id=pool.id,
                          correction_id=correction.id, amount=correction.amount,
                          requested_by=correction.requested_by, before=before, after=pool.amount)
    return _correction_view(correction)


@transactional
def reject_correction(correction_id: int, by: OperatorView, reason: str, *,
                      now: dt.datetime | None = None) -> dict[str, Any]:
    """A second manager turns the correction down; nothing moves."""
    correction = _correction(correction_id)
    if not reason or not reason.strip():
        raise Unprocessable("reason: required (every operator action is audited with why)", "reason")
    moment = clock(now)
    correction.status, correction.decided_at = CorrectionStatus.REJECTED.value, moment
    correction.decided_by = audit.actor_of(by)
    audit.operator_action(by, "pool_correction_rejected", reason=reason.strip(), now=moment,
                          pool_id=correction.pool_id, correction_id=correction.id,
                          before=CorrectionStatus.PENDING.value, after=CorrectionStatus.REJECTED.value)
    return _correction_view(correction)


@transactional
def corrections(pool_id: int | None = None) -> list[dict[str, Any]]:
    """Corrections, newest first (optionally of one pool)."""
    statement = select(PoolCorrection).order_by(PoolCorrection.id.desc())
    if pool_id is not None:
        statement = statement.where(PoolCorrection.pool_id == pool_id)
    return [_correction_view(correction) for correction in db.session.scalars(statement)]


def _correction_view(correction: PoolCorrection) -> dict[str, Any]:
    return {"id": correction.id, "pool_id": correction.pool_id, "amount": correction.amount,
            "reason": correction.reason, "status": correction.status, "requested_by": correction.requested_by,
            "requested_at": correction.requested_at, "decided_by": correction.decided_by,
            "decided_at": correction.decided_at}
