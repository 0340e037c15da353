"""The app under test and its database: SQLite always, PostgreSQL too when
``CASINO_TEST_DATABASE_URL`` names a server (each session migrates a database of its own there)."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterator

import pytest
from flask import Flask

from casino_holdem import create_app, settings

POSTGRES_URL: str | None = settings.value("CASINO_TEST_DATABASE_URL")
DATABASES = ["sqlite", pytest.param("postgres", marks=[
    pytest.mark.postgres, pytest.mark.skipif(not POSTGRES_URL, reason="CASINO_TEST_DATABASE_URL is not set")])]


def quick_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests make many players and operators: a cheap hash method (the stored hash names it, so
    sign-in still checks it) keeps them fast."""
    from werkzeug.security import generate_password_hash

    from casino_holdem.services import logins, wallet

    for module in (logins, wallet):
        monkeypatch.setattr(module, "generate_password_hash",
                            functools.partial(generate_password_hash, method="pbkdf2:sha256:1000"))


def make_app(url: str) -> Flask:
    """An app on ``url`` with a fixed secret and short default timers."""
    return create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "TESTING": True,
                       "CASINO_BETTING_SECONDS": 10, "CASINO_DECISION_SECONDS": 10})


def migrate(app: Flask) -> None:
    """Bring the app's database to the newest schema (Alembic), then let go of its connections."""
    from flask_migrate import upgrade

    from casino_holdem.extensions import db

    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        db.engine.dispose()


def session_postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database on the test server, migrated once, dropped (forced) at the end."""
    import psycopg
    from sqlalchemy.engine import make_url

    server = make_url(settings.database_url(POSTGRES_URL or ""))
    name = f"casino_test_{uuid.uuid4().hex[:12]}"
    plain = server.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    url = server.set(database=name).render_as_string(hide_password=False)
    migrate(make_app(url))
    yield url
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def empty_all_tables(app: Flask) -> None:
    """Start a PostgreSQL test from empty tables (the schema stays for the session)."""
    from casino_holdem.extensions import db

    with app.app_context():
        names = ", ".join(f'"{table.name}"' for table in db.metadata.sorted_tables)
        with db.engine.begin() as connection:
            connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")


def release(app: Flask) -> None:
    """Close the app's sessions and connection pools (a test's app does not outlive it)."""
    from casino_holdem.events import bus_of
    from casino_holdem.extensions import db

    bus_of(app).close()
    with app.app_context():
        db.session.remove()
        for engine in db.engines.values():
            engine.dispose()
