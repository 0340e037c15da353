"""Issue 10: a worker's threads are handed out by one waiting line (``casino_holdem/slots.py``),
whoever is next in each line's own order (the request queue's, R2.1 and R8; the build order's):
a waiter that went away never holds a slot, and a slot granted to a waiter cancelled before it
could start goes to the next, so no thread is ever lost."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import pytest

from casino_holdem.events.build_order import FIRST, BuildOrder
from casino_holdem.request_queue import RequestQueue
from casino_holdem.slots import Slots

Take = Callable[[Any], contextlib.AbstractAsyncContextManager[None]]

LINES = [
    pytest.param(lambda: RequestQueue(1), lambda line: line.slot(), id="request threads"),
    pytest.param(lambda: BuildOrder(1), lambda line: line.slot(lambda: FIRST), id="build threads"),
]


async def _held(line: Slots, take: Take) -> tuple[asyncio.Task[None], asyncio.Event]:
    """Work holding the line's one slot until the event is set."""
    holding, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with take(line):
            holding.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await holding.wait()
    return holder, release


async def _in_line(line: Slots, take: Take) -> None:
    async with take(line):
        await asyncio.sleep(0)


@pytest.mark.parametrize(("make", "take"), LINES)
def test_issue_10_a_waiter_gone_while_waiting_takes_no_slot(make: Callable[[], Slots], take: Take) -> None:
    async def scenario() -> Slots:
        line = make()
        holder, release = await _held(line, take)
        gone = asyncio.create_task(_in_line(line, take))
        await asyncio.sleep(0)
        gone.cancel()
        release.set()  # in the same step: the slot may be offered to the cancelled one
        await holder
        with pytest.raises(asyncio.CancelledError):
            await gone
        await asyncio.wait_for(_in_line(line, take), timeout=60)
        return line

    line = asyncio.run(scenario())
    assert line.free == 1 and not line.waiting


@pytest.mark.parametrize(("make", "take"), LINES)
def test_issue_10_a_slot_granted_then_cancelled_goes_to_the_next(make: Callable[[], Slots], take: Take) -> None:
    async def scenario() -> Slots:
        line = make()
        holder, release = await _held(line, take)
        granted, after = asyncio.create_task(_in_line(line, take)), asyncio.create_task(_in_line(line, take))
        await asyncio.sleep(0)
        release.set()
        await asyncio.sleep(0)  # the holder runs: the slot goes to the first in line, not yet running
        assert holder.done() and not next(iter(line.waiting))[-1].done()  # granted: only ``after`` still waits
        granted.cancel()
        with pytest.raises(asyncio.CancelledError):
            await granted
        await asyncio.wait_for(after, timeout=60)
        return line

    line = asyncio.run(scenario())
    assert line.free == 1 and not line.waiting
