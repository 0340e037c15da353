"""Table settings changed by an operator take effect from the table's next round (never inside a
round in play), and a paytable version never before its ``effective_from``.

A change is stored as pending; the dealer applies every due change just before it opens the
table's next round (:func:`apply_due`), so the round records the settings it was played under.
A table nobody bets at keeps one empty round open (R2.1: it is never dealt), so its next round
may never come: a due change then lands on that empty round (:func:`.dealer_steps.reopen`), under
which no stake was ever placed, and its betting window starts again under the new settings.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, exists, func, or_, select

from ..extensions import db
from ..models import GameTable, TableChange
from ..serialize import jsonable
from . import audit
from .errors import Unprocessable
from .transaction import clock

if TYPE_CHECKING:
    from .operators import OperatorView

#: what a change may set on a table (R1 cap and dealing source, R2.1/R6 limits, R8 timers, R5 pool,
#: the paytable)
MONEY_SETTINGS = ("ante_min", "ante_max", "bonus_min", "bonus_max")
SETTINGS = ("ante_min", "ante_max", "bonus_min", "bonus_max", "max_bettors", "betting_seconds",
            "decision_seconds", "pool_id", "dealing", "paytable_id", "paytable_version", "paytable_sha256")


def request_change(table: GameTable, settings: dict[str, Any], by: OperatorView, reason: str, *,
                   not_before: dt.datetime | None = None, now: dt.datetime | None = None) -> TableChange:
    """Store a validated change for the next round (joins the caller's transaction) and audit it
    with the values before and after."""
    if not reason or not reason.strip():
        raise Unprocessable("reason: required (every operator action is audited with why)", "reason")
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise Unprocessable(f"{unknown[0]}: not a table setting", unknown[0])
    moment = clock(now)
    change = TableChange(table_id=table.id, settings=jsonable(settings), not_before=not_before,
                         requested_by=audit.actor_of(by), requested_at=moment)
    db.session.add(change)
    db.session.flush()
    audit.operator_action(by, "table_change_requested", reason=reason.strip(), table_id=table.id, now=moment,
                          before={key: getattr(table, key) for key in settings}, after=settings,
                          change_id=change.id, not_before=not_before)
    return change


def pending(table_id: int) -> list[TableChange]:
    """The changes not applied yet, oldest first."""
    return list(db.session.scalars(select(TableChange).where(TableChange.table_id == table_id,
                                                             TableChange.applied_at.is_(None))
                                   .order_by(TableChange.id)))


def due_clause(table_id: Any, now: ColumnElement[dt.datetime]) -> ColumnElement[bool]:
    """SQL: the table has a pending change due at ``now`` (for the dealer's one query, where it is a parameter)."""
    return exists().where(TableChange.table_id == table_id, TableChange.applied_at.is_(None),
                          or_(TableChange.not_before.is_(None), TableChange.not_before <= now))


def next_due(table_id: Any, now: ColumnElement[dt.datetime]) -> Any:
    """SQL: when the table's next pending change becomes due, if later than ``now``."""
    return (select(func.min(TableChange.not_before))
            .where(TableChange.table_id == table_id, TableChange.applied_at.is_(None), TableChange.not_before > now)
            .scalar_subquery())


def apply_due(table: GameTable, now: dt.datetime) -> list[TableChange]:
    """Apply the due changes to a locked table between two rounds, oldest first (a later change
    of the same setting wins); a change not yet effective waits."""
    applied = []
    for change in pending(table.id):
        if change.not_before is not None and now < change.not_before:
            continue
        before = {key: getattr(table, key) for key in change.settings}
        for key, value in change.settings.items():
            setattr(table, key, Decimal(value) if key in MONEY_SETTINGS and value is not None else value)
        change.applied_at = now
        applied.append(change)
        audit.record(audit.SYSTEM, "table_change_applied", table_id=table.id, now=now, change_id=change.id,
                     before=before, after=change.settings)
    return applied
