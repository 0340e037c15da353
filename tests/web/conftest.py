"""Fixtures of the web tests: a casino with fast event streams (the frozen ``clock`` is tests/conftest.py's)."""

from __future__ import annotations

import functools

import pytest

from support.web import WebCasino


@pytest.fixture(autouse=True)
def _quick_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests make many players: a cheap hash method (the stored hash names it) keeps them fast."""
    from werkzeug.security import generate_password_hash

    from casino_holdem.services import wallet

    monkeypatch.setattr(wallet, "generate_password_hash",
                        functools.partial(generate_password_hash, method="pbkdf2:sha256:1000"))


@pytest.fixture
def casino(db, app) -> WebCasino:
    app.config.update(CASINO_SSE_POLL=0.02, CASINO_SSE_LIFETIME=1.0)
    return WebCasino(app)
