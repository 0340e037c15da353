"""R9 [reading]: each void reason only at its stage — "card exposed during betting" before the first
card is dealt, "dropped card seen" once dealing has begun; a refusal changes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino_holdem.services import rounds, voids
from casino_holdem.services.errors import Unprocessable
from support.casino import SECOND, T0, staff


@pytest.fixture
def betting(casino):
    """A round in its betting window with one bettor."""
    table, player = casino.table(), casino.player()
    round_id = casino.open(table)
    rounds.place_bets(player, table, "10", "5", False, request_id="p", now=T0)
    return casino, table, round_id, player


def test_r9_dropped_card_seen_is_refused_before_dealing_begins(betting) -> None:
    casino, _table, round_id, player = betting
    with pytest.raises(Unprocessable, match="dealing has begun") as refused:
        voids.void_round(round_id, "dropped_card_seen", by=staff("pit", "pit"), now=T0 + SECOND)
    assert refused.value.field == "reason" and casino.balance(player) == Decimal(1000 - 15)
    casino.assert_sound()


@pytest.mark.parametrize("stage", [None, "betting", "hole_cards"])
def test_r9_card_exposed_during_betting_is_refused_once_a_card_is_dealt(betting, stage) -> None:
    casino, table, round_id, player = betting
    casino.run(table, T0 + 10 * SECOND)  # the betting window closes: the hole cards are dealt
    with pytest.raises(Unprocessable, match="before the first card"):
        voids.void_round(round_id, "card_exposed_during_betting", stage, by=staff("pit", "pit"), now=T0 + 11 * SECOND)
    assert casino.balance(player) == Decimal(1000 - 15)
    casino.assert_sound()


def test_r9_each_reason_voids_at_its_own_stage(betting) -> None:
    casino, table, round_id, player = betting
    casino.run(table, T0 + 10 * SECOND)
    view = voids.void_round(round_id, "dropped_card_seen", by=staff("pit", "pit"), now=T0 + 11 * SECOND)
    assert view["result"]["void"] == {"reason": "dropped_card_seen", "stage": "hole_cards"}
    assert casino.balance(player) == Decimal(1000)
    casino.assert_sound()
