"""Fixtures of the compliance tests: the full enumeration (computed once per session, never read
from a cache, so the engine itself is tested) and a second paytable with a seed and a flush
qualifier."""

from __future__ import annotations

from pathlib import Path

import pytest

from casino_holdem.compliance.exact import Enumeration, load_enumeration
from casino_holdem.core.paytable import Paytable
from casino_holdem.paytable_files import load_paytable

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The full-deck optimal strategy takes minutes per paytable: it runs with ``-m optimal``
    (``.ci/run`` does), and the default run checks the same engine on reduced decks."""
    if "optimal" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="the full-deck optimal strategy takes minutes: run with -m optimal (.ci/run does)")
    for item in items:
        if item.get_closest_marker("optimal"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def enumeration() -> Enumeration:
    return load_enumeration(use_cache=False)


@pytest.fixture(scope="session")
def house_flush() -> Paytable:
    return load_paytable(ROOT / "tests" / "paytables" / "house-flush-v1.toml")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands under test never read or write the user's enumeration cache."""
    monkeypatch.setenv("CASINO_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="session")
def house_flush_path() -> str:
    return str(ROOT / "tests" / "paytables" / "house-flush-v1.toml")
