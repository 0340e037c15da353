"""Issue 10: who is served next when requests wait for a web worker's threads — arrival order
while the waits are short, the newest first once the oldest has waited too long (R2.1, R8: a
request is worth its answer inside its window). That no thread is lost to a client that went
away: tests/test_slots.py."""

from __future__ import annotations

import asyncio

import pytest

from casino_holdem.request_queue import RequestQueue


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _served_in_order(queue: RequestQueue, clock: Clock, arrivals: list[tuple[str, float]]) -> list[str]:
    """One thread, held by a first request; then ``arrivals`` (name, seconds later) queue, and
    each one served releases the thread to the next. The names in the order served."""
    served: list[str] = []
    release = asyncio.Event()

    async def request(name: str) -> None:
        async with queue.slot():
            served.append(name)
            await release.wait() if name == "first" else None

    first = asyncio.create_task(request("first"))
    await asyncio.sleep(0)
    tasks = []
    for name, at in arrivals:
        clock.now = at
        tasks.append(asyncio.create_task(request(name)))
        await asyncio.sleep(0)
    release.set()
    await asyncio.gather(first, *tasks)
    return served[1:]


@pytest.mark.parametrize(("arrivals", "order"), [
    pytest.param([("a", 0.0), ("b", 0.1), ("c", 0.2)], ["a", "b", "c"], id="short waits: arrival order"),
    pytest.param([("a", 0.0), ("b", 1.0), ("c", 2.0)], ["c", "b", "a"], id="the oldest waited too long: newest first"),
    pytest.param([("a", 0.0), ("b", 1.0), ("c", 21.0)], ["a", "c", "b"], id="waited the longest: next"),
])
def test_issue_10_requests_are_served_in_order_until_the_oldest_waited_too_long(
        arrivals: list[tuple[str, float]], order: list[str]) -> None:
    clock = Clock()
    queue = RequestQueue(1, lifo_after=0.5, longest=20.0, clock=clock)
    assert asyncio.run(_served_in_order(queue, clock, arrivals)) == order
    assert queue.free == 1 and not queue.waiting
