"""Fixtures of the web tests: a casino with fast event streams (the frozen ``clock`` is tests/conftest.py's)."""

from __future__ import annotations

import pytest

from support.app import quick_password_hashes
from support.web import WebCasino


@pytest.fixture(autouse=True)
def _quick_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_password_hashes(monkeypatch)


@pytest.fixture
def casino(db, app) -> WebCasino:
    app.config.update(CASINO_SSE_POLL=0.02, CASINO_SSE_LIFETIME=1.0)
    return WebCasino(app)
