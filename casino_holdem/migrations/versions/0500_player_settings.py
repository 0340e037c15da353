"""Player settings (issue 13): the language a player chose for the pages and the interval of the
optional reality-check reminder, kept with the account so that both follow the player across
logins and devices.

Revision ID: player_settings
Revises: paytable_figures
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "player_settings"
down_revision = "paytable_figures"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.add_column(sa.Column("language", sa.String(8), nullable=True))
        players.add_column(sa.Column("reality_check_minutes", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.drop_column("reality_check_minutes")
        players.drop_column("language")
