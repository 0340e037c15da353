"""The optimal strategy (R2.3-R2.5 at their best under R3) against an independent game-tree search.

On reduced decks the whole game is small enough to search directly: every holding, every flop,
every turn, river and Dealer hand, trying both answers at every decision (fold or play; bet or
check on the flop; bet or check on the turn) and keeping the better one, with no assumption about
how the bets interact. The engine (suit isomorphism, inclusion-exclusion counts, independent
bets) must give the same value, the same decisions and the same figures, exactly.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from casino_holdem.compliance.isomorphism import FLOP_CLASSES, Deck, canonical_flops, canonicalize, permute_cards
from casino_holdem.compliance.optimal import MainRules, Solution, solve
from casino_holdem.compliance.optimal_strategy import Optimal
from casino_holdem.compliance.play_figures import figures
from casino_holdem.compliance.vector import class_label, hole_classes
from casino_holdem.core.evaluator import Category, categories_batch, evaluate_batch

STRAIGHT = MainRules(Category.STRAIGHT, 1, 1, 1, 1)
FLUSH = MainRules(Category.FLUSH, 1, 1, 1, 1)
#: a paytable with other odds, so that every figure is seen to come from the rules given
GENEROUS = MainRules(Category.STRAIGHT, 2, 1, 3, 2)

A2345 = Deck((0, 1, 2, 3, 12), 2)  # two suits: wheel straights, flushes (a whole suit)
A23459 = Deck((0, 1, 2, 3, 7, 12), 2)  # two suits: plain flushes and straights too
THREE_SUITS = Deck((0, 1, 2, 3), 3)  # three suits: the isomorphism with a spare suit
CASES = {
    "A2345-straight": (A2345, STRAIGHT),
    "A2345-flush": (A2345, FLUSH),
    "A2345-other-odds": (A2345, GENEROUS),
    "A23459-straight": (A23459, STRAIGHT),
    "A23459-flush": (A23459, FLUSH),
    "three-suits-other-odds": (THREE_SUITS, GENEROUS),
}


class GameTree:
    """Backward induction over the full game tree of one deck, written from R2/R3 alone."""

    def __init__(self, deck: Deck, rules: MainRules) -> None:
        self.cards = [int(card) for card in deck.cards]
        self.rules = rules
        self.turn_bet: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}
        self.river_bet: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}

    def net(
        self, win: np.ndarray, lose: np.ndarray, qualified: np.ndarray, turn_bet: int, river_bet: int
    ) -> np.ndarray:
        """R3 for every deal: Ante 1 (its odds only with the qualifier), Flop bet 2, the others 1."""
        rules = self.rules
        gain = np.where(qualified, rules.ante, 0) + 2 * rules.flop + turn_bet * rules.turn + river_bet * rules.river
        return np.where(win, gain, np.where(lose, -(3 + turn_bet + river_bet), 0)).astype(np.int64)

    def play(self, hole: tuple[int, int]) -> Fraction:
        """Expected result of making the Flop bet with ``hole`` and then playing best."""
        left = [card for card in self.cards if card not in hole]
        values = [
            self.flop_node(hole, flop, [card for card in left if card not in flop])
            for flop in itertools.combinations(left, 3)
        ]
        return sum(values, Fraction(0)) / len(values)

    def flop_node(self, hole: tuple[int, int], flop: tuple[int, ...], after: list[int]) -> Fraction:
        deals = np.array(
            [
                (turn, river, *dealer)
                for turn in after
                for river in after
                if river != turn
                for dealer in itertools.combinations([c for c in after if c not in (turn, river)], 2)
            ]
        )
        board = np.concatenate([np.tile(flop, (len(deals), 1)), deals[:, :2]], axis=1)
        player = evaluate_batch(np.concatenate([np.tile(hole, (len(deals), 1)), board], axis=1))
        dealer = evaluate_batch(np.concatenate([deals[:, 2:], board], axis=1))
        qualified = categories_batch(player) >= int(self.rules.qualifier)
        shape = (len(after), len(deals) // len(after))  # (turn card, river x Dealer hand)
        win, lose, qualified = (
            (player > dealer).reshape(shape),
            (player < dealer).reshape(shape),
            qualified.reshape(shape),
        )
        # every deal of a node is equally likely, so sums compare as the expected values do
        best: dict[int, int] = {}
        river_bets: dict[int, np.ndarray] = {}
        for turn_bet in (0, 1):
            check, bet = (self.net(win, lose, qualified, turn_bet, river_bet).sum(axis=1) for river_bet in (0, 1))
            river_bets[turn_bet] = bet > check
            best[turn_bet] = int(np.maximum(check, bet).sum())
        chosen = int(best[1] > best[0])
        self.turn_bet[hole, flop] = bool(chosen)
        for turn, river_bet in zip(after, river_bets[chosen], strict=True):
            self.river_bet[hole, (*flop, turn)] = bool(river_bet)
        return Fraction(best[chosen], len(deals))

    def value(self) -> tuple[Fraction, dict[str, Fraction]]:
        """The game's value per hand (a fold scores −1) and each class's value of playing."""
        plays = {hole: self.play(hole) for hole in itertools.combinations(self.cards, 2)}
        by_class: dict[str, list[Fraction]] = {}
        for hole, value in plays.items():
            by_class.setdefault(class_label(int(hole_classes(np.array([hole]))[0])), []).append(value)
        total = sum((max(value, Fraction(-1)) for value in plays.values()), Fraction(0))
        return total / len(plays), {label: sum(values, Fraction(0)) / len(values) for label, values in by_class.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_r2_r3_optimal_value_equals_game_tree_search(case: str) -> None:
    deck, rules = CASES[case]
    tree = GameTree(deck, rules)
    value, by_class = tree.value()
    solution = solve(deck, rules, workers=1)
    result = figures(solution)
    assert result.net_per_ante == value
    assert {label: ev for label, ev, _ in result.starting_hands()} == by_class
    assert {label for label, ev, played in result.starting_hands() if not played} == {
        label for label, ev in by_class.items() if ev <= -1
    }
    _check_decisions(solution, tree)


def _check_decisions(solution: Solution, tree: GameTree) -> None:
    """Every flop and turn decision the tree took (for a played hand) is the lookup's answer, in
    the flop's own suits: the canonicalisation, the holding and turn indexing all agree."""
    strategy = Optimal(solution=solution)
    rows = list(tree.turn_bet)
    holes = np.array([hole for hole, _ in rows], np.uint8)
    flops = np.array([flop for _, flop in rows], np.uint8)
    assert strategy.flop(holes, flops).tolist() == [tree.turn_bet[row] for row in rows]
    rows = list(tree.river_bet)
    holes = np.array([hole for hole, _ in rows], np.uint8)
    boards = np.array([board for _, board in rows], np.uint8)
    assert strategy.turn(holes, boards, np.zeros(len(rows), bool)).tolist() == [tree.river_bet[row] for row in rows]


def test_r7_flop_classes_cover_every_flop_once() -> None:
    deck = Deck.full()
    flops = deck.cards[np.array(list(itertools.combinations(range(52), 3)))]
    index, permutation = canonicalize(flops, deck)
    representatives, weights = canonical_flops(deck)
    assert len(representatives) == FLOP_CLASSES and int(weights.sum()) == comb(52, 3)
    assert np.array_equal(np.sort(permute_cards(flops, permutation), axis=1), representatives[index])
    assert np.array_equal(np.bincount(index, minlength=len(weights)), weights)
