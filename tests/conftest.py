"""Shared fixtures. The project root is the working directory of every test, so scenario files
can name paytables by path exactly as a compliance lab would from a checkout."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _run_from_project_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="session")
def standard():
    from casino_holdem import paytables

    return paytables.resolve("standard")


# --- the Flask app and its database (issue 5) ----------------------------------------------------
# `app` runs on SQLite, and also on PostgreSQL when CASINO_TEST_DATABASE_URL is set: each test
# session migrates a uniquely named PostgreSQL database (dropped at the end) and each test starts
# from empty tables; each SQLite test gets its own copy of a migrated file.


POSTGRES_URL = os.environ.get("CASINO_TEST_DATABASE_URL")
DATABASES = ["sqlite", pytest.param("postgres", marks=[
    pytest.mark.postgres, pytest.mark.skipif(not POSTGRES_URL, reason="CASINO_TEST_DATABASE_URL is not set")])]


def make_app(url: str):
    from casino_holdem import create_app

    return create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "test", "TESTING": True,
                       "CASINO_BETTING_SECONDS": 10, "CASINO_DECISION_SECONDS": 10})


def migrate(app) -> None:
    from flask_migrate import upgrade

    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        from casino_holdem.extensions import db as database
        database.engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("schema") / "template.sqlite3"
    migrate(make_app(f"sqlite:///{path}"))
    return path


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, migrated once, dropped at the end."""
    import psycopg
    from sqlalchemy.engine import make_url

    from casino_holdem.settings import database_url

    server = make_url(database_url(POSTGRES_URL or ""))
    name = f"casino_test_{uuid.uuid4().hex[:12]}"
    plain = server.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    url = server.set(database=name).render_as_string(hide_password=False)
    migrate(make_app(url))
    yield url
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest, tmp_path: Path):
    """A migrated, empty database behind a fresh app."""
    if request.param == "sqlite":
        path = tmp_path / "casino.sqlite3"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        application = make_app(f"sqlite:///{path}")
    else:
        application = make_app(request.getfixturevalue("postgres_url"))
        from casino_holdem.extensions import db as database
        with application.app_context():
            names = ", ".join(f'"{t.name}"' for t in database.metadata.sorted_tables)
            with database.engine.begin() as connection:
                connection.exec_driver_sql(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    yield application
    from casino_holdem.extensions import db as database
    with application.app_context():
        database.session.remove()
        for engine in database.engines.values():
            engine.dispose()


@pytest.fixture
def db(app):
    """The Flask-SQLAlchemy handle inside an app context."""
    from casino_holdem.extensions import db as database

    with app.app_context():
        yield database
        database.session.remove()


@pytest.fixture
def client(app):
    return app.test_client()
