"""Table administration: creating tables, listing them, opening and closing them.

A table names a paytable file by id, version and SHA-256 (a used version is never edited), links
to one jackpot pool (R5: tables may share it) and holds its limits in base units (R6 scales them
per currency), its cap on bettors (R1) and its timers (R8). Playing its rounds is
:mod:`.rounds` and :mod:`.dealer_steps`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select

from .. import paytable_files
from ..core.money import POOL_QUANTUM, is_multiple_of
from ..extensions import db
from ..models import GameTable, JackpotPool
from . import audit, paytable_versions, queries, table_changes
from .errors import Conflict, Unprocessable, core_refusals
from .transaction import transactional


@dataclass(frozen=True, slots=True)
class TableView:
    id: int
    name: str
    paytable: str
    paytable_sha256: str
    pool_id: int
    ante_min: Decimal | None
    ante_max: Decimal | None
    bonus_min: Decimal | None
    bonus_max: Decimal | None
    max_bettors: int | None
    betting_seconds: int
    decision_seconds: int
    is_open: bool
    is_demo: bool


def view_of(table: GameTable) -> TableView:
    """A table's settings as the operator's commands show them."""
    return TableView(table.id, table.name, f"{table.paytable_id}@{table.paytable_version}", table.paytable_sha256,
                     table.pool_id, table.ante_min, table.ante_max, table.bonus_min, table.bonus_max,
                     table.max_bettors, table.betting_seconds, table.decision_seconds, table.is_open, table.is_demo)


@transactional
def create_table(name: str, pool_id: int, *, paytable: str = paytable_files.DEFAULT_REFERENCE,
                 ante_min: Decimal | None = None, ante_max: Decimal | None = None,
                 bonus_min: Decimal | None = None, bonus_max: Decimal | None = None,
                 max_bettors: int | None = None, betting_seconds: int = 15, decision_seconds: int = 15,
                 is_demo: bool = False, operator: str = "system") -> TableView:
    """A new open table on a paytable file (recorded by id, version and SHA-256) and a pool;
    limits are base units (R6 scales them per currency)."""
    if db.session.scalars(select(GameTable).where(GameTable.name == name)).first() is not None:
        raise Conflict(f"name: a table {name!r} exists", "name")
    queries.get(JackpotPool, pool_id)
    with core_refusals("paytable"):
        table_file = paytable_files.resolve(paytable)
    check_settings(ante_min=ante_min, ante_max=ante_max, bonus_min=bonus_min, bonus_max=bonus_max,
                   max_bettors=max_bettors, betting_seconds=betting_seconds, decision_seconds=decision_seconds)
    table = GameTable(name=name, paytable_id=table_file.id, paytable_version=table_file.version,
                      paytable_sha256=table_file.sha256, ante_min=ante_min, ante_max=ante_max, bonus_min=bonus_min,
                      bonus_max=bonus_max, max_bettors=max_bettors, betting_seconds=betting_seconds,
                      decision_seconds=decision_seconds, pool_id=pool_id, is_open=True, is_demo=is_demo)
    db.session.add(table)
    db.session.flush()
    paytable_versions.keep(table_file, audit.operator_actor(operator))
    audit.record(audit.operator_actor(operator), "table_created", table_id=table.id, name=name,
                 paytable=table_file.ref, sha256=table_file.sha256, pool_id=pool_id)
    return view_of(table)


def check_settings(*, ante_min: Decimal | None, ante_max: Decimal | None, bonus_min: Decimal | None,
                   bonus_max: Decimal | None, max_bettors: int | None, betting_seconds: int,
                   decision_seconds: int) -> None:
    """A table's whole set of settings is coherent: R8 timers of at least a second, R2.1/R6 limits
    positive in base units with the minimum below the maximum, R1 at least one bettor."""
    if betting_seconds < 1 or decision_seconds < 1:
        field = "betting_seconds" if betting_seconds < 1 else "decision_seconds"
        raise Unprocessable(f"{field}: timers are at least 1 second (R8)", field)
    for bet, low, high in (("ante", ante_min, ante_max), ("bonus", bonus_min, bonus_max)):
        for setting, limit in ((f"{bet}_min", low), (f"{bet}_max", high)):
            if limit is not None and (limit <= 0 or not is_multiple_of(limit, POOL_QUANTUM)):
                raise Unprocessable(f"{setting}: {limit} must be positive with at most 5 decimal places", setting)
        if low is not None and high is not None and low > high:
            raise Unprocessable(f"{bet}_min: {low} is above {bet}_max {high}", f"{bet}_min")
    if max_bettors is not None and max_bettors < 1:
        raise Unprocessable(f"max_bettors: {max_bettors} must be at least 1 (R1)", "max_bettors")


#: what :func:`edit_table` may change, each from the table's next round
EDITABLE = ("ante_min", "ante_max", "bonus_min", "bonus_max", "max_bettors", "betting_seconds", "decision_seconds",
            "pool_id")


@transactional
def edit_table(table_id: int, actor: str, reason: str, *, now: dt.datetime | None = None,
               **settings: Decimal | int | None) -> TableView:
    """Change a table's limits, timers, cap or linked pool: validated against the table's other
    settings now, applied when its next round opens (a round in play keeps what it started with)."""
    table = queries.lock(GameTable, table_id)
    unknown = sorted(set(settings) - set(EDITABLE))
    if unknown:
        raise Unprocessable(f"{unknown[0]}: not an editable table setting", unknown[0])
    merged = {key: getattr(table, key) for key in EDITABLE} | settings
    if "pool_id" in settings:
        queries.get(JackpotPool, int(merged.pop("pool_id")))  # type: ignore[arg-type]
    else:
        merged.pop("pool_id")
    check_settings(**merged)  # type: ignore[arg-type]
    changed = {key: value for key, value in settings.items() if getattr(table, key) != value}
    if changed:
        table_changes.request_change(table, changed, actor, reason, now=now)
    return view_of(table)


@transactional
def pending_changes(table_id: int) -> list[dict[str, object]]:
    """The changes waiting for the table's next round (and, for a paytable, its effective date)."""
    return [{"id": change.id, "settings": change.settings, "not_before": change.not_before,
             "requested_by": change.requested_by, "requested_at": change.requested_at}
            for change in table_changes.pending(queries.get(GameTable, table_id).id)]


@transactional
def list_tables() -> list[TableView]:
    """Every table, open or closed, in the order they were created."""
    return [view_of(table) for table in db.session.scalars(select(GameTable).order_by(GameTable.id))]


@transactional
def set_table_open(table_id: int, is_open: bool, operator: str, *, now: dt.datetime | None = None) -> TableView:
    """Open or close a table: a closed table finishes the round in play and opens no new one."""
    table = queries.lock(GameTable, table_id)
    table.is_open = is_open
    audit.record(audit.operator_actor(operator), "table_opened" if is_open else "table_closed", table_id=table.id,
                 now=now)
    return view_of(table)
