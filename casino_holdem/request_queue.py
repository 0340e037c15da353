"""The queue for a web worker's request threads (issue 10): who is served next when requests wait.

A worker runs the Flask app on a fixed number of threads; a request beyond them waits here, on the
event loop, for a free one. While the waits are short they are served in arrival order. Once the
oldest has waited longer than :data:`LIFO_AFTER_SECONDS`, the newest is served first: a game's
requests are worth their answer only inside their windows (R2.1 betting, R8 decisions), and in
arrival order a floor over its capacity for a moment serves every request after its window and
stays there (measured: nearly every decision late for the rest of a run). Served newest first, the
requests still inside their windows are answered in time, and the old ones when the queue ebbs or
once they have waited :data:`LONGEST_WAIT_SECONDS` (late, as they would have been anyway, and
refused quickly). Nothing is refused here and nothing is lost: a request waits until it is served
or its client goes away.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from .slots import Slots

#: the oldest waiting request's wait beyond which the newest is served first
LIFO_AFTER_SECONDS = 0.5
#: a request that has waited this long is served next whatever came after it: no client waits
#: without end (a late one is refused quickly, R2.1 and R8, and costs little)
LONGEST_WAIT_SECONDS = 20.0


class RequestQueue(Slots):
    """``slots`` request threads, granted first come first served until the oldest waiter has
    waited ``lifo_after`` seconds, newest first after that, and to the oldest again once it has
    waited ``longest`` seconds (module docstring)."""

    def __init__(self, slots: int, *, lifo_after: float = LIFO_AFTER_SECONDS, longest: float = LONGEST_WAIT_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(slots)
        self.lifo_after = lifo_after
        self.longest = longest
        self.clock = clock
        self.waiting: deque[tuple[float, asyncio.Future[None]]] = deque()

    def slot(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold one request thread for the body of the ``async with``."""
        return self._held(self.clock())

    def _next(self) -> tuple[float, asyncio.Future[None]]:
        """The oldest waiter, or the newest once the oldest waited too long, or the oldest again
        once it waited the longest."""
        oldest_wait = self.clock() - self.waiting[0][0]
        return self.waiting.pop() if self.lifo_after < oldest_wait <= self.longest else self.waiting.popleft()


class Queued:
    """The ASGI app ``app`` (the Flask app on its threads) behind a :class:`RequestQueue`."""

    def __init__(self, app: ASGIApp, queue: RequestQueue) -> None:
        self.app = app
        self.queue = queue

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        async with self.queue.slot():
            await self.app(scope, receive, send)
