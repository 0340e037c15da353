"""The migrated schema is the models' schema, and the database itself guards the ledger."""

from __future__ import annotations

from decimal import Decimal

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from casino_holdem.models import AuditEntry, LedgerAccount, Posting
from casino_holdem.services import demo, verify, wallet
from casino_holdem.services.errors import BadRequest


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


def test_demo_data_is_idempotent(db) -> None:
    first = demo.ensure_demo_data()
    second = demo.ensure_demo_data()
    assert first == second
    assert first["pool"] == demo.POOL_SEED and len(first["tables"]) == len(demo.TABLES) + len(demo.LIVE_TABLES) == 4
    assert {wallet.balance(wallet.find_player(name).id).balance for name, _, _ in demo.PLAYERS[:1]} == {Decimal(10000)}
    assert verify.audit_ledger() == []
