"""The named strategies (R2 decisions) and their registry."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest

from casino_holdem.compliance import strategies
from casino_holdem.compliance.strategies import (
    AlwaysPlay,
    Basic,
    Strategy,
    UnknownStrategy,
    get_strategy,
    register,
)
from casino_holdem.core.cards import FULL_DECK, parse_cards


def ids(text: str) -> np.ndarray:
    return np.array([[card.id for card in parse_cards(text.split())]], np.uint8)


def test_r2_3_basic_folds_exactly_two_three_to_two_seven_offsuit() -> None:
    holes = np.array([[a.id, b.id] for a, b in itertools.combinations(FULL_DECK, 2)], np.uint8)
    folded = {tuple(sorted((FULL_DECK[a].rank, FULL_DECK[b].rank))) + (FULL_DECK[a].suit == FULL_DECK[b].suit,)
              for a, b in holes[~Basic().preflop(holes)]}
    assert folded == {(0, high, False) for high in range(1, 6)}
    assert int((~Basic().preflop(holes)).sum()) == 60


@pytest.mark.parametrize("hole, flop, bets", [
    ("Ah 7c", "7d Kc 2s", True),     # a hole card paired by the flop
    ("5h 5c", "Ad Kc 2s", True),     # a pocket pair
    ("Ah Kc", "7d 7c 2s", False),    # the pair is on the flop alone
    ("Ah 9h", "2h 7h Kc", True),     # four to a flush
    ("Ah 9c", "2h 7d Kh", False),    # three to a flush
    ("5h 4c", "3d 2s Kh", True),     # 2-3-4-5: open-ended (A or 6)
    ("Ah 2c", "3d 4s 9h", False),    # A-2-3-4: one end only
    ("Ah Kc", "Qd Js 4h", False),    # J-Q-K-A: one end only
    ("Kh Qc", "Jd Ts 4h", True),     # T-J-Q-K: 9 or A
    ("9h 8c", "6d 5s Kh", False),    # gutshot
    ("9h 8c", "7d 6s 5h", True),     # made straight
    ("Ah Kc", "Qd 9s 4h", False),    # high cards only
])
def test_r2_4_basic_turn_bet(hole: str, flop: str, bets: bool) -> None:
    assert bool(Basic().flop(ids(hole), ids(flop))[0]) is bets


@pytest.mark.parametrize("hole, board, bets", [
    ("Ah 7c", "7d Kc 2s 4h", True),
    ("Ah Kc", "7d 7c 2s 4h", False),       # the board's pair is everybody's
    ("Ah 9h", "2h 7h Kc 4d", False),       # a flush draw does not bet the river
    ("Ah 9h", "2h 7h Kh 4d", True),        # a flush
    ("6h 8c", "7d 9s 5h Kd", True),        # a straight with hole cards
    ("2c 3d", "Ah Kh Qh Jh", False),       # nothing of the hole cards plays
])
def test_r2_5_basic_river_bet(hole: str, board: str, bets: bool) -> None:
    assert bool(Basic().turn(ids(hole), ids(board), np.array([True]))[0]) is bets


def test_always_play_never_folds_and_never_bets_after_the_flop() -> None:
    hole, board = ids("2c 7d"), ids("As Ks Qs Js")
    strategy = AlwaysPlay()
    assert strategy.preflop(hole).all() and not strategy.flop(hole, board[:, :3]).any()
    assert not strategy.turn(hole, board, np.array([False])).any() and not strategy.postflop_bets


def test_built_in_strategies_are_registered_and_implement_the_protocol() -> None:
    assert strategies.strategy_names()[:2] == strategies.BUILT_IN
    assert all(isinstance(get_strategy(name), Strategy) for name in strategies.BUILT_IN)


def test_unknown_strategy_lists_the_known_ones() -> None:
    with pytest.raises(UnknownStrategy, match="always-play, basic"):
        get_strategy("nope")


def test_a_plug_in_strategy_can_be_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strategies, "_registry", dict(strategies._registry))

    @dataclass(frozen=True)
    class Optimal(Basic):
        name: str = "optimal"

    register(Optimal())
    assert get_strategy("optimal").name == "optimal"
    with pytest.raises(ValueError, match="already registered"):
        register(Optimal())
    with pytest.raises(TypeError):
        register(object())  # type: ignore[arg-type]
