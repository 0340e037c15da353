"""Fixtures of the web tests: a casino with fast event streams, and a frozen clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from freezegun import freeze_time
from freezegun.api import FrozenDateTimeFactory

from support.app import quick_password_hashes
from support.casino import T0
from support.web import WebCasino


@pytest.fixture(autouse=True)
def _quick_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_password_hashes(monkeypatch)


@pytest.fixture
def casino(db, app) -> WebCasino:
    app.config.update(CASINO_SSE_POLL=0.02, CASINO_SSE_LIFETIME=1.0)
    return WebCasino(app)


@pytest.fixture
def clock() -> Iterator[FrozenDateTimeFactory]:
    with freeze_time(T0) as frozen:
        yield frozen
