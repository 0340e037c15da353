"""The append-only audit log: who did what, when (entries are never updated or deleted: triggers,
see the initial migration).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .columns import UTCDateTime


class AuditEntry(db.Model):  # type: ignore[name-defined,misc]
    """Append-only: who did what, when, to which table/round/player, with a JSON detail."""

    __tablename__ = "audit_log"
    #: the audit log is read by action and time
    __table_args__ = (Index("ix_audit_log_action_at", "action", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    actor: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(48))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("game_tables.id"))
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
