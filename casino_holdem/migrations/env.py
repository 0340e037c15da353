"""Alembic environment: runs migrations on the Flask app's engine (Flask-Migrate)."""

from __future__ import annotations

from alembic import context
from flask import current_app

from casino_holdem import models  # noqa: F401  (the models register their tables on the metadata)
from casino_holdem.extensions import db

config = context.config


def run_migrations_offline() -> None:
    context.configure(url=db.engine.url.render_as_string(hide_password=False), target_metadata=db.metadata,
                      literal_binds=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    with db.engine.connect() as connection:
        context.configure(connection=connection, target_metadata=db.metadata,
                          **current_app.extensions["migrate"].configure_args)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
