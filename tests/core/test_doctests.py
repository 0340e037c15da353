"""The examples in the core's docstrings are tests too: every module of casino_holdem.core runs
its doctests here, so an example a reader copies always works."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import casino_holdem.core

MODULES = sorted(info.name for info in pkgutil.iter_modules(casino_holdem.core.__path__, "casino_holdem.core."))


def test_every_core_module_is_collected() -> None:
    assert {"casino_holdem.core.cards", "casino_holdem.core.round", "casino_holdem.core.rules"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
