"""The exact return figures of each paytable version (issues 11 and 13), one row per (paytable
SHA-256, engine hash), computed by the commands layer and read by the back office and the players'
rules panel. A row without figures is a claim: a process is computing them.

Revision ID: paytable_figures
Revises: live_dealing
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from casino_holdem.models import UTCDateTime

revision = "paytable_figures"
down_revision = "live_dealing"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "paytable_figures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("engine", sa.String(64), nullable=False),
        sa.Column("figures", sa.JSON),
        sa.Column("started_at", UTCDateTime, nullable=False),
        sa.Column("computed_at", UTCDateTime),
        sa.UniqueConstraint("sha256", "engine", name="uq_paytable_figures_sha256_engine"),
    )
    op.create_index("ix_paytable_figures_sha256", "paytable_figures", ["sha256"])


def downgrade() -> None:
    op.drop_index("ix_paytable_figures_sha256", "paytable_figures")
    op.drop_table("paytable_figures")
