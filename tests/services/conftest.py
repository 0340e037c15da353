"""Fixtures of the service tests (helpers in servicekit.py)."""

from __future__ import annotations

import pytest
from servicekit import Casino


@pytest.fixture
def casino(db, monkeypatch: pytest.MonkeyPatch) -> Casino:
    return Casino(monkeypatch)
