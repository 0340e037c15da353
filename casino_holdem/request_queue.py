"""The queue for a web worker's request threads (issue 10): who is served next when requests wait.

A worker runs the Flask app on a fixed number of threads; a request beyond them waits here, on the
event loop, for a free one.

- **A decision before anything else.** A decision is the one request the game makes a player pay
  for missing: a decision not in by its window's end is taken by the house (R8: a fold before the
  flop loses the Ante and Bonus), while a bet that misses its betting window is refused and the
  money stays in the wallet (R2.1). A decision waits only behind other decisions.
- **Arrival order while the waits are short.** Once the oldest of a rank has waited longer than
  :data:`LIFO_AFTER_SECONDS`, the newest of that rank is served first: a game's requests are worth
  their answer only inside their windows (R2.1 betting, R8 decisions), and in arrival order a floor
  over its capacity for a moment serves every request after its window and stays there (measured:
  nearly every decision late for the rest of a run). Served newest first, the requests still inside
  their windows are answered in time.
- **Nobody waits without end.** A request of any rank that has waited
  :data:`LONGEST_WAIT_SECONDS` is served next (late, as it would have been anyway, and refused
  quickly).

Nothing is refused here and nothing is lost: a request waits until it is served or its client goes
away.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import time
from collections import deque
from collections.abc import Callable, Iterator

from starlette.types import ASGIApp, Receive, Scope, Send

from . import metrics
from .slots import Slots

#: the oldest waiting request's wait beyond which the newest of its rank is served first
LIFO_AFTER_SECONDS = 0.5
#: a request that has waited this long is served next whatever came after it: no client waits
#: without end (a late one is refused quickly, R2.1 and R8, and costs little)
LONGEST_WAIT_SECONDS = 20.0
#: the ranks: a player's decision (R8), then every other request
DECISION, OTHER = 0, 1
#: the ranks as ``/metrics`` labels them (:data:`~casino_holdem.metrics.QUEUE_WAITS`)
RANK_NAMES = ("decision", "other")
#: the path a decision is sent to (``POST``; the API's only one)
DECISION_PATH = re.compile(r"/api/rounds/[0-9]+/decisions\Z")

Waiter = tuple[int, float, asyncio.Future[None]]


class Lines:
    """The waiting requests: one line per rank, each in arrival order."""

    def __init__(self) -> None:
        self.by_rank: tuple[deque[Waiter], ...] = (deque(), deque())

    def append(self, waiter: Waiter) -> None:
        self.by_rank[waiter[0]].append(waiter)

    def remove(self, waiter: Waiter) -> None:
        self.by_rank[waiter[0]].remove(waiter)

    def __bool__(self) -> bool:
        return any(self.by_rank)

    def __iter__(self) -> Iterator[Waiter]:
        """The waiters, rank by rank, each rank in arrival order."""
        return itertools.chain.from_iterable(self.by_rank)


class RequestQueue(Slots):
    """``slots`` request threads (module docstring): a decision first; in each rank first come first
    served until its oldest has waited ``lifo_after`` seconds, newest first after that; and any
    request that has waited ``longest`` seconds next."""

    def __init__(self, slots: int, *, lifo_after: float = LIFO_AFTER_SECONDS, longest: float = LONGEST_WAIT_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(slots)
        self.lifo_after = lifo_after
        self.longest = longest
        self.clock = clock
        self.waiting: Lines = Lines()

    def slot(self, rank: int = OTHER) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold one request thread for the body of the ``async with``."""
        return self._held(rank, self.clock())

    def _next(self) -> Waiter:
        """The oldest waiter of any rank once it waited the longest; else, of the first rank
        waiting, the oldest, or the newest once the oldest waited too long."""
        now = self.clock()
        lines = [line for line in self.waiting.by_rank if line]
        oldest = min(lines, key=lambda line: line[0][1])
        if now - oldest[0][1] > self.longest:
            return oldest.popleft()
        line = lines[0]
        return line.pop() if now - line[0][1] > self.lifo_after else line.popleft()


def rank_of(scope: Scope) -> int:
    """:data:`DECISION` for a player's decision (module docstring), :data:`OTHER` for the rest."""
    return DECISION if scope["method"] == "POST" and DECISION_PATH.search(scope["path"]) else OTHER


class Queued:
    """The ASGI app ``app`` (the Flask app on its threads) behind a :class:`RequestQueue`; each
    request's wait for a thread is observed by its rank (``casino_request_queue_seconds``)."""

    def __init__(self, app: ASGIApp, queue: RequestQueue) -> None:
        self.app = app
        self.queue = queue

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rank, arrived = rank_of(scope), time.perf_counter()
        async with self.queue.slot(rank):
            metrics.QUEUE_WAITS.labels(RANK_NAMES[rank]).observe(time.perf_counter() - arrived)
            await self.app(scope, receive, send)
