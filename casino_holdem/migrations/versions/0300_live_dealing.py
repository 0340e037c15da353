"""Live dealing (R1, R9): a table's dealing source (``rng`` or ``live``) and each round's; a live
round has no deck commitment or nonce (its cards are entered as dealt); the incidents table
records every R9 incident reported by a dealer or pit supervisor.

Revision ID: live_dealing
Revises: 0001
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from casino_holdem.models import UTCDateTime

revision = "live_dealing"
down_revision = "office_backoffice"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as table:
        table.add_column(sa.Column("dealing", sa.String(8), nullable=False, server_default="rng"))
    with op.batch_alter_table("rounds") as rounds:
        rounds.add_column(sa.Column("dealing", sa.String(8), nullable=False, server_default="rng"))
        rounds.alter_column("commitment", existing_type=sa.String(64), nullable=True)
        rounds.alter_column("nonce", existing_type=sa.String(64), nullable=True)
    op.create_table(
        "incidents",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("effect", sa.String(16), nullable=False),
        sa.Column("stage", sa.String(16), nullable=False),
        sa.Column("card", sa.String(3)),
        sa.Column("wrong_position", sa.Integer),
        sa.Column("corrected_to", sa.Integer),
        sa.Column("void_reason", sa.String(40)),
        sa.Column("notice", sa.Text),
        sa.Column("reported_by", sa.String(64), nullable=False),
        sa.Column("reported_at", UTCDateTime, nullable=False),
    )
    op.create_index("ix_incidents_round_id", "incidents", ["round_id"])


def downgrade() -> None:
    op.drop_index("ix_incidents_round_id", "incidents")
    op.drop_table("incidents")
    with op.batch_alter_table("rounds") as rounds:
        rounds.alter_column("nonce", existing_type=sa.String(64), nullable=False)
        rounds.alter_column("commitment", existing_type=sa.String(64), nullable=False)
        rounds.drop_column("dealing")
    with op.batch_alter_table("game_tables") as table:
        table.drop_column("dealing")
