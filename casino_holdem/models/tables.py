"""Game tables: their paytable, limits, timers and pool, and the operators' changes waiting for a
table's next round.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .columns import Money, UTCDateTime
from .jackpot import JackpotPool


class GameTable(db.Model):  # type: ignore[name-defined,misc]
    """A table: its paytable file, limits in base units (R6), timers (R8) and its pool."""

    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    paytable_id: Mapped[str] = mapped_column(String(64))
    paytable_version: Mapped[int] = mapped_column(Integer)
    paytable_sha256: Mapped[str] = mapped_column(String(64))
    ante_min: Mapped[Decimal | None] = mapped_column(Money)
    ante_max: Mapped[Decimal | None] = mapped_column(Money)
    bonus_min: Mapped[Decimal | None] = mapped_column(Money)
    bonus_max: Mapped[Decimal | None] = mapped_column(Money)
    max_bettors: Mapped[int | None] = mapped_column(Integer)
    betting_seconds: Mapped[int] = mapped_column(Integer)
    decision_seconds: Mapped[int] = mapped_column(Integer)
    pool_id: Mapped[int] = mapped_column(ForeignKey("jackpot_pools.id"))
    is_open: Mapped[bool] = mapped_column(Boolean, default=True)
    is_demo: Mapped[bool] = mapped_column(Boolean, default=False)
    #: R1, R9: ``rng`` (the server shuffles) or ``live`` (a dealer's console enters the cards)
    dealing: Mapped[str] = mapped_column(String(8), default="rng", server_default="rng")
    #: why the pit suspended the table (None: not suspended); it opens no round until resumed
    suspended_reason: Mapped[str | None] = mapped_column(String(200))

    pool: Mapped[JackpotPool] = relationship()


class TableChange(db.Model):  # type: ignore[name-defined,misc]
    """Settings an operator changed on a table, waiting for the table's next round to open: a change
    never lands inside a round, and a paytable change never before its ``not_before`` instant."""

    __tablename__ = "table_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    not_before: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    requested_by: Mapped[str] = mapped_column(String(64))
    requested_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    applied_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    applied_round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"))
