"""Table settings changed by an operator take effect from the table's next round (never inside a
round in play), and a paytable version never before its ``effective_from``.

A change is stored as pending; the dealer applies every due change just before it opens the
table's next round (:func:`apply_due`), so the round records the settings it was played under.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import GameTable, TableChange
from ..serialize import jsonable
from . import audit
from .errors import Unprocessable
from .transaction import clock

#: what a change may set on a table (R1 cap, R2.1/R6 limits, R8 timers, R5 pool, the paytable)
MONEY_SETTINGS = ("ante_min", "ante_max", "bonus_min", "bonus_max")
SETTINGS = ("ante_min", "ante_max", "bonus_min", "bonus_max", "max_bettors", "betting_seconds",
            "decision_seconds", "pool_id", "paytable_id", "paytable_version", "paytable_sha256")


def request_change(table: GameTable, settings: dict[str, Any], actor: str, reason: str, *,
                   not_before: dt.datetime | None = None, now: dt.datetime | None = None) -> TableChange:
    """Store a validated change for the next round (joins the caller's transaction) and audit it
    with the values before and after."""
    if not reason or not reason.strip():
        raise Unprocessable("reason: required (every operator action is audited with why)", "reason")
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise Unprocessable(f"{unknown[0]}: not a table setting", unknown[0])
    moment = clock(now)
    change = TableChange(table_id=table.id, settings=jsonable(settings), not_before=not_before, requested_by=actor,
                         requested_at=moment)
    db.session.add(change)
    db.session.flush()
    audit.record(actor, "table_change_requested", table_id=table.id, now=moment, change_id=change.id,
                 before={key: getattr(table, key) for key in settings}, after=settings, not_before=not_before,
                 reason=reason.strip())
    return change


def pending(table_id: int) -> list[TableChange]:
    """The changes not applied yet, oldest first."""
    return list(db.session.scalars(select(TableChange).where(TableChange.table_id == table_id,
                                                             TableChange.applied_at.is_(None))
                                   .order_by(TableChange.id)))


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
