"""Shared fixtures. The project root is the working directory of every test, so scenario files
can name paytables by path exactly as a compliance lab would from a checkout."""

from __future__ import annotations

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
