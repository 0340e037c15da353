"""Issue 10: ``/metrics`` counts what was committed: each bet (R2.1) and each decision by who took
it (R2.3-R2.5; R8: the house's automatic ones apart), once, after its commit, whether its row was
written through the session's unit of work or by a plain statement."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from casino_holdem import metrics
from casino_holdem.services import rounds
from casino_holdem.services.errors import ServiceError
from support.casino import SECOND, T0

SAMPLES = {"bets": ("casino_bets_total", {}), "player": ("casino_decisions_total", {"by": "player"}),
           "house": ("casino_decisions_total", {"by": "house"})}


def _counted() -> dict[str, float]:
    return {name: REGISTRY.get_sample_value(sample, labels) or 0.0 for name, (sample, labels) in SAMPLES.items()}


def _since(before: dict[str, float]) -> dict[str, float]:
    return {name: value - before[name] for name, value in _counted().items()}


def test_issue10_r8_each_committed_bet_and_decision_is_counted_once_by_who_took_it(casino) -> None:
    metrics.register()  # as the production servers do
    table = casino.table()
    alice, bob = casino.player(), casino.player()
    round_id = casino.open(table)
    before = _counted()
    for player in (alice, bob):
        rounds.place_bets(player, table, "10", request_id=f"b{player}", now=T0)
    assert casino.run(table, T0 + 10 * SECOND) == ["hole_cards"]
    for _ in range(2):  # a retry (the same request id) is answered, not counted again
        rounds.decide(alice, round_id, "flop", request_id="d", now=T0 + 11 * SECOND)
    with pytest.raises(ServiceError):  # R8: after the window a decision is refused and counts nothing
        rounds.decide(bob, round_id, "flop", request_id="late", now=T0 + 21 * SECOND)
    assert _since(before) == {"bets": 2, "player": 1, "house": 0}
    assert casino.run(table, T0 + 20 * SECOND) == ["flop"]  # R8: the house folds for bob
    assert _since(before) == {"bets": 2, "player": 1, "house": 1}
