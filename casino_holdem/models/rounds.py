"""A round and what happens in it: the bets (R2), the decisions (R2.3-R2.5, R8), the progressive
awards (R5) and the live dealing incidents (R9). The core's values (:mod:`casino_holdem.core`) are
what these rows store.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint, column
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..core.money import ZERO
from ..core.phases import FINISHED
from ..extensions import db
from .columns import Money, UTCDateTime
from .tables import GameTable

#: a round not yet settled or void (R2.7, R9)
IN_PLAY = column("phase").notin_([phase.value for phase in FINISHED])


class GameRound(db.Model):  # type: ignore[name-defined,misc]
    """One round of a table. ``deck`` and ``nonce`` are stored from the start (the database is the
    dealer's memory) but only published once the round is settled or void; ``commitment`` is
    published when the round opens (R1)."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("table_id", "number"), Index("ix_rounds_table_phase", "table_id", "phase"),
                      # the rounds in play, a few per table however long the floor has run: a
                      # player's open rounds (R2.1: what their bets reserve) are found from here,
                      # not by reading every bet they ever made (issue 10)
                      Index("ix_rounds_in_play", "id", postgresql_where=IN_PLAY, sqlite_where=IN_PLAY),
                      # when each table's last round finished (R2.7: the showdown pause before the
                      # next), which the dealer asks on every wake: one step down this index, not a
                      # read of every round the table ever played (issue 10)
                      Index("ix_rounds_table_finished", "table_id", "finished_at"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    number: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(16))
    #: None for a live round: its cards are entered as dealt, there is no deck to commit to (R1)
    commitment: Mapped[str | None] = mapped_column(String(64))
    #: a live round's deck is the cards entered so far, in R1 order
    deck: Mapped[str] = mapped_column(Text)
    nonce: Mapped[str | None] = mapped_column(String(64))
    dealt_count: Mapped[int] = mapped_column(Integer, default=0)
    opened_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    deadline: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
    paytable_id: Mapped[str] = mapped_column(String(64))
    paytable_version: Mapped[int] = mapped_column(Integer)
    paytable_sha256: Mapped[str] = mapped_column(String(64))
    pool_before: Mapped[Decimal | None] = mapped_column(Money)
    result: Mapped[str | None] = mapped_column(String(16))
    player_hand: Mapped[str | None] = mapped_column(String(24))
    dealer_hand: Mapped[str | None] = mapped_column(String(24))
    void_reason: Mapped[str | None] = mapped_column(String(40))
    void_stage: Mapped[str | None] = mapped_column(String(16))
    voided_by: Mapped[str | None] = mapped_column(String(64))
    dealing: Mapped[str] = mapped_column(String(8), default="rng", server_default="rng")

    table: Mapped[GameTable] = relationship()
    bets: Mapped[list[Bet]] = relationship(back_populates="round", order_by="Bet.id")


class Bet(db.Model):  # type: ignore[name-defined,misc]
    """One bettor's wagers on one round (R2), in the player's currency; ``request_id`` is the
    client's idempotency key for the placement."""

    __tablename__ = "bets"
    __table_args__ = (UniqueConstraint("round_id", "player_id"), UniqueConstraint("player_id", "request_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    currency: Mapped[str] = mapped_column(String(8))
    ante: Mapped[Decimal] = mapped_column(Money)
    bonus: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    progressive: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    flop: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    turn: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    river: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    contribution: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    request_id: Mapped[str] = mapped_column(String(128))
    request_fingerprint: Mapped[str] = mapped_column(String(64))
    connected: Mapped[bool] = mapped_column(Boolean, default=True)
    placed_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    returned: Mapped[Decimal | None] = mapped_column(Money)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    round: Mapped[GameRound] = relationship(back_populates="bets")
    decisions: Mapped[list[DecisionRecord]] = relationship(back_populates="bet", order_by="DecisionRecord.id")


class DecisionRecord(db.Model):  # type: ignore[name-defined,misc]
    """R2.3-R2.5: one stored decision per street; ``automatic`` is the R8 reason when the house took
    it. (The core's :class:`~casino_holdem.core.round.Decision` is the value; this is its row.)"""

    __tablename__ = "decisions"
    __table_args__ = (UniqueConstraint("bet_id", "street"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    bet_id: Mapped[int] = mapped_column(ForeignKey("bets.id"))
    street: Mapped[str] = mapped_column(String(8))
    action: Mapped[str] = mapped_column(String(8))
    automatic: Mapped[str | None] = mapped_column(String(16))
    request_id: Mapped[str | None] = mapped_column(String(128))
    decided_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)

    bet: Mapped[Bet] = relationship(back_populates="decisions")


class AwardRecord(db.Model):  # type: ignore[name-defined,misc]
    """R5: one bettor's stored share of one progressive prize; ``amount`` in the bettor's currency
    (R6). (The core's :class:`~casino_holdem.core.settlement.Award` is the value; this is its row.)"""

    __tablename__ = "awards"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    bet_id: Mapped[int] = mapped_column(ForeignKey("bets.id"))
    prize_table: Mapped[str] = mapped_column(String(2))
    hand: Mapped[str] = mapped_column(String(24))
    street: Mapped[str | None] = mapped_column(String(8))
    share_of: Mapped[int] = mapped_column(Integer)
    amount: Mapped[Decimal] = mapped_column(Money)
    base_amount: Mapped[Decimal] = mapped_column(Money)


class IncidentRecord(db.Model):  # type: ignore[name-defined,misc]
    """R9: one dealing incident as reported and ruled: who, when, which card, the stage, what was
    done (``effect``: void, reshuffle, used_again, corrected, recorded) and, for a corrected
    misdeal, both positions (R1 dealing-order indexes)."""

    __tablename__ = "incidents"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"))
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    effect: Mapped[str] = mapped_column(String(16))
    stage: Mapped[str] = mapped_column(String(16))
    card: Mapped[str | None] = mapped_column(String(3))
    wrong_position: Mapped[int | None] = mapped_column(Integer)
    corrected_to: Mapped[int | None] = mapped_column(Integer)
    void_reason: Mapped[str | None] = mapped_column(String(40))
    notice: Mapped[str | None] = mapped_column(Text)
    reported_by: Mapped[str] = mapped_column(String(64))
    reported_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
