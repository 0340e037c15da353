"""The initial schema: players, the double-entry ledger, jackpot pools, tables, rounds, bets,
decisions, awards and the audit log, with the database-side guards of the ledger (see
casino_holdem/models/ledger.py): unbalanced ledger transactions cannot be sealed (and, on PostgreSQL,
cannot be committed), sealed ones take no postings, and postings, pool movements and audit
entries are append-only.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from casino_holdem.models import Money, UTCDateTime

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY = ("postings", "pool_movements", "audit_log")
UNBALANCED = ("SELECT 1 FROM postings WHERE transaction_id = {tx} GROUP BY currency HAVING sum(amount) <> 0")

SQLITE_GUARDS = [
    *(f"""CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
          BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END""" for table in APPEND_ONLY),
    *(f"""CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
          BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END""" for table in APPEND_ONLY),
    """CREATE TRIGGER postings_into_open_transaction BEFORE INSERT ON postings
       WHEN (SELECT sealed FROM ledger_transactions WHERE id = NEW.transaction_id)
       BEGIN SELECT RAISE(ABORT, 'ledger transaction is sealed'); END""",
    """CREATE TRIGGER ledger_transactions_sealed_stay BEFORE UPDATE ON ledger_transactions WHEN OLD.sealed
       BEGIN SELECT RAISE(ABORT, 'a sealed ledger transaction never changes'); END""",
    f"""CREATE TRIGGER ledger_transactions_seal_balanced BEFORE UPDATE OF sealed ON ledger_transactions
       WHEN NEW.sealed AND EXISTS ({UNBALANCED.format(tx="NEW.id")})
       BEGIN SELECT RAISE(ABORT, 'ledger transaction does not sum to zero per currency'); END""",
    """CREATE TRIGGER ledger_transactions_no_delete BEFORE DELETE ON ledger_transactions
       BEGIN SELECT RAISE(ABORT, 'ledger transactions are kept'); END""",
]

POSTGRES_GUARDS = [
    """CREATE FUNCTION casino_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$""",
    *(f"""CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
          FOR EACH ROW EXECUTE FUNCTION casino_append_only()""" for table in APPEND_ONLY),
    """CREATE FUNCTION casino_posting_insert() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF (SELECT sealed FROM ledger_transactions WHERE id = NEW.transaction_id) THEN
           RAISE EXCEPTION 'ledger transaction % is sealed', NEW.transaction_id;
         END IF;
         RETURN NEW;
       END $$""",
    """CREATE TRIGGER postings_into_open_transaction BEFORE INSERT ON postings
       FOR EACH ROW EXECUTE FUNCTION casino_posting_insert()""",
    f"""CREATE FUNCTION casino_seal() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP = 'DELETE' OR OLD.sealed THEN
           RAISE EXCEPTION 'a sealed ledger transaction never changes';
         END IF;
         IF NEW.sealed AND EXISTS ({UNBALANCED.format(tx="NEW.id")}) THEN
           RAISE EXCEPTION 'ledger transaction % does not sum to zero per currency', NEW.id;
         END IF;
         RETURN NEW;
       END $$""",
    """CREATE TRIGGER ledger_transactions_seal BEFORE UPDATE OR DELETE ON ledger_transactions
       FOR EACH ROW EXECUTE FUNCTION casino_seal()""",
    f"""CREATE FUNCTION casino_committed_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NOT (SELECT sealed FROM ledger_transactions WHERE id = NEW.transaction_id)
            OR EXISTS ({UNBALANCED.format(tx="NEW.transaction_id")}) THEN
           RAISE EXCEPTION 'ledger transaction % is not sealed and balanced at commit', NEW.transaction_id;
         END IF;
         RETURN NULL;
       END $$""",
    """CREATE CONSTRAINT TRIGGER postings_balanced_at_commit AFTER INSERT ON postings
       DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION casino_committed_balanced()""",
]


def _guards(dialect: str) -> None:
    for statement in {"sqlite": SQLITE_GUARDS, "postgresql": POSTGRES_GUARDS}.get(dialect, []):
        op.execute(statement)


def upgrade() -> None:
    op.create_table('jackpot_pools',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('amount', Money(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.CheckConstraint('amount >= 0', name='ck_jackpot_pools_amount'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name')
    )
    op.create_table('players',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('username', sa.String(length=64), nullable=False),
        sa.Column('password_hash', sa.String(length=256), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('is_bot', sa.Boolean(), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('username')
    )
    op.create_table('game_tables',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=64), nullable=False),
        sa.Column('paytable_id', sa.String(length=64), nullable=False),
        sa.Column('paytable_version', sa.Integer(), nullable=False),
        sa.Column('paytable_sha256', sa.String(length=64), nullable=False),
        sa.Column('ante_min', Money(), nullable=True),
        sa.Column('ante_max', Money(), nullable=True),
        sa.Column('bonus_min', Money(), nullable=True),
        sa.Column('bonus_max', Money(), nullable=True),
        sa.Column('max_bettors', sa.Integer(), nullable=True),
        sa.Column('betting_seconds', sa.Integer(), nullable=False),
        sa.Column('decision_seconds', sa.Integer(), nullable=False),
        sa.Column('pool_id', sa.Integer(), nullable=False),
        sa.Column('is_open', sa.Boolean(), nullable=False),
        sa.Column('is_demo', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['pool_id'], ['jackpot_pools.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('name')
    )
    op.create_table('rounds',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('phase', sa.String(length=16), nullable=False),
        sa.Column('commitment', sa.String(length=64), nullable=False),
        sa.Column('deck', sa.Text(), nullable=False),
        sa.Column('nonce', sa.String(length=64), nullable=False),
        sa.Column('dealt_count', sa.Integer(), nullable=False),
        sa.Column('opened_at', UTCDateTime(), nullable=False),
        sa.Column('deadline', UTCDateTime(), nullable=True),
        sa.Column('finished_at', UTCDateTime(), nullable=True),
        sa.Column('paytable_id', sa.String(length=64), nullable=False),
        sa.Column('paytable_version', sa.Integer(), nullable=False),
        sa.Column('paytable_sha256', sa.String(length=64), nullable=False),
        sa.Column('pool_before', Money(), nullable=True),
        sa.Column('result', sa.String(length=16), nullable=True),
        sa.Column('player_hand', sa.String(length=24), nullable=True),
        sa.Column('dealer_hand', sa.String(length=24), nullable=True),
        sa.Column('void_reason', sa.String(length=40), nullable=True),
        sa.Column('void_stage', sa.String(length=16), nullable=True),
        sa.Column('voided_by', sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['game_tables.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('table_id', 'number')
    )
    op.create_index('ix_rounds_table_phase', 'rounds', ['table_id', 'phase'])

    op.create_table('audit_log',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('at', UTCDateTime(), nullable=False),
        sa.Column('actor', sa.String(length=64), nullable=False),
        sa.Column('action', sa.String(length=48), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=True),
        sa.Column('round_id', sa.Integer(), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('detail', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
        sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], ),
        sa.ForeignKeyConstraint(['table_id'], ['game_tables.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_audit_log_round_id', 'audit_log', ['round_id'])
    op.create_index('ix_audit_log_action_at', 'audit_log', ['action', 'at'])

    op.create_table('bets',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('round_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('ante', Money(), nullable=False),
        sa.Column('bonus', Money(), nullable=False),
        sa.Column('progressive', Money(), nullable=False),
        sa.Column('flop', Money(), nullable=False),
        sa.Column('turn', Money(), nullable=False),
        sa.Column('river', Money(), nullable=False),
        sa.Column('contribution', Money(), nullable=False),
        sa.Column('request_id', sa.String(length=128), nullable=False),
        sa.Column('request_fingerprint', sa.String(length=64), nullable=False),
        sa.Column('connected', sa.Boolean(), nullable=False),
        sa.Column('placed_at', UTCDateTime(), nullable=False),
        sa.Column('returned', Money(), nullable=True),
        sa.Column('outcome', sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
        sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('player_id', 'request_id'),
        sa.UniqueConstraint('round_id', 'player_id')
    )
    op.create_index('ix_bets_player_id', 'bets', ['player_id'])

    op.create_table('ledger_accounts',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('code', sa.String(length=80), nullable=False),
        sa.Column('kind', sa.String(length=16), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('round_id', sa.Integer(), nullable=True),
        sa.Column('pool_id', sa.Integer(), nullable=True),
        sa.Column('balance', Money(), nullable=False),
        sa.Column('may_go_negative', sa.Boolean(), nullable=False),
        sa.CheckConstraint('may_go_negative OR balance >= 0', name='ck_ledger_accounts_balance'),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
        sa.ForeignKeyConstraint(['pool_id'], ['jackpot_pools.id'], ),
        sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('code'),
        sa.UniqueConstraint('id', 'currency', name='uq_ledger_accounts_id_currency')
    )
    op.create_table('ledger_transactions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=32), nullable=False),
        sa.Column('idempotency_key', sa.String(length=160), nullable=True),
        sa.Column('round_id', sa.Integer(), nullable=True),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('sealed', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('idempotency_key')
    )
    op.create_index('ix_ledger_transactions_round_id', 'ledger_transactions', ['round_id'])

    op.create_table('awards',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('round_id', sa.Integer(), nullable=False),
        sa.Column('bet_id', sa.Integer(), nullable=False),
        sa.Column('prize_table', sa.String(length=2), nullable=False),
        sa.Column('hand', sa.String(length=24), nullable=False),
        sa.Column('street', sa.String(length=8), nullable=True),
        sa.Column('share_of', sa.Integer(), nullable=False),
        sa.Column('amount', Money(), nullable=False),
        sa.Column('base_amount', Money(), nullable=False),
        sa.ForeignKeyConstraint(['bet_id'], ['bets.id'], ),
        sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_awards_round_id', 'awards', ['round_id'])

    op.create_table('decisions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('bet_id', sa.Integer(), nullable=False),
        sa.Column('street', sa.String(length=8), nullable=False),
        sa.Column('action', sa.String(length=8), nullable=False),
        sa.Column('automatic', sa.String(length=16), nullable=True),
        sa.Column('request_id', sa.String(length=128), nullable=True),
        sa.Column('decided_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['bet_id'], ['bets.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('bet_id', 'street')
    )
    op.create_table('pool_movements',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('pool_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=24), nullable=False),
        sa.Column('amount', Money(), nullable=False),
        sa.Column('round_id', sa.Integer(), nullable=True),
        sa.Column('bet_id', sa.Integer(), nullable=True),
        sa.Column('transaction_id', sa.Integer(), nullable=False),
        sa.Column('actor', sa.String(length=64), nullable=False),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['bet_id'], ['bets.id'], ),
        sa.ForeignKeyConstraint(['pool_id'], ['jackpot_pools.id'], ),
        sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], ),
        sa.ForeignKeyConstraint(['transaction_id'], ['ledger_transactions.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_pool_movements_pool_id', 'pool_movements', ['pool_id'])
    op.create_index('ix_pool_movements_round_id', 'pool_movements', ['round_id'])

    op.create_table('postings',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('transaction_id', sa.Integer(), nullable=False),
        sa.Column('account_id', sa.Integer(), nullable=False),
        sa.Column('currency', sa.String(length=8), nullable=False),
        sa.Column('amount', Money(), nullable=False),
        sa.Column('memo', sa.String(length=40), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.CheckConstraint('amount <> 0', name='ck_postings_amount'),
        sa.ForeignKeyConstraint(['account_id', 'currency'], ['ledger_accounts.id', 'ledger_accounts.currency'], name='fk_postings_account_currency'),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
        sa.ForeignKeyConstraint(['transaction_id'], ['ledger_transactions.id'], ),
        sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_postings_account_id', 'postings', ['account_id'])
    op.create_index('ix_postings_transaction_id', 'postings', ['transaction_id'])
    _guards(op.get_bind().dialect.name)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for function in ("casino_append_only", "casino_posting_insert", "casino_seal", "casino_committed_balanced"):
            op.execute(f"DROP FUNCTION {function}() CASCADE")
    for table in ('postings', 'pool_movements', 'decisions', 'awards', 'ledger_transactions', 'ledger_accounts', 'bets', 'audit_log', 'rounds', 'game_tables', 'players', 'jackpot_pools'):
        op.drop_table(table)
