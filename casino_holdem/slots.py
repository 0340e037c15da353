"""A fixed number of slots for asynchronous work, and the waiting line for them (issue 10).

Both of a web worker's scarce resources are handed out this way: its request threads
(:mod:`casino_holdem.request_queue`) and its build threads (:mod:`casino_holdem.events.build_order`).
Each line decides only who is next; what they share is written once here: a slot free and nobody
waiting is taken at once, a waiter that goes away never holds one, and a slot granted to a waiter
cancelled before it could start is passed on, so no slot is ever lost.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

#: a waiter: whatever its line orders it by, then the future that grants it a slot
Waiter = tuple[Any, ...]


class Slots:
    """``slots`` slots; :meth:`_next` (each line's own order) picks who gets a freed one."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self.waiting: Any = []

    @contextlib.asynccontextmanager
    async def _held(self, *order: Any) -> AsyncIterator[None]:
        """Hold a slot for the body of the ``async with``; a waiter is ``(*order, future)``."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
        else:
            granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            waiter = (*order, granted)
            self.waiting.append(waiter)
            try:
                await granted
            except BaseException:
                if granted.cancelled():  # it went away while waiting: it never held a slot
                    with contextlib.suppress(ValueError):  # unless passed over already
                        self.waiting.remove(waiter)
                else:  # granted, and cancelled before it could start: the slot goes to the next
                    self._give_on()
                raise
        try:
            yield
        finally:
            self._give_on()

    def _give_on(self) -> None:
        """A slot is free: to the waiter :meth:`_next` picks, passing over any that went away."""
        while self.waiting:
            granted = self._next()[-1]
            if not granted.done():
                granted.set_result(None)
                return
        self.free += 1

    def _next(self) -> Waiter:
        """Remove and return the waiter to be served next (``self.waiting`` is not empty)."""
        raise NotImplementedError
