"""The order in which a web worker's waiting states are built (issue 10): a window first.

A worker builds its streams' states on a few threads (``casino_holdem.asgi.BUILD_THREADS``). Under
load every thread is busy and the tables' builds wait for one: measured at the target size, about
16 builds a second between two workers, about 250 ms of wall time each, and the cards dealt
reaching a player's stream 3.6 s after the deal (p50), with a ten-second window to decide in (R8).
A state that shows the dealer's step (R2.2-R2.5: the cards that open a decision window, R2.7 the
settlement) or answers a stream that is opening is built before one that only shows other players'
bets and decisions, and before the lobby. Each build is due when it arrives, or
:data:`PATIENCE_SECONDS` later for the second rank, and the earliest due is built first (first come
first served among equals): under load the lobby and the other players' bets still reach the
streams every few seconds (measured with one build thread: with the second rank always last, the
lobby was built twice in a minute), and a dealer's step waits only behind the builds due before it.
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
#: seconds after its arrival a build of the second rank is due (module docstring)
PATIENCE_SECONDS = 5.0


class BuildOrder(Slots):
    """``slots`` builds at a time; the others wait, and when a slot comes free the one due
    earliest by its rank then (so a state that waited for other players' bets and meanwhile got
    the dealer's step is due at its arrival) is built (module docstring)."""

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
        """The waiter due earliest, the earliest to arrive among equals (a few topics wait at
        most: one per table and the lobby)."""
        waiter = min(self.waiting, key=lambda entry: (entry[1] + (0 if entry[2]() == FIRST else self.patience),
                                                      entry[0]))
        self.waiting.remove(waiter)
        return waiter
