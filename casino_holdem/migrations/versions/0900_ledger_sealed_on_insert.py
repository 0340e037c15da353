"""On PostgreSQL a ledger transaction may be written sealed, with its postings, in one statement
(issue 10: every bet, decision and settlement posts, and the separate ``UPDATE … SET sealed`` was
one round trip more for each of them).

The guard that a sealed transaction takes no more postings refused that statement's postings,
since they see the transaction they join already sealed. It now refuses a posting into a
transaction sealed by an earlier database transaction: what is committed sealed still never
changes. A transaction written sealed is checked as before when its database transaction
commits (migration 0001's deferred ``postings_balanced_at_commit``): it must sum to zero per
currency, or nothing of it is kept. A transaction inserted in a savepoint (which the services never
open) has another ``xmin`` than the one asked for and is refused, not let through. SQLite keeps
the seal as a statement of its own, checked by its trigger.

Revision ID: ledger_sealed_on_insert
Revises: rounds_table_finished
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "ledger_sealed_on_insert"
down_revision = "rounds_table_finished"
branch_labels = None
depends_on = None

#: migration 0001's function: no posting into a sealed transaction, whoever sealed it
SEALED_BY_ANYONE = "(SELECT sealed FROM ledger_transactions WHERE id = NEW.transaction_id)"
#: this one's: no posting into a transaction sealed by an earlier database transaction
SEALED_BEFORE = ("EXISTS (SELECT 1 FROM ledger_transactions WHERE id = NEW.transaction_id AND sealed "
                 "AND xmin <> pg_current_xact_id()::xid)")


def _posting_guard(sealed: str) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"""CREATE OR REPLACE FUNCTION casino_posting_insert() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF {sealed} THEN
           RAISE EXCEPTION 'ledger transaction % is sealed', NEW.transaction_id;
         END IF;
         RETURN NEW;
       END $$""")


def upgrade() -> None:
    _posting_guard(SEALED_BEFORE)


def downgrade() -> None:
    _posting_guard(SEALED_BY_ANYONE)
