"""The database model (SQLAlchemy 2.0 typed style): players, a double-entry ledger, jackpot pools,
tables, rounds, bets, decisions, awards and the append-only audit log; operators, server-side
sessions and login counters (issues 10 and 11).

Money is :class:`~decimal.Decimal` end to end. :class:`Money` is ``NUMERIC(20, 5)`` on
PostgreSQL and a scaled 64-bit integer (units of 0.00001) on SQLite, whose NUMERIC affinity would
otherwise store binary floats and sum them inexactly; five places is the pool's precision (R6).

The database guards the ledger as well as the services do: a posting's currency must be its
account's (composite foreign key), accounts that may not go negative have a CHECK, a ledger
transaction can only be *sealed* when its postings sum to zero per currency, a sealed
transaction takes no more postings, and postings, pool movements and audit entries are never
updated or deleted (triggers, see the initial migration).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    Numeric,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator, TypeEngine

from .core.money import POOL_PLACES, POOL_QUANTUM, ZERO
from .extensions import db

#: the pool's base unit (R6) as a ledger currency; wallets never hold it
BASE = "BASE"
MONEY_PRECISION = 20


class Money(TypeDecorator[Decimal]):
    """An exact amount with up to 5 decimal places; floats are refused when binding."""

    impl = Numeric(MONEY_PRECISION, POOL_PLACES)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(BigInteger())
        return dialect.type_descriptor(Numeric(MONEY_PRECISION, POOL_PLACES, asdecimal=True))

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        if isinstance(value, (float, bool)):
            raise TypeError(f"money must be a Decimal, not {type(value).__name__}")
        amount = Decimal(value)
        if amount.quantize(POOL_QUANTUM) != amount:
            raise ValueError(f"money {amount}: more than {POOL_PLACES} decimal places")
        return int(amount.scaleb(POOL_PLACES)) if dialect.name == "sqlite" else amount

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        if value is None:
            return None
        amount = Decimal(int(value)).scaleb(-POOL_PLACES) if dialect.name == "sqlite" else Decimal(value)
        return _plain(amount)

    @property
    def python_type(self) -> type:
        return Decimal


def _plain(amount: Decimal) -> Decimal:
    """Without trailing zeros, never in exponent form: 100.00000 → 100, 0.95000 → 0.95."""
    normal = amount.normalize()
    return normal.quantize(Decimal(1)) if normal.as_tuple().exponent > 0 else normal  # type: ignore[operator]


class UTCDateTime(TypeDecorator[dt.datetime]):
    """A timezone-aware UTC instant; SQLite stores it naive (in UTC) and gets the zone back."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("datetimes must be timezone-aware (UTC)")
        value = value.astimezone(dt.UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: Any, dialect: Dialect) -> dt.datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class AccountKind(StrEnum):
    """What a ledger account stands for; only the house side may go negative."""

    WALLET = "wallet"          # a player's money, in the player's currency
    IN_PLAY = "in_play"        # one round's stakes in one currency until settlement or void
    HOUSE = "house"            # the house's result per currency
    EXCHANGE = "exchange"      # R6 fixed-multiplier conversion between a currency and BASE
    POOL = "pool"              # a jackpot pool, BASE
    SEED = "seed"              # house money put into pools (R5 seed top-ups), BASE
    CORRECTION = "correction"  # the other side of audited pool corrections (R9), BASE
    CASHIER = "cashier"        # money entering or leaving: deposits (demo/operator), per currency


NON_NEGATIVE_KINDS = (AccountKind.WALLET, AccountKind.IN_PLAY, AccountKind.POOL)


class MovementKind(StrEnum):
    """R5/R9: every change of a pool is one of these, signed in the pool's favour."""

    CONTRIBUTION = "contribution"
    CONTRIBUTION_REVERSAL = "contribution_reversal"
    PRIZE = "prize"
    SEED_TOP_UP = "seed_top_up"
    CORRECTION = "correction"


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


class JackpotPool(db.Model):  # type: ignore[name-defined,misc]
    """A linked jackpot pool in base units (R5, R6), shared by the tables that name it."""

    __tablename__ = "jackpot_pools"
    __table_args__ = (CheckConstraint("amount >= 0", name="ck_jackpot_pools_amount"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    amount: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)


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


class GameRound(db.Model):  # type: ignore[name-defined,misc]
    """One round of a table. ``deck`` and ``nonce`` are stored from the start (the database is the
    dealer's memory) but only published once the round is settled or void; ``commitment`` is
    published when the round opens (R1)."""

    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("table_id", "number"), Index("ix_rounds_table_phase", "table_id", "phase"))

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


class LedgerAccount(db.Model):  # type: ignore[name-defined,misc]
    """One account of the double-entry ledger; ``balance`` always equals the sum of its postings."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        UniqueConstraint("id", "currency", name="uq_ledger_accounts_id_currency"),
        CheckConstraint("may_go_negative OR balance >= 0", name="ck_ledger_accounts_balance"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(80), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    currency: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"))
    pool_id: Mapped[int | None] = mapped_column(ForeignKey("jackpot_pools.id"))
    balance: Mapped[Decimal] = mapped_column(Money, default=ZERO)
    may_go_negative: Mapped[bool] = mapped_column(Boolean, default=False)


class LedgerTransaction(db.Model):  # type: ignore[name-defined,misc]
    """A set of postings summing to zero per currency; ``idempotency_key`` makes retries safe."""

    __tablename__ = "ledger_transactions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    idempotency_key: Mapped[str | None] = mapped_column(String(160), unique=True)
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), index=True)
    created_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    sealed: Mapped[bool] = mapped_column(Boolean, default=False)

    postings: Mapped[list[Posting]] = relationship(back_populates="transaction", order_by="Posting.id")


class Posting(db.Model):  # type: ignore[name-defined,misc]
    """One leg of a ledger transaction: a signed amount on one account, in that account's currency."""

    __tablename__ = "postings"
    __table_args__ = (
        ForeignKeyConstraint(["account_id", "currency"], ["ledger_accounts.id", "ledger_accounts.currency"],
                             name="fk_postings_account_currency"),
        CheckConstraint("amount <> 0", name="ck_postings_amount"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"), index=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    currency: Mapped[str] = mapped_column(String(8))
    amount: Mapped[Decimal] = mapped_column(Money)
    memo: Mapped[str] = mapped_column(String(40))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))

    transaction: Mapped[LedgerTransaction] = relationship(back_populates="postings")


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
    (R6). (The core's :class:`~casino_holdem.core.rules.Award` is the value; this is its row.)"""

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


class PaytableStatus(StrEnum):
    """The lifecycle of a stored paytable version; "in use" is derived (a table or a round names it)."""

    DRAFT = "draft"
    APPROVED = "approved"
    RETIRED = "retired"


class PaytableVersion(db.Model):  # type: ignore[name-defined,misc]
    """A paytable file's exact bytes, kept by SHA-256 so that every round settled under it can be
    replayed on any server; a second manager approves it before any table may use it (four-eyes)."""

    __tablename__ = "paytable_versions"
    __table_args__ = (UniqueConstraint("paytable_id", "version", name="uq_paytable_versions_id_version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    paytable_id: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(200))
    effective_from: Mapped[dt.date] = mapped_column(Date)
    content: Mapped[bytes] = mapped_column(LargeBinary)
    status: Mapped[str] = mapped_column(String(16), default=PaytableStatus.DRAFT.value)
    submitted_by: Mapped[str] = mapped_column(String(64))
    submitted_at: Mapped[dt.datetime] = mapped_column(UTCDateTime, default=utcnow)
    approved_by: Mapped[str | None] = mapped_column(String(64))
    approved_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)


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


class PaytableFigures(db.Model):  # type: ignore[name-defined,misc]
    """The exact return figures of one paytable version (issues 11 and 13), as ``casino-holdem rtp``
    reports them, computed once per (paytable SHA-256, engine hash) by the commands layer: services
    and web may not import the compliance tools, so they read the figures from here. ``figures``
    holds exact strings only (fractions and decimal strings, never floats); it is None while the
    row is a claim: a process is computing them since ``started_at``."""

    __tablename__ = "paytable_figures"
    __table_args__ = (UniqueConstraint("sha256", "engine", name="uq_paytable_figures_sha256_engine"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    engine: Mapped[str] = mapped_column(String(64))
    figures: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[dt.datetime] = mapped_column(UTCDateTime)
    computed_at: Mapped[dt.datetime | None] = mapped_column(UTCDateTime)
