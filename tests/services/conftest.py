"""Fixtures of the service tests (helpers in tests/support/casino.py)."""

from __future__ import annotations

import pytest

from support.casino import RiggedCasino


@pytest.fixture
def casino(db, monkeypatch: pytest.MonkeyPatch) -> RiggedCasino:
    return RiggedCasino(monkeypatch)


@pytest.fixture
def postgres_app(app, db):
    """The ``app`` fixture's PostgreSQL case only (its SQLite case is skipped), inside an app context."""
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("PostgreSQL only")
    return app
