"""Shared fixtures (their helpers live in tests/support). The project root is the working directory
of every test, so scenario files can name paytables by path exactly as a compliance lab would from
a checkout."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import freezegun
import pytest
from freezegun.api import FrozenDateTimeFactory

from support.app import DATABASES, empty_all_tables, make_app, migrate, release, session_postgres_database
from support.casino import T0

# servers and dealers started by the tests (in process or as subprocesses, which inherit this)
# never begin the minutes-long computation of a paytable's exact figures; the tests that want the
# background worker start it themselves
os.environ["CASINO_FIGURES_POLL"] = "0"

# pytest's own timings read the real clock even inside a frozen test, so --durations tells the truth
freezegun.configure(extend_ignore_list=["_pytest.timing"])

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _run_from_project_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.fixture
def clock() -> Iterator[FrozenDateTimeFactory]:
    """The wall clock frozen at the tests' T0, moved by the test (``tick``, ``move_to``)."""
    with freezegun.freeze_time(T0) as frozen:
        yield frozen


@pytest.fixture(scope="session")
def standard():
    from casino_holdem import paytable_files

    return paytable_files.resolve("standard")


# --- the Flask app and its database (issue 5) ----------------------------------------------------
# `app` runs on SQLite, and also on PostgreSQL when CASINO_TEST_DATABASE_URL is set: each test
# session migrates a uniquely named PostgreSQL database (dropped at the end) and each test starts
# from empty tables; each SQLite test gets its own copy of a migrated file.


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("schema") / "template.sqlite3"
    migrate(make_app(f"sqlite:///{path}"))
    return path


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, migrated once, dropped at the end."""
    yield from session_postgres_database()


@pytest.fixture(params=DATABASES)
def app(request: pytest.FixtureRequest, tmp_path: Path):
    """A migrated, empty database behind a fresh app."""
    if request.param == "sqlite":
        path = tmp_path / "casino.sqlite3"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        application = make_app(f"sqlite:///{path}")
    else:
        application = make_app(request.getfixturevalue("postgres_url"))
        empty_all_tables(application)
    yield application
    release(application)


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
