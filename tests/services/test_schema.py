"""The migrated schema is the models' schema, and the database itself guards the ledger."""

from __future__ import annotations

from decimal import Decimal

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError, StatementError

from casino_holdem.models import AccountKind, AuditEntry, LedgerAccount, LedgerTransaction, Posting
from casino_holdem.services import demo, verify, wallet
from casino_holdem.services.errors import BadRequest
from casino_holdem.services.transaction import transactional


def test_migrated_schema_matches_the_models(db) -> None:
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


def _raw(db, statement: str, **params: object) -> None:
    with db.engine.begin() as connection:
        connection.execute(text(statement), params)


def test_an_unbalanced_ledger_transaction_cannot_be_sealed(db, casino) -> None:
    player = casino.player()
    wallet_id = db.session.scalars(select(LedgerAccount.id).where(LedgerAccount.player_id == player)).one()
    db.session.rollback()
    with pytest.raises(DBAPIError, match="sum to zero"), db.engine.begin() as connection:
        tx = connection.execute(text("INSERT INTO ledger_transactions (kind, created_at, sealed) "
                                     "VALUES ('forged', CURRENT_TIMESTAMP, false) RETURNING id")).scalar_one()
        connection.execute(text("INSERT INTO postings (transaction_id, account_id, currency, amount, memo) "
                                "VALUES (:tx, :account, 'USD', 500000, 'free money')"),
                           {"tx": tx, "account": wallet_id})
        connection.execute(text("UPDATE ledger_transactions SET sealed = true WHERE id = :tx"), {"tx": tx})
    casino.assert_sound()


def test_a_sealed_ledger_transaction_takes_no_more_postings(db, casino) -> None:
    """Once committed sealed, a transaction never changes, even by legs that balance (migration
    0900 lets only the database transaction that seals it write its postings, on PostgreSQL in
    the same statement)."""
    player = casino.player()
    sealed = db.session.scalars(select(LedgerTransaction.id).where(LedgerTransaction.kind == "deposit")).first()
    wallet_id = db.session.scalars(select(LedgerAccount.id).where(LedgerAccount.player_id == player)).one()
    db.session.rollback()
    with pytest.raises(DBAPIError, match="is sealed"), db.engine.begin() as connection:
        for amount in (5, -5):
            connection.execute(text("INSERT INTO postings (transaction_id, account_id, currency, amount, memo) "
                                    "VALUES (:tx, :account, 'USD', :amount, 'late leg')"),
                               {"tx": sealed, "account": wallet_id, "amount": amount})
    casino.assert_sound()


def test_a_ledger_transaction_written_sealed_must_balance_at_commit(db, casino) -> None:
    """PostgreSQL: a transaction written sealed with its postings in one statement (as
    ``wallet.post`` does, issue 10) is checked when its database transaction commits."""
    if db.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL writes a transaction sealed; SQLite seals it by a statement of its own")
    player = casino.player()
    wallet_id = db.session.scalars(select(LedgerAccount.id).where(LedgerAccount.player_id == player)).one()
    db.session.rollback()
    with pytest.raises(DBAPIError, match="not sealed and balanced at commit"), db.engine.begin() as connection:
        connection.execute(text(
            "WITH forged AS (INSERT INTO ledger_transactions (kind, created_at, sealed) "
            "VALUES ('forged', CURRENT_TIMESTAMP, true) RETURNING id) "
            "INSERT INTO postings (transaction_id, account_id, currency, amount, memo) "
            "SELECT id, :account, 'USD', 500000, 'free money' FROM forged"), {"account": wallet_id})
    casino.assert_sound()


@pytest.mark.parametrize("statement", [
    "UPDATE postings SET memo = 'edited'", "DELETE FROM postings", "UPDATE audit_log SET actor = 'someone'",
    "DELETE FROM audit_log", "DELETE FROM pool_movements", "UPDATE ledger_transactions SET kind = 'edited'",
])
def test_history_is_append_only(db, casino, statement: str) -> None:
    casino.pool(seed="10")
    casino.player()
    db.session.rollback()
    with pytest.raises(DBAPIError):
        _raw(db, statement)
    assert db.session.scalars(select(Posting)).all() and db.session.scalars(select(AuditEntry)).all()


def test_floats_never_reach_a_money_column(db, casino) -> None:
    player = casino.player()
    with pytest.raises(BadRequest, match="amount"):
        wallet.deposit(player, 10.5, "float")  # type: ignore[arg-type]
    assert casino.balance(player) == Decimal(1000)


@transactional
def _posted(player: int, amounts: list[str]) -> int:
    """One ledger transaction: each amount from the cashier to the player's wallet, a leg each way."""
    own, cashier = wallet.player_wallet(player, "USD"), wallet.house_account(AccountKind.CASHIER, "USD")
    return wallet.post("deposit", [leg for number, amount in enumerate(amounts) for leg in (
        wallet.Entry(cashier, -Decimal(amount), f"leg {number} out"),
        wallet.Entry(own, Decimal(amount), f"leg {number} in", player if number % 2 else None))])


def test_a_ledger_transactions_postings_are_stored_as_given_and_sealed(db, casino) -> None:
    """On PostgreSQL a transaction and its postings are one statement (issue 10), on SQLite two:
    either way each leg is stored in the order given, exactly, and the transaction is sealed."""
    player = casino.player()
    transaction_id = _posted(player, ["1", "0.00001", "2.5", "7"])
    stored = db.session.scalars(select(Posting).where(Posting.transaction_id == transaction_id)
                                .order_by(Posting.id)).all()
    assert [(posting.memo, posting.amount, posting.player_id) for posting in stored] == [
        (f"leg {number} {way}", Decimal(amount) * sign, player if way == "in" and number % 2 else None)
        for number, amount in enumerate(["1", "0.00001", "2.5", "7"]) for way, sign in (("out", -1), ("in", 1))]
    assert db.session.get(LedgerTransaction, transaction_id).sealed
    assert casino.balance(player) == Decimal("1010.50001")
    casino.assert_sound()


def test_money_beyond_five_places_is_refused_by_a_posting_not_rounded(db, casino) -> None:
    player = casino.player()
    with pytest.raises(StatementError, match="more than 5 decimal places"):
        _posted(player, ["1", "0.000001"])
    db.session.rollback()
    assert casino.balance(player) == Decimal(1000)
    casino.assert_sound()


def test_demo_data_is_idempotent(db) -> None:
    first = demo.ensure_demo_data()
    second = demo.ensure_demo_data()
    assert first == second
    assert first["pool"] == demo.POOL_SEED and len(first["tables"]) == len(demo.TABLES) + len(demo.LIVE_TABLES) == 4
    assert {wallet.balance(wallet.find_player(name).id).balance for name, _, _ in demo.PLAYERS[:1]} == {Decimal(10000)}
    assert verify.audit_ledger() == []
