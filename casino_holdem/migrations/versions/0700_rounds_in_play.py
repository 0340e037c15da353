"""The rounds in play get an index of their own (issue 10): a player's open rounds, whose bets
reserve part of their balance (R2.1), were found by reading every bet the player ever made, so
each bet, balance and table state cost more the longer the floor ran (21 ms for twenty players
with a thousand settled rounds each; 0.15 ms from this index).

Revision ID: rounds_in_play
Revises: table_admin
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "rounds_in_play"
down_revision = "table_admin"
branch_labels = None
depends_on = None

#: R2.7, R9: a round that is over is settled or void
IN_PLAY = sa.text("phase NOT IN ('settled', 'void')")


def upgrade() -> None:
    op.create_index("ix_rounds_in_play", "rounds", ["id"], postgresql_where=IN_PLAY, sqlite_where=IN_PLAY)


def downgrade() -> None:
    op.drop_index("ix_rounds_in_play", "rounds")
