"""Fixtures of the service tests (helpers in tests/support/casino.py)."""

from __future__ import annotations

import pytest

from support.casino import RiggedCasino


@pytest.fixture
def casino(db, monkeypatch: pytest.MonkeyPatch) -> RiggedCasino:
    return RiggedCasino(monkeypatch)
