"""The back office: paytable versions kept by SHA-256 with their approval, table changes waiting
for the next round, and pool corrections waiting for a second manager.

Revision ID: office_backoffice
Revises: auth_accounts
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from casino_holdem.models import Money, UTCDateTime

revision = "office_backoffice"
down_revision = "auth_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "paytable_versions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("paytable_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("effective_from", sa.Date(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("submitted_by", sa.String(64), nullable=False),
        sa.Column("submitted_at", UTCDateTime(), nullable=False),
        sa.Column("approved_by", sa.String(64)),
        sa.Column("approved_at", UTCDateTime()),
        sa.UniqueConstraint("paytable_id", "version", name="uq_paytable_versions_id_version"),
    )
    op.create_table(
        "table_changes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("game_tables.id"), nullable=False, index=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("not_before", UTCDateTime()),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("requested_at", UTCDateTime(), nullable=False),
        sa.Column("applied_at", UTCDateTime()),
        sa.Column("applied_round_id", sa.Integer(), sa.ForeignKey("rounds.id")),
    )


    op.create_table(
        "pool_corrections",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("pool_id", sa.Integer(), sa.ForeignKey("jackpot_pools.id"), nullable=False, index=True),
        sa.Column("amount", Money(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("requested_at", UTCDateTime(), nullable=False),
        sa.Column("decided_by", sa.String(64)),
        sa.Column("decided_at", UTCDateTime()),
        sa.Column("transaction_id", sa.Integer(), sa.ForeignKey("ledger_transactions.id")),
    )


def downgrade() -> None:
    op.drop_table("pool_corrections")
    op.drop_table("table_changes")
    op.drop_table("paytable_versions")
