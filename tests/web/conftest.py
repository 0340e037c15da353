"""Fixtures of the web tests: a casino with fast event streams, and a frozen clock."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest
from freezegun import freeze_time
from freezegun.api import FrozenDateTimeFactory

from support.casino import T0
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


@pytest.fixture
def clock() -> Iterator[FrozenDateTimeFactory]:
    with freeze_time(T0) as frozen:
        yield frozen
