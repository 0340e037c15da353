"""Operators, server-side sessions, login counters, and usernames unique whatever their case
(issues 10 and 11). The expression indexes on ``lower(username)`` work on SQLite and PostgreSQL.

Revision ID: auth_accounts
Revises: 0001
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from casino_holdem.models import UTCDateTime

revision = "auth_accounts"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("uq_players_username_lower", "players", [sa.text("lower(username)")], unique=True)
    op.create_table("operators",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=32), nullable=False),
        sa.Column("password_hash", sa.String(length=256), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"))
    op.create_index("uq_operators_username_lower", "operators", [sa.text("lower(username)")], unique=True)
    op.create_table("auth_sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("principal_id", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("last_seen_at", UTCDateTime(), nullable=False),
        sa.Column("expires_at", UTCDateTime(), nullable=False),
        sa.Column("revoked_at", UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_auth_sessions_principal", "auth_sessions", ["kind", "principal_id"])
    op.create_table("login_counters",
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("window_start", UTCDateTime(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key"))


def downgrade() -> None:
    op.drop_table("login_counters")
    op.drop_index("ix_auth_sessions_principal", table_name="auth_sessions")
    op.drop_table("auth_sessions")
    op.drop_index("uq_operators_username_lower", table_name="operators")
    op.drop_table("operators")
    op.drop_index("uq_players_username_lower", table_name="players")
