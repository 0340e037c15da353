"""Linked jackpot pools (R5, R6), every change of a pool as a movement, and the four-eyes
corrections of a wrongly displayed amount (R9). Pool movements are never updated or deleted
(triggers, see the initial migration).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from enum import StrEnum

from sqlalchemy import CheckConstraint, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..core.money import ZERO
from ..extensions import db
from .columns import Money, UTCDateTime, utcnow


class MovementKind(StrEnum):
    """R5/R9: every change of a pool is one of these, signed in the pool's favour."""

    CONTRIBUTION = "contribution"
    CONTRIBUTION_REVERSAL = "contribution_reversal"
    PRIZE = "prize"
    SEED_TOP_UP = "seed_top_up"
    CORRECTION = "correction"


class JackpotPool(db.Model):  # type: ignore[name-defined,misc]
    """A linked jackpot pool in base units (R5, R6), shared by the tables that name it."""

    __tablename__ = "jackpot_pools"
    __table_args__ = (CheckConstraint("amount >= 0", name="ck_jackpot_pools_amount"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    amount: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class PoolMovement(db.Model):  # type: ignore[name-defined,misc]
    """R5/R9: one change of a pool, signed (+ into the pool), with the ledger transaction behind it."""

    __tablename__ = "pool_movements"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pool_id: Mapped[int] = mapped_column(ForeignKey("jackpot_pools.id"), index=True)
    kind: Mapped[str] = mapped_column(String(24))
    amount: Mapped[Decimal] = mapped_column(Money)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), index=True)
    bet_id: Mapped[int | None] = mapped_column(ForeignKey("bets.id"))
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"))
    actor: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


class PoolCorrection(db.Model):  # type: ignore[name-defined,misc]
    """R9: a correction of a wrongly displayed pool amount, requested by one manager and applied
    only when a second one approves it (four-eyes); ``transaction_id`` is the applied movement."""

    __tablename__ = "pool_corrections"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pool_id: Mapped[int] = mapped_column(ForeignKey("jackpot_pools.id"), index=True)
    amount: Mapped[Decimal] = mapped_column(Money)
    reason: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    requested_by: Mapped[str] = mapped_column(String(64))
    requested_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    decided_by: Mapped[str | None] = mapped_column(String(64))
    decided_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    transaction_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_transactions.id"))
