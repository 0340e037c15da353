"""Table administration (issue 11): a table can be suspended by the pit with a reason; a
suspended table finishes the round in play and opens no new one until it is resumed.

Revision ID: table_admin
Revises: player_settings
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "table_admin"
down_revision = "player_settings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as table:
        table.add_column(sa.Column("suspended_reason", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as table:
        table.drop_column("suspended_reason")
