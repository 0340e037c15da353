"""Issue 10: who is served next when requests wait for a web worker's threads — a player's decision
before any other request (R8: a decision the server answers late is taken by the house; a late bet
is only refused, R2.1), and in each rank arrival order while the waits are short, the newest first
once the oldest has waited too long (R2.1, R8: a request is worth its answer inside its window).
That no thread is lost to a client that went away: tests/test_slots.py."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from prometheus_client import REGISTRY

from casino_holdem.request_queue import DECISION, OTHER, Queued, RequestQueue, rank_of


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _served_in_order(queue: RequestQueue, clock: Clock, arrivals: list[tuple[str, float, int]]) -> list[str]:
    """One thread, held by a first request; then ``arrivals`` (name, seconds later, rank) queue,
    and each one served releases the thread to the next. The names in the order served."""
    served: list[str] = []
    release = asyncio.Event()

    async def request(name: str, rank: int) -> None:
        async with queue.slot(rank):
            served.append(name)
            await release.wait() if name == "first" else None

    first = asyncio.create_task(request("first", OTHER))
    await asyncio.sleep(0)
    tasks = []
    for name, at, rank in arrivals:
        clock.now = at
        tasks.append(asyncio.create_task(request(name, rank)))
        await asyncio.sleep(0)
    release.set()
    await asyncio.gather(first, *tasks)
    return served[1:]


@pytest.mark.parametrize(("arrivals", "order"), [
    pytest.param([("a", 0.0, OTHER), ("b", 0.1, OTHER), ("c", 0.2, OTHER)], ["a", "b", "c"],
                 id="short waits: arrival order"),
    pytest.param([("a", 0.0, OTHER), ("b", 1.0, OTHER), ("c", 2.0, OTHER)], ["c", "b", "a"],
                 id="the oldest waited too long: newest first"),
    pytest.param([("a", 0.0, OTHER), ("b", 1.0, OTHER), ("c", 21.0, OTHER)], ["a", "c", "b"],
                 id="waited the longest: next"),
    pytest.param([("bet1", 0.0, OTHER), ("bet2", 0.1, OTHER), ("decision", 0.2, DECISION)],
                 ["decision", "bet1", "bet2"], id="R8: a decision before the bets that came first"),
    pytest.param([("d1", 0.0, DECISION), ("bet", 0.1, OTHER), ("d2", 0.2, DECISION)], ["d1", "d2", "bet"],
                 id="R8: decisions among themselves in arrival order"),
    pytest.param([("d1", 0.0, DECISION), ("d2", 1.0, DECISION), ("bet", 1.5, OTHER), ("d3", 2.0, DECISION)],
                 ["d3", "d2", "d1", "bet"], id="R8: the oldest decision waited too long: the newest decision first"),
    pytest.param([("bet", 0.0, OTHER), ("decision", 21.0, DECISION)], ["bet", "decision"],
                 id="R2.1: a bet that waited the longest goes before a decision"),
])
def test_issue_10_requests_are_served_in_order_until_the_oldest_waited_too_long(
        arrivals: list[tuple[str, float, int]], order: list[str]) -> None:
    clock = Clock()
    queue = RequestQueue(1, lifo_after=0.5, longest=20.0, clock=clock)
    assert asyncio.run(_served_in_order(queue, clock, arrivals)) == order
    assert queue.free == 1 and not queue.waiting


@pytest.mark.parametrize(("method", "path", "rank"), [
    pytest.param("POST", "/api/rounds/7/decisions", DECISION, id="R8: a decision"),
    pytest.param("POST", "/casino/api/rounds/7/decisions", DECISION, id="R8: a decision behind a path prefix"),
    pytest.param("GET", "/api/rounds/7/decisions", OTHER, id="not a POST"),
    pytest.param("POST", "/api/tables/3/bets", OTHER, id="R2.1: a bet"),
    pytest.param("POST", "/api/rounds/7/decisions/8", OTHER, id="another path"),
    pytest.param("GET", "/api/rounds/7", OTHER, id="a round's recall"),
])
def test_issue_10_a_decision_is_the_first_rank(method: str, path: str, rank: int) -> None:
    assert rank_of({"type": "http", "method": method, "path": path}) == rank


@pytest.mark.parametrize(("method", "path", "rank"), [
    pytest.param("POST", "/api/rounds/7/decisions", "decision", id="R8: a decision's wait"),
    pytest.param("POST", "/api/tables/3/bets", "other", id="R2.1: a bet's wait"),
])
def test_issue_10_each_request_s_wait_for_a_thread_is_observed_by_its_rank(method: str, path: str, rank: str) -> None:
    """``/metrics`` shows how long each rank waited for a thread (``casino_request_queue_seconds``)."""
    served: list[str] = []

    async def app(scope: dict[str, Any], _receive: Any, _send: Any) -> None:
        served.append(scope["path"])

    def count() -> float:
        return REGISTRY.get_sample_value("casino_request_queue_seconds_count", {"rank": rank}) or 0.0

    before = count()
    asyncio.run(Queued(app, RequestQueue(1))({"type": "http", "method": method, "path": path}, None, None))
    assert served == [path] and count() == before + 1
