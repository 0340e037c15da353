"""The order in which a web worker's waiting states are built (issue 10): a window first.

A worker builds its streams' states on a few threads (``casino_holdem.asgi.BUILD_THREADS``). Under
load every thread is busy and the tables' builds wait for one: measured at the target size, about
16 builds a second between two workers, about 250 ms of wall time each, and the cards dealt
reaching a player's stream 3.6 s after the deal (p50), with a ten-second window to decide in (R8).
A state that shows the dealer's step (R2.2-R2.5: the cards that open a decision window, R2.7 the
settlement) or answers a stream that is opening is built before one that only shows other players'
bets and decisions, and before the lobby; in each rank, first come first served. A build that has
waited :data:`PATIENCE_SECONDS` ranks first whatever it shows, so under load the lobby and the
other players' bets still reach the streams every few seconds (measured with one build thread:
without it, the lobby was built twice in a minute).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable

from ..slots import Slots

#: the ranks: what opens a window or answers a new stream, then everything else
FIRST, LATER = 0, 1
#: seconds a build waits before it ranks first whatever it shows (module docstring)
PATIENCE_SECONDS = 5.0


class BuildOrder(Slots):
    """``slots`` builds at a time; the others wait, ranked when a slot comes free, so a state
    that waited for other players' bets and meanwhile got the dealer's step goes first too, and
    one that waited ``patience`` seconds goes first whatever it shows (module docstring)."""

    def __init__(self, slots: int, *, patience: float = PATIENCE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(slots)
        self.patience = patience
        self.clock = clock
        self.waiting: list[tuple[int, float, Callable[[], int], asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    def slot(self, rank: Callable[[], int]) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold one build slot for the body of the ``async with``; ``rank`` says, when a slot
        comes free, how soon this build should run (:data:`FIRST` or :data:`LATER`)."""
        return self._held(next(self._arrivals), self.clock(), rank)

    def _next(self) -> tuple[int, float, Callable[[], int], asyncio.Future[None]]:
        """The best-ranked waiter, the earliest among equals (a few topics wait at most: one per
        table and the lobby); a waiter as patient as ``patience`` ranks first."""
        now = self.clock()
        waiter = min(self.waiting, key=lambda entry: (FIRST if now - entry[1] >= self.patience else entry[2](),
                                                      entry[0]))
        self.waiting.remove(waiter)
        return waiter
