"""The double-entry ledger: accounts, transactions and their postings.

The database guards it as well as the services do: a posting's currency must be its account's
(composite foreign key), accounts that may not go negative have a CHECK, a transaction can only be
*sealed* when its postings sum to zero per currency (on PostgreSQL, where the services write it
sealed with its postings, checked at commit), a transaction committed sealed takes no more
postings, and postings are never updated or deleted (triggers, see the migrations 0001 and 0900).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from enum import StrEnum

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, ForeignKeyConstraint, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..core.money import ZERO
from ..extensions import db
from .columns import Money, UTCDateTime, utcnow

#: the pool's base unit (R6) as a ledger currency; wallets never hold it
BASE = "BASE"


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
