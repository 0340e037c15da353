"""Reading the audit log: filters by actor, table, round, player, action and time, and exports.

The log itself is written by :mod:`.audit` and is append-only (the database refuses updates);
this module only reads it, for the auditor's pages, the API and the CLI.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import AuditEntry
from ..serialize import dumps, jsonable
from .errors import Unprocessable
from .transaction import transactional

MAX_ENTRIES = 5000
COLUMNS = ("id", "at", "actor", "action", "table_id", "round_id", "player_id", "detail")


@dataclass(frozen=True, slots=True)
class AuditFilter:
    """Every criterion is optional; ``actor`` and ``action`` match exactly, ``since`` is included
    and ``until`` excluded."""

    actor: str | None = None
    action: str | None = None
    table_id: int | None = None
    round_id: int | None = None
    player_id: int | None = None
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    limit: int = 200


@transactional
def search(criteria: AuditFilter) -> list[dict[str, Any]]:
    """The matching entries, newest first, as JSON-ready dicts."""
    if not 1 <= criteria.limit <= MAX_ENTRIES:
        raise Unprocessable(f"limit: {criteria.limit} must be between 1 and {MAX_ENTRIES}", "limit")
    if criteria.since and criteria.until and criteria.until <= criteria.since:
        raise Unprocessable("until: the period ends after it starts", "until")
    statement = select(AuditEntry)
    for column, value in ((AuditEntry.actor, criteria.actor), (AuditEntry.action, criteria.action),
                          (AuditEntry.table_id, criteria.table_id), (AuditEntry.round_id, criteria.round_id),
                          (AuditEntry.player_id, criteria.player_id)):
        if value is not None and value != "":
            statement = statement.where(column == value)
    if criteria.since is not None:
        statement = statement.where(AuditEntry.at >= criteria.since)
    if criteria.until is not None:
        statement = statement.where(AuditEntry.at < criteria.until)
    rows = db.session.scalars(statement.order_by(AuditEntry.id.desc()).limit(criteria.limit))
    return [jsonable({column: getattr(row, column) for column in COLUMNS}) for row in rows]


def to_csv(entries: list[dict[str, Any]]) -> str:
    """One row per entry; the detail as compact JSON in its own column."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for entry in entries:
        writer.writerow([dumps(entry[column], indent=None) if column == "detail" else entry[column]
                         for column in COLUMNS])
    return out.getvalue()


def to_json(entries: list[dict[str, Any]]) -> str:
    return dumps({"entries": entries})
