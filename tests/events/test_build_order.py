"""Issue 10: which waiting state a web worker builds next — the dealer's step and a stream
opening (R2.2-R2.5: the cards that open a decision window, R8) before other players' bets and the
lobby, ranked when a build thread comes free, and any state that waited long enough before a later
step (that no slot is lost: tests/test_slots.py)."""

from __future__ import annotations

import asyncio

import pytest

from casino_holdem.events.build_order import FIRST, LATER, PATIENCE_SECONDS, BuildOrder
from casino_holdem.events.fanout import Subscriber, Topic, build_rank


async def _built_in_order(arrivals: list[tuple[str, int]], promoted: frozenset[str] = frozenset(),
                          waited: dict[str, float] | None = None) -> list[str]:
    """One slot, held by a first build; then ``arrivals`` (topic, rank) wait, each for its
    ``waited`` seconds (0 unless given) when the slot comes free. While they wait the ``promoted``
    topics get the dealer's step (their rank becomes FIRST). The topics in the order built."""
    clock = [0.0]
    order, built, release = BuildOrder(1, clock=lambda: clock[0]), [], asyncio.Event()
    ranks, waited = dict(arrivals), waited or {}
    longest = max(waited.values(), default=0.0)

    async def build(topic: str) -> None:
        async with order.slot(lambda: ranks.get(topic, FIRST)):
            built.append(topic)
            await release.wait() if topic == "holding" else None

    holder = asyncio.create_task(build("holding"))
    await asyncio.sleep(0)
    waiting = []
    for topic, _ in arrivals:
        clock[0] = longest - waited.get(topic, 0.0)
        waiting.append(asyncio.create_task(build(topic)))
        await asyncio.sleep(0)
    clock[0] = longest
    ranks.update(dict.fromkeys(promoted, FIRST))
    release.set()
    await asyncio.gather(holder, *waiting)
    assert order.free == 1 and not order.waiting
    return built[1:]


@pytest.mark.parametrize(("arrivals", "promoted", "built"), [
    pytest.param([("a", LATER), ("b", LATER), ("c", LATER)], frozenset(), ["a", "b", "c"],
                 id="one rank: arrival order"),
    pytest.param([("bets at 1", LATER), ("lobby", LATER), ("cards dealt at 2", FIRST)], frozenset(),
                 ["cards dealt at 2", "bets at 1", "lobby"], id="R2.2: the dealer's step first"),
    pytest.param([("bets at 1", LATER), ("flop at 2", FIRST), ("turn at 3", FIRST)], frozenset(),
                 ["flop at 2", "turn at 3", "bets at 1"], id="R2.3-R2.4: steps in arrival order"),
    pytest.param([("bets at 1", LATER), ("bets at 2", LATER)], frozenset({"bets at 2"}),
                 ["bets at 2", "bets at 1"], id="R8: a step while it waited ranks it first"),
])
def test_issue_10_a_window_is_built_before_other_players_bets(
        arrivals: list[tuple[str, int]], promoted: frozenset[str], built: list[str]) -> None:
    assert asyncio.run(_built_in_order(arrivals, promoted)) == built


@pytest.mark.parametrize(("waited", "built"), [
    pytest.param({"lobby": PATIENCE_SECONDS - 0.1}, ["cards dealt", "lobby", "bets"],
                 id="R2.2: the dealer's step first"),
    pytest.param({"lobby": PATIENCE_SECONDS}, ["lobby", "cards dealt", "bets"],
                 id="the lobby waited long enough"),
    pytest.param({"lobby": PATIENCE_SECONDS, "bets": PATIENCE_SECONDS + 1}, ["bets", "lobby", "cards dealt"],
                 id="the longest wait first among those"),
    pytest.param({"lobby": PATIENCE_SECONDS + 1, "cards dealt": 2}, ["cards dealt", "lobby", "bets"],
                 id="R2.2: a step due before the lobby's wait ran out"),
])
def test_issue_10_no_state_waits_behind_the_dealers_steps_for_long(waited: dict[str, float], built: list[str]) -> None:
    arrivals = [("bets", LATER), ("lobby", LATER), ("cards dealt", FIRST)]
    assert asyncio.run(_built_in_order(sorted(arrivals, key=lambda a: -waited.get(a[0], 0.0)),
                                       waited=waited)) == built


@pytest.mark.parametrize(("name", "joining", "urgent", "rank"), [
    pytest.param("table:7", False, True, FIRST, id="R2.2-R2.5: the dealer's step"),
    pytest.param("table:7", False, False, LATER, id="R2.1-R2.5: only other players' bets and decisions"),
    pytest.param("table:7", True, False, FIRST, id="a table's stream opening"),
    pytest.param("lobby", False, True, LATER, id="the lobby's change"),
    pytest.param("lobby", True, True, FIRST, id="a lobby stream opening"),
])
def test_issue_10_what_a_build_waits_behind(name: str, joining: bool, urgent: bool, rank: int) -> None:
    topic = Topic(lambda watchers: {})
    if joining:
        topic.joining.add(Subscriber(1, "USD", {}))
    if urgent:
        topic.urgent.set()
    assert build_rank(name, topic) == rank
