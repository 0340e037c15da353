"""Publishing after commit: while a transaction flushes, the rows it writes say which tables
changed (a round, a bet, a decision, the table itself) and whether the lobby did (any of those, or
a jackpot pool's meter, R6); after the commit those topics are published once on the app's bus. A
rolled-back transaction publishes nothing, so no stream ever shows a state that was not committed.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy.orm import Session

from ..extensions import after_commit
from ..models import Bet, DecisionRecord, GameRound, GameTable, JackpotPool
from .bus import EXTENSION

log = logging.getLogger(__name__)
LOBBY = "lobby"
PENDING = "casino_events_pending"


def table_topic(table_id: int) -> str:
    return f"table:{table_id}"


def _table_of(row: object) -> int | None:
    if isinstance(row, GameTable):
        return row.id
    if isinstance(row, GameRound):
        return row.table_id
    if isinstance(row, Bet):
        return row.round.table_id
    if isinstance(row, DecisionRecord):
        return row.bet.round.table_id
    return None


def _collect(session: Session, _context: Any) -> None:
    pending: set[str] = session.info.setdefault(PENDING, set())
    for row in (*session.new, *session.dirty, *session.deleted):
        table_id = _table_of(row)
        if table_id is not None:
            pending.update((table_topic(table_id), LOBBY))
        elif isinstance(row, JackpotPool):
            pending.add(LOBBY)


def _publish(topics: set[str]) -> None:
    if not has_app_context():
        return
    bus = current_app.extensions.get(EXTENSION)
    if bus is None:
        return
    try:
        bus.publish(topics)
    except Exception:  # the commit stands; streams catch up when the bus is back (bus.EVERYTHING)
        log.exception("publishing %s failed", sorted(topics))


def register() -> None:
    """Install the hooks on every ORM session (idempotent); a rolled-back transaction publishes nothing."""
    after_commit(PENDING, _collect, _publish)
