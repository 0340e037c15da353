"""Jackpot pools (R5, R6): contributions, prizes, seed top-ups and audited corrections.

A pool is kept in base units, exactly (5 decimal places), as a row (``amount``, what meters
show and what is locked ``FOR NO KEY UPDATE`` before any change, so tables sharing a pool never lose an
update) and as a ledger account moved by the same transaction. The lock is a transaction's last
one (:mod:`.transaction`), so linked tables queue on it only for the pool's own postings. Every change is also one
:class:`~casino_holdem.models.PoolMovement`, so the pool can be re-derived:
``pool = contributions − reversals − prizes + top-ups ± corrections``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING

from sqlalchemy import Integer, String, bindparam, func, insert, inspect, select, true, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm.attributes import set_committed_value

from .. import paytable_files
from ..core.money import (
    POOL_QUANTUM,
    ZERO,
    is_multiple_of,
    round_down,
)
from ..extensions import db
from ..models import (
    BASE,
    AccountKind,
    JackpotPool,
    LedgerAccount,
    LedgerTransaction,
    Money,
    MovementKind,
    PoolMovement,
    UTCDateTime,
    utcnow,
)
from . import audit, queries
from .errors import Unprocessable
from .transaction import transactional
from .wallet import Entry, amount_of, house_account, pool_account, post

if TYPE_CHECKING:
    from .operators import OperatorView


@dataclass(frozen=True, slots=True)
class PoolView:
    """R6: ``amount`` in base units; ``meters`` is the pool × each currency's multiplier, rounded
    down to the currency's unit (the most a player of that currency could be paid)."""

    id: int
    name: str
    amount: Decimal
    meters: dict[str, Decimal] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Movement:
    """One pool change to record beside its ledger legs (signed, + into the pool)."""

    kind: MovementKind
    amount: Decimal
    bet_id: int | None = None


def pool_legs(pool_id: int, base_delta: Decimal, counterpart: LedgerAccount, multiplier: Decimal,
              memo: str, player_id: int | None = None) -> list[Entry]:
    """R6: ``base_delta`` base units into the pool from ``counterpart`` (an in-play or wallet account
    in its own currency), converted at the fixed multiplier through the exchange accounts, so each
    currency's legs sum to zero."""
    converted = base_delta * multiplier
    return [Entry(pool_account(pool_id), base_delta, memo, player_id),
            Entry(house_account(AccountKind.EXCHANGE, BASE), -base_delta, memo, player_id),
            Entry(counterpart, -converted, memo, player_id),
            Entry(house_account(AccountKind.EXCHANGE, counterpart.currency), converted, memo, player_id)]


POOLS, POOL_MOVEMENTS = JackpotPool.__table__, PoolMovement.__table__
#: :func:`move`'s statements, plain and built once with their parameters named (issue 10: every
#: Progressive bet moves a pool): the pool's amount moved by ``delta`` (``pool_id``), the amount
#: it leaves; its movements
ADD_TO_POOL = (update(POOLS).where(POOLS.c.id == bindparam("pool_id"))
               .values(amount=POOLS.c.amount + bindparam("delta", type_=POOLS.c.amount.type))
               .returning(POOLS.c.amount))
NEW_MOVEMENTS = insert(POOL_MOVEMENTS)
#: PostgreSQL: the pool's amount moved and its movements written by one statement (issue 10: one
#: round trip fewer for every Progressive bet). The movements are selected from the pool's
#: update, so they are written once its row is locked, in the order given (their parameters
#: name no column of the pools, whose update would set it)
POOL_MOVED = ADD_TO_POOL.cte("pool_moved")
MOVEMENTS_TABLE = func.unnest(
    bindparam("movement_kinds", type_=ARRAY(String)), bindparam("movement_amounts", type_=ARRAY(Money())),
    bindparam("movement_bets", type_=ARRAY(Integer)),
).table_valued("kind", "amount", "bet_id", with_ordinality="ordinal").render_derived()
ADD_TO_POOL_WITH_MOVEMENTS = select(POOL_MOVED.c.amount).add_cte(insert(POOL_MOVEMENTS).from_select(
    ["pool_id", "kind", "amount", "round_id", "bet_id", "transaction_id", "actor", "reason", "created_at"],
    select(bindparam("pool_id", type_=Integer), MOVEMENTS_TABLE.c.kind, MOVEMENTS_TABLE.c.amount,
           bindparam("movement_round", type_=Integer), MOVEMENTS_TABLE.c.bet_id,
           bindparam("transaction_id", type_=Integer), bindparam("movement_actor", type_=String),
           bindparam("movement_reason", type_=String), bindparam("movement_at", type_=UTCDateTime()))
    .select_from(POOL_MOVED.join(MOVEMENTS_TABLE, true())).order_by(MOVEMENTS_TABLE.c.ordinal))
    .cte("new_movements"))


def move(pool_id: int, kind: str, entries: Sequence[Entry], movements: Sequence[Movement], *,
         actor: str, round_id: int | None = None, reason: str | None = None,
         idempotency_key: str | None = None) -> int:
    """Post ``entries`` and record ``movements`` on the pool ``pool_id`` in one go; the pool
    account's legs must add up to the movements (one amount, two records, never apart). Returns the
    ledger transaction's id. The pool row need not be read first (a contribution never reads it,
    issue 10); one this session holds shows the amount the statement left (a settlement, a top-up
    and a correction report it)."""
    account = pool_account(pool_id)
    on_account = sum((e.amount for e in entries if e.account.id == account.id), ZERO)
    moved = sum((m.amount for m in movements), ZERO)
    if on_account != moved:
        raise RuntimeError(f"pool {pool_id}: ledger legs {on_account} differ from movements {moved}")
    def pool_row(transaction_id: int) -> None:
        """R5: one statement adds to the pool row, after the players' and rounds' accounts and
        before the shared ones (the lock order of transaction.py): a caller that need not read it
        first (a contribution) holds it from here to commit only (issue 10; a settlement locked it
        earlier). The movements are written under it, so their order is the order in which the
        linked tables changed the pool (its history replays it)."""
        amount = _add_to_pool(pool_id, moved, movements, transaction_id, actor=actor, round_id=round_id,
                              reason=reason)
        if amount < 0:
            raise RuntimeError(f"pool {pool_id} would go below zero (R5)")
        held = db.session.identity_map.get(inspect(JackpotPool).identity_key_from_primary_key((pool_id,)))
        if held is not None:
            set_committed_value(held, "amount", amount)

    transaction_id = post(kind, entries, round_id=round_id, idempotency_key=idempotency_key, before_shared=pool_row)
    return transaction_id


def _add_to_pool(pool_id: int, moved: Decimal, movements: Sequence[Movement], transaction_id: int, *, actor: str,
                 round_id: int | None, reason: str | None) -> Decimal:
    """Add ``moved`` to the pool's row and write its movements; the amount the pool now holds.
    One statement on PostgreSQL (:data:`ADD_TO_POOL_WITH_MOVEMENTS`), two on SQLite."""
    if movements and db.session.get_bind().dialect.name == "postgresql":
        amount: Decimal = db.session.execute(ADD_TO_POOL_WITH_MOVEMENTS, {
            "pool_id": pool_id, "delta": moved, "movement_kinds": [m.kind.value for m in movements],
            "movement_amounts": [m.amount for m in movements], "movement_bets": [m.bet_id for m in movements],
            "movement_round": round_id, "transaction_id": transaction_id, "movement_actor": actor,
            "movement_reason": reason, "movement_at": utcnow()}).scalar_one()
        return amount
    amount = db.session.execute(ADD_TO_POOL, {"pool_id": pool_id, "delta": moved}).scalar_one()
    if movements:  # an empty list would insert one row of defaults
        db.session.execute(NEW_MOVEMENTS, [
            {"pool_id": pool_id, "kind": m.kind.value, "amount": m.amount, "round_id": round_id,
             "bet_id": m.bet_id, "transaction_id": transaction_id, "actor": actor, "reason": reason}
            for m in movements])
    return amount


#: the house account on the other side of each house-funded pool movement
HOUSE_SIDE = {MovementKind.SEED_TOP_UP: AccountKind.SEED, MovementKind.CORRECTION: AccountKind.CORRECTION}


def house_move(pool_id: int, kind: MovementKind, amount: Decimal, *, actor: str, reason: str,
               round_id: int | None = None, idempotency_key: str | None = None) -> int:
    """R5/R9: the house puts ``amount`` base units into the pool (a seed top-up) or takes them out
    or in (a correction), from its own base-unit account."""
    memo = kind.value.replace("_", " ")
    house = house_account(HOUSE_SIDE[kind], BASE)
    return move(pool_id, kind.value, [Entry(pool_account(pool_id), amount, memo), Entry(house, -amount, memo)],
                [Movement(kind, amount)], actor=actor, round_id=round_id, reason=reason,
                idempotency_key=idempotency_key)


def meters_of(amount: Decimal) -> dict[str, Decimal]:
    """R6: the meter of a pool holding ``amount`` base units in every currency (× its multiplier,
    down to its smallest unit)."""
    return {code: round_down(amount * spec.multiplier, spec.unit)
            for code, spec in paytable_files.resolve().currencies.items()}


def _view(pool: JackpotPool) -> PoolView:
    return PoolView(pool.id, pool.name, pool.amount, meters_of(pool.amount))


def _base_amount(amount: Decimal | str | int) -> Decimal:
    value = amount_of(amount, "amount")
    if value <= 0 or not is_multiple_of(value, POOL_QUANTUM):
        raise Unprocessable(f"amount {value}: must be positive with at most 5 decimal places (R6)", "amount")
    return value


def _reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise Unprocessable("reason: required (every pool change is audited)", "reason")
    return reason.strip()


@transactional
def ensure_pool(name: str) -> PoolView:
    """The pool of that name, created empty when missing."""
    pool = db.session.scalars(select(JackpotPool).where(JackpotPool.name == name)).first()
    if pool is None:
        pool = JackpotPool(name=name, amount=ZERO)
        db.session.add(pool)
        db.session.flush()
        pool_account(pool.id)
        audit.record(audit.SYSTEM, "pool_created", pool_id=pool.id, name=name)
    return _view(pool)


@transactional
def list_pools() -> list[PoolView]:
    """Every jackpot pool with its meters (R6)."""
    return [_view(pool) for pool in db.session.scalars(select(JackpotPool).order_by(JackpotPool.id))]


@transactional
def pool_view(pool_id: int) -> PoolView:
    """The pool and its meter in every currency (R6)."""
    return _view(queries.get(JackpotPool, pool_id))


@transactional
def top_up(pool_id: int, amount: Decimal | str | int, reason: str, by: OperatorView | None, *,
           idempotency_key: str | None = None, now: dt.datetime | None = None) -> PoolView:
    """R5: the house puts ``amount`` base units into the pool (a seed), recorded and audited. With
    an ``idempotency_key`` a repeat is a no-op."""
    value, why = _base_amount(amount), _reason(reason)
    pool = queries.lock(JackpotPool, pool_id)
    key = None if idempotency_key is None else f"top_up:{idempotency_key}"
    if key is not None and db.session.scalars(
            select(LedgerTransaction.id).where(LedgerTransaction.idempotency_key == key)).first() is not None:
        return _view(pool)
    before = pool.amount
    house_move(pool.id, MovementKind.SEED_TOP_UP, value, actor=audit.actor_of(by), reason=why, idempotency_key=key)
    audit.operator_action(by, "pool_top_up", reason=why, now=now, pool_id=pool.id, amount=value, before=before,
                          after=pool.amount)
    return _view(pool)
