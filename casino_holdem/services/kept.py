"""What is built once of what never changes: a finished round (R2.7; R9: no step, bet, decision
or incident once it is settled or void), and the parts of a table's state that change seldom,
kept by their version (a pool's last wins, a paytable's computed returns). Issue 10: a table's
state is rebuilt on every change, and these stay the same for many changes, so they are read and
built once per process, not once per change.

Each app has its own memos (:func:`kept`), so one process serving several databases (the tests:
an app each) never takes one database's rows for another's. A memo is bounded (it starts again
when full) and safe between the fan-out's build threads: a value built twice at once is the same
value either way.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from flask import current_app

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A bounded memo of immutable values by key (module docstring)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: dict[K, V] = {}

    def get(self, keys: Sequence[K], build: Callable[[list[K]], Mapping[K, V]]) -> list[V]:
        """The values of ``keys``, in their order; those not kept yet are built together by
        ``build`` (given the missing keys, it returns their values) and kept."""
        found = {key: value for key in keys if (value := self._values.get(key)) is not None}
        missing = [key for key in keys if key not in found]
        if missing:
            built = build(missing)
            if len(self._values) + len(built) > self.size:
                self._values.clear()
            self._values.update(built)
            found.update(built)
        return [found[key] for key in keys]


def kept(name: str, size: int) -> Kept[Any, Any]:
    """The current app's memo ``name``, holding at most ``size`` values (made on first use; a
    bet, a table's state and a balance each ask for one, so nothing is built when it exists)."""
    memos: dict[str, Kept[Any, Any]] | None = current_app.extensions.get("casino_kept")
    if memos is None:
        memos = current_app.extensions.setdefault("casino_kept", {})
    memo = memos.get(name)
    return memo if memo is not None else memos.setdefault(name, Kept(size))
