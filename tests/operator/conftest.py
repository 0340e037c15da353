"""Fixtures of the back-office tests: the rigged casino and paytable bytes to upload."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import pytest

from support.app import quick_password_hashes
from support.casino import RiggedCasino
from support.web import WebCasino

#: the back office's web layer stands on the operators' sign-in and guard (the auth foundation)
collect_ignore = ([] if importlib.util.find_spec("casino_holdem.web.operator_auth")
                  else ["test_web.py", "test_dealer_web.py"])
STANDARD = (Path(__file__).resolve().parents[2] / "paytables" / "standard-v1.toml").read_bytes()


def _variant(version: int, *, effective_from: str = "2026-12-01", aa: int = 30) -> bytes:
    """The standard paytable renumbered (and with another A-A Bonus line, R4), as an operator would
    write a new version."""
    text = STANDARD.decode().replace("version = 1", f"version = {version}", 1)
    text = text.replace('effective_from = "2026-12-01"', f'effective_from = "{effective_from}"', 1)
    return text.replace("\naa = 30\n", f"\naa = {aa}\n", 1).encode()


@pytest.fixture(autouse=True)
def _quick_password_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_password_hashes(monkeypatch)


@pytest.fixture
def casino(db, monkeypatch: pytest.MonkeyPatch) -> RiggedCasino:
    return RiggedCasino(monkeypatch)


@pytest.fixture
def web(db, app, monkeypatch: pytest.MonkeyPatch) -> WebCasino:
    """Players and operators over HTTP, with cheap password hashes (the stored hash names its method)."""
    from werkzeug.security import generate_password_hash

    from casino_holdem.services import logins, wallet

    for module in (logins, wallet):
        monkeypatch.setattr(module, "generate_password_hash",
                            functools.partial(generate_password_hash, method="pbkdf2:sha256:1000"))
    return WebCasino(app)


@pytest.fixture
def variant():
    """Build paytable bytes: ``variant(2, aa=40, effective_from="2026-12-03")``."""
    return _variant
