"""Sample flop and turn decisions of the optimal strategy against calculations done by hand in the
test, the ``simple`` rules, and the property that no strategy returns more than ``optimal``."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from casino_holdem.cli import main
from casino_holdem.compliance.isomorphism import Deck
from casino_holdem.compliance.optimal import MainRules, play_flop, solve
from casino_holdem.compliance.optimal_strategy import Optimal
from casino_holdem.compliance.play_figures import figures
from casino_holdem.compliance.simple import Simple
from casino_holdem.compliance.strategies import SHIPPED, get_strategy
from casino_holdem.compliance.vector import HOLE_CLASSES, combinations, hole_classes
from casino_holdem.core.cards import parse_cards
from casino_holdem.core.evaluator import Category, evaluate_batch

STRAIGHT = MainRules(Category.STRAIGHT, 1, 1, 1, 1)
FLUSH = MainRules(Category.FLUSH, 1, 1, 1, 1)
FULL = Deck.full()
SMALL = Deck((0, 1, 2, 3, 7, 12), 2)


def ids(text: str) -> np.ndarray:
    return np.array([[card.id for card in parse_cards(text.split())]], np.uint8)


def river_bet_by_hand(hole: np.ndarray, board: np.ndarray) -> int:
    """Σ over every river and Dealer hand of the River bet's result (1:1, R3): won − lost."""
    unseen = np.setdiff1d(np.arange(52), np.concatenate([hole, board])).astype(np.uint8)
    total = 0
    for river in unseen:
        rest = np.setdiff1d(unseen, [river]).astype(np.uint8)
        dealer = rest[combinations(len(rest), 2)]
        five = np.append(board, river)
        player = evaluate_batch(np.append(hole, five)[None, :])[0]
        rival = evaluate_batch(np.concatenate([dealer, np.broadcast_to(five, (len(dealer), 5))], axis=1))
        total += int((player > rival).sum()) - int((player < rival).sum())
    return total


def turn_bet_by_hand(hole: np.ndarray, flop: np.ndarray) -> int:
    """Σ over every turn, river and Dealer hand of the Turn bet's result: won − lost."""
    unseen = np.setdiff1d(np.arange(52), np.concatenate([hole, flop])).astype(np.uint8)
    return sum(river_bet_by_hand(hole, np.append(flop, turn)) for turn in unseen)


def engine_decisions(hole: np.ndarray, flop: np.ndarray) -> tuple[bool, np.ndarray, np.ndarray]:
    """The engine's optimal Turn bet for ``hole`` on ``flop`` and its River bets by turn card."""
    play = play_flop(FULL, flop, STRAIGHT)
    rest = np.setdiff1d(FULL.cards, flop)
    pairs = rest[combinations(len(rest), 2)].tolist()
    holding = pairs.index(sorted(hole.tolist()))
    return bool(play.turn_bet["optimal"][holding]), play.river_bet["optimal"][holding], rest


@pytest.mark.parametrize(
    "hole, flop, bets",
    [
        ("As Kd", "Qc 7h 2s", True),  # ace high with both hole cards above the flop
        ("2c 2d", "Ks Qh Jd", False),  # a pocket pair below every flop card
        ("9s 8s", "7d 6c 2h", False),  # a low open-ended straight draw
        ("Kh Qh", "Jd Tc 4s", True),  # an open-ended draw to the nuts with two high cards
        ("7c 2d", "7h Kc 9s", True),  # a pair of the lowest flop card, the weakest kicker
    ],
)
def test_r2_4_turn_bet_decisions_match_the_hand_calculation(hole: str, flop: str, bets: bool) -> None:
    hole_ids, flop_ids = ids(hole)[0], ids(flop)[0]
    by_hand = turn_bet_by_hand(hole_ids, flop_ids)
    assert (by_hand > 0) is bets
    assert engine_decisions(hole_ids, flop_ids)[0] is bets


@pytest.mark.parametrize(
    "hole, board, bets",
    [
        ("Ad 5c", "Ks Kh 8d 3c", True),  # ace high on a paired board
        ("3c 3d", "9s 8h 6d Jc", False),  # a pocket pair below all four board cards
        ("Qs Js", "2h 7d 9c Ks", False),  # no pair, no ace
        ("Th 4c", "Ts 8h 5d 2c", True),  # top pair, weak kicker
    ],
)
def test_r2_5_river_bet_decisions_match_the_hand_calculation(hole: str, board: str, bets: bool) -> None:
    hole_ids, board_ids = ids(hole)[0], ids(board)[0]
    assert (river_bet_by_hand(hole_ids, board_ids) > 0) is bets
    _, river_bets, rest = engine_decisions(hole_ids, board_ids[:3])
    assert bool(river_bets[list(rest).index(board_ids[3])]) is bets


@pytest.mark.parametrize(
    "hole, flop, bets",
    [
        ("Ah 7c", "7d Kc 2s", True),  # a hole card paired
        ("3h 3c", "Ad Kc 9s", False),  # a pocket pair below the whole flop
        ("3h 3c", "Ad Ac 9s", True),  # ... but the flop is paired
        ("Ah 9h", "2h 7h Kc", True),  # four to a flush with a high card
        ("7h 5h", "2h 8h Kc", False),  # four to a flush, both hole cards below 9
        ("9h 8c", "7d 6s Kh", False),  # open-ended, both hole cards below a jack
        ("Kh Qc", "Jd Ts 4h", True),  # open-ended with a king
        ("Ah Tc", "Qd 8s 4h", True),  # an ace with a ten
        ("Ah 6c", "5d 3s 2h", True),  # an ace with a card above the whole flop
        ("Ah 6c", "Qd Qs 8h", True),  # an ace on a paired flop
        ("Ah 6c", "Qd 8s 4h", False),  # an ace alone
    ],
)
def test_simple_turn_bet_rules(hole: str, flop: str, bets: bool) -> None:
    assert bool(Simple().flop(ids(hole), ids(flop))[0]) is bets


@pytest.mark.parametrize(
    "hole, board, bets",
    [
        ("Ah 7c", "7d Kc 2s 4h", True),
        ("3h 3c", "9d 8c 6s 4h", False),  # a pocket pair below all four board cards
        ("Ah 4c", "Kd Kc 9s 2h", True),  # an ace on a paired board
        ("Ah 4h", "Kh 9h 7s 2c", True),  # an ace with four to a flush
        ("Kh 4h", "Qh 9h 7s 2c", False),  # a flush draw without the ace
        ("6h 8c", "7d 9s 5h Kd", True),  # a straight
    ],
)
def test_simple_river_bet_rules(hole: str, board: str, bets: bool) -> None:
    assert bool(Simple().turn(ids(hole), ids(board), np.array([True]))[0]) is bets


@pytest.fixture(scope="module")
def small_solution():
    return solve(SMALL, STRAIGHT, [get_strategy(name) for name in SHIPPED if name != "optimal"], workers=1)


def test_the_lookup_plays_the_decisions_computed_for_the_flop_itself(small_solution) -> None:
    """Every flop of the small deck in its own suits, decided directly, against the lookup through
    its canonical flop (the full deck's twin runs with -m optimal)."""
    strategy = Optimal(solution=small_solution)
    for flop in itertools.combinations(SMALL.cards.tolist(), 3):
        play = play_flop(SMALL, np.array(flop, np.uint8), STRAIGHT)
        rest = np.setdiff1d(SMALL.cards, flop).astype(np.uint8)
        holes = rest[combinations(len(rest), 2)]
        assert np.array_equal(strategy.flop(holes, np.broadcast_to(flop, (len(holes), 3))), play.turn_bet["optimal"])
        for position, card in enumerate(rest):
            open_ = (holes != card).all(axis=1)
            boards = np.broadcast_to(np.append(flop, card), (int(open_.sum()), 4))
            assert np.array_equal(strategy.turn(holes[open_], boards, np.zeros(len(boards), bool)),
                                  play.river_bet["optimal"][open_, position])


def test_no_shipped_strategy_returns_more_than_optimal(small_solution) -> None:
    best = figures(small_solution)
    for name in SHIPPED:
        if name != "optimal":
            assert figures(small_solution, get_strategy(name)).net_per_ante <= best.net_per_ante


class Thresholds:
    """A suit-blind strategy: play the classes given, bet the flop / turn from an R7 strength up."""

    postflop_bets = True
    summary = "test"

    def __init__(self, played: np.ndarray, flop_from: int, turn_from: int) -> None:
        self.name, self.played, self.flop_from, self.turn_from = "thresholds", played, flop_from, turn_from

    def preflop(self, hole: np.ndarray) -> np.ndarray:
        return self.played[hole_classes(hole)]

    def flop(self, hole: np.ndarray, flop: np.ndarray) -> np.ndarray:
        return evaluate_batch(np.concatenate([hole, flop], axis=1)) >= self.flop_from

    def turn(self, hole: np.ndarray, board: np.ndarray, turn_bet: np.ndarray) -> np.ndarray:
        return evaluate_batch(np.concatenate([hole, board], axis=1)) >= self.turn_from


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.booleans(), min_size=HOLE_CLASSES, max_size=HOLE_CLASSES),
    st.integers(1, 7462),
    st.integers(1, 7462),
    st.sampled_from([STRAIGHT, FLUSH]),
)
def test_property_no_strategy_beats_optimal(
    played: list[bool], flop_from: int, turn_from: int, rules: MainRules
) -> None:
    strategy = Thresholds(np.array(played), flop_from, turn_from)
    solution = solve(Deck((0, 1, 2, 3, 12), 2), rules, [strategy], workers=1)
    assert figures(solution, strategy).net_per_ante <= figures(solution).net_per_ante


def test_r3_the_flush_qualifier_returns_less_than_the_straight_one() -> None:
    straight, flush = figures(solve(SMALL, STRAIGHT, workers=1)), figures(solve(SMALL, FLUSH, workers=1))
    assert flush.rtp < straight.rtp and flush.house_edge > straight.house_edge


def test_strategy_optimal_refuses_an_unknown_paytable() -> None:
    result = CliRunner().invoke(main, ["strategy", "optimal", "nope"])
    assert result.exit_code == 2 and result.stderr.startswith("paytable:") and result.stderr.count("\n") == 1
