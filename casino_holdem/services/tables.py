"""Table administration (issue 11): creating tables, editing them from their next round, opening,
closing, suspending and resuming them, each an audited operator action.

A table names a paytable file by id, version and SHA-256 (a used version is never edited), links
to one jackpot pool (R5: tables may share it) and holds its limits in base units (R6 scales them
per currency), its cap on bettors (R1) and its timers (R8). Playing its rounds is
:mod:`.rounds` and :mod:`.dealer_steps`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from sqlalchemy import select

from .. import paytable_files
from ..core.live import DEALING_MODES
from ..core.money import POOL_QUANTUM, is_multiple_of
from ..extensions import db
from ..models import GameTable, JackpotPool
from . import audit, paytable_versions, queries, table_changes
from .errors import Conflict, Unprocessable, core_refusals
from .transaction import transactional

if TYPE_CHECKING:
    from .operators import OperatorView


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
    dealing: str
    suspended_reason: str | None


def view_of(table: GameTable) -> TableView:
    """A table's settings as the operator's commands show them."""
    return TableView(table.id, table.name, f"{table.paytable_id}@{table.paytable_version}", table.paytable_sha256,
                     table.pool_id, table.ante_min, table.ante_max, table.bonus_min, table.bonus_max,
                     table.max_bettors, table.betting_seconds, table.decision_seconds, table.is_open, table.is_demo,
                     table.dealing, table.suspended_reason)


@transactional
def create_table(name: str, pool_id: int, *, paytable: str = paytable_files.DEFAULT_REFERENCE,
                 ante_min: Decimal | None = None, ante_max: Decimal | None = None,
                 bonus_min: Decimal | None = None, bonus_max: Decimal | None = None,
                 max_bettors: int | None = None, betting_seconds: int = 15, decision_seconds: int = 15,
                 dealing: str = "rng", is_demo: bool = False, by: OperatorView | None = None) -> TableView:
    """A new open table on a paytable file (recorded by id, version and SHA-256) and a pool;
    limits are base units (R6 scales them per currency); ``dealing`` is who deals it (R1: the
    server's shuffle, or a live dealer's console). ``by`` None: the system (demo data)."""
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 64:
        raise Unprocessable("name: 1 to 64 characters", "name")
    name = name.strip()
    check_dealing(dealing)
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
                      decision_seconds=decision_seconds, pool_id=pool_id, is_open=True, is_demo=is_demo,
                      dealing=dealing)
    db.session.add(table)
    db.session.flush()
    paytable_versions.keep(table_file, audit.actor_of(by))
    audit.operator_action(by, "table_created", reason=None, table_id=table.id, before=None, after=view_of(table),
                          paytable=table_file.ref, sha256=table_file.sha256)
    return view_of(table)


def check_dealing(dealing: object) -> str:
    """R1: a table is dealt by the server's shuffle (``rng``) or a live dealer's console (``live``)."""
    if dealing not in DEALING_MODES:
        raise Unprocessable(f"dealing: {dealing!r} must be one of {', '.join(DEALING_MODES)}", "dealing")
    return str(dealing)


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
            "pool_id", "dealing")


@transactional
def edit_table(table_id: int, by: OperatorView, reason: str, *, now: dt.datetime | None = None,
               **settings: Decimal | int | str | None) -> TableView:
    """Change a table's limits, timers, cap, linked pool or dealing source: validated against the
    table's other settings now, applied when its next round opens (a round in play keeps what it
    started with)."""
    table = queries.lock(GameTable, table_id)
    unknown = sorted(set(settings) - set(EDITABLE))
    if unknown:
        raise Unprocessable(f"{unknown[0]}: not an editable table setting", unknown[0])
    merged = {key: getattr(table, key) for key in EDITABLE} | settings
    if "pool_id" in settings:
        queries.get(JackpotPool, int(merged["pool_id"]))
    check_dealing(merged.pop("dealing"))
    merged.pop("pool_id")
    check_settings(**merged)
    changed = {key: value for key, value in settings.items() if getattr(table, key) != value}
    if changed:
        table_changes.request_change(table, changed, by, reason, now=now)
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
def set_table_open(table_id: int, is_open: bool, by: OperatorView, *, now: dt.datetime | None = None) -> TableView:
    """Open or close a table: a closed table finishes the round in play and opens no new one."""
    table = queries.lock(GameTable, table_id)
    before, table.is_open = table.is_open, is_open
    audit.operator_action(by, "table_opened" if is_open else "table_closed", reason=None, table_id=table.id,
                          now=now, before={"is_open": before}, after={"is_open": is_open})
    return view_of(table)


@transactional
def suspend_table(table_id: int, reason: str, by: OperatorView, *, now: dt.datetime | None = None) -> TableView:
    """Suspend a table (an incident being looked into, R9): it takes no bet and opens no new round
    until resumed; a round already dealt finishes by the rules (R2, R8), so no stake is stranded."""
    why = reason.strip() if isinstance(reason, str) else ""
    if not why or len(why) > 200:
        raise Unprocessable("reason: required, 1 to 200 characters (a suspension is audited with why)", "reason")
    table = queries.lock(GameTable, table_id)
    if table.suspended_reason is not None:
        raise Conflict(f"table: {table.name} is already suspended ({table.suspended_reason})", "table")
    table.suspended_reason = why
    audit.operator_action(by, "table_suspended", reason=why, table_id=table.id, now=now,
                          before={"suspended_reason": None}, after={"suspended_reason": why})
    return view_of(table)


@transactional
def resume_table(table_id: int, reason: str, by: OperatorView, *, now: dt.datetime | None = None) -> TableView:
    """Resume a suspended table: it takes bets and opens rounds again (if it is open)."""
    table = queries.lock(GameTable, table_id)
    if table.suspended_reason is None:
        raise Conflict(f"table: {table.name} is not suspended", "table")
    before, table.suspended_reason = table.suspended_reason, None
    audit.operator_action(by, "table_resumed", reason=reason.strip() or None, table_id=table.id, now=now,
                          before={"suspended_reason": before}, after={"suspended_reason": None})
    return view_of(table)
