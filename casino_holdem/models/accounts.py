"""Who may sign in: players (issue 5) and operators (issue 11), their server-side sessions and the
login counters that limit guessing (issue 10).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, Index, Integer, String, func
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .columns import UTCDateTime, utcnow


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A player; usernames are unique whatever their case (``Demo1`` is ``demo1``, issue 10)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    currency: Mapped[str] = mapped_column(String(8))
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: issue 13: the player's settings, kept for every device: the pages' language (None: not chosen)
    #: and the reality check's interval in minutes (0: off)
    language: Mapped[str | None] = mapped_column(String(8))
    reality_check_minutes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __table_args__ = (Index("uq_players_username_lower", func.lower(username), unique=True),)


class Operator(db.Model):  # type: ignore[name-defined,misc]
    """A back-office account (issue 11), separate from players: one role, never a wallet."""

    __tablename__ = "operators"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32))
    password_hash: Mapped[str] = mapped_column(String(256))
    role: Mapped[str] = mapped_column(String(16))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)

    __table_args__ = (Index("uq_operators_username_lower", func.lower(username), unique=True),)


class AuthSession(db.Model):  # type: ignore[name-defined,misc]
    """A signed-in session; the cookie carries only the token, the row only its SHA-256, so
    revoking the row ends every copy of the cookie (issue 10)."""

    __tablename__ = "auth_sessions"
    __table_args__ = (Index("ix_auth_sessions_principal", "kind", "principal_id"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    principal_id: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    last_seen_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


class LoginCounter(db.Model):  # type: ignore[name-defined,misc]
    """Attempts on one login key (a username from an address, or an address) in the window that
    began at ``window_start``; counted by one atomic upsert so a burst cannot overrun it."""

    __tablename__ = "login_counters"

    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    window_start: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    count: Mapped[int] = mapped_column(Integer)
