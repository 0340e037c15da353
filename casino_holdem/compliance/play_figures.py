"""Exact main-game figures of a strategy from the tallies of :func:`.optimal.solve`.

A tally holds, per pre-flop class, sums over every (holding, flop, turn, river, Dealer hand) deal
of a player who made the Flop bet. Dividing by the number of those deals per holding gives the
class's expected results; a class the strategy folds scores −1 instead (R2.3: the Ante is lost).
Every figure is a :class:`~fractions.Fraction` in Ante units per hand dealt, except the standard
deviation (a square root).

Definitions (the usual ones for games with raises)
    - *net per Ante*: the expected result of a hand per unit of Ante; the *house edge* is its
      negative, per Ante;
    - *average total bet*: Ante + Flop bet + Turn bet + River bet, expected per hand;
    - *return to player*: expected amount returned / expected amount staked (all four bets);
    - *element of risk*: house edge / average total bet (= 1 − return to player).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb, sqrt
from typing import Any

import numpy as np
import numpy.typing as npt

from .isomorphism import Deck
from .optimal import FLOP_STAKE, OPTIMAL, TALLY, Solution
from .strategies import Strategy
from .vector import HOLE_CLASSES, class_label, combinations, hole_classes

BETS = ("ante", "flop", "turn", "river")
_COLUMN = {name: index for index, name in enumerate(TALLY)}


class NotSuitBlind(ValueError):
    """A strategy whose pre-flop decision differs between hands equal up to suit labels."""


def class_sizes(deck: Deck) -> npt.NDArray[np.int64]:
    """How many two-card holdings of ``deck`` fall in each of the 169 pre-flop classes."""
    holes = deck.cards[combinations(deck.size, 2)]
    return np.bincount(hole_classes(holes), minlength=HOLE_CLASSES).astype(np.int64)


def preflop_classes(strategy: Strategy, deck: Deck) -> npt.NDArray[np.bool_]:
    """R2.3 per class: whether ``strategy`` makes the Flop bet; refuses one that is not suit-blind."""
    holes = deck.cards[combinations(deck.size, 2)]
    played = np.asarray(strategy.preflop(holes), bool)
    classes = hole_classes(holes)
    result = np.zeros(HOLE_CLASSES, bool)
    for index in np.unique(classes):
        decisions = np.unique(played[classes == index])
        if len(decisions) != 1:
            raise NotSuitBlind(f"strategy {strategy.name}: pre-flop decision differs within {class_label(int(index))}")
        result[index] = decisions[0]
    return result


@dataclass(frozen=True)
class PlayFigures:
    """One strategy's exact main-game figures on ``deck`` (see the module documentation)."""

    strategy: str
    deck: Deck
    tally: npt.NDArray[np.int64]
    played: npt.NDArray[np.bool_]
    sizes: npt.NDArray[np.int64] = field(repr=False)

    @cached_property
    def deals_per_holding(self) -> int:
        """(flop, turn, river, Dealer hand) deals after each holding: C(D-2,3)·(D-5)(D-6)·C(D-7,2)."""
        size = self.deck.size
        return comb(size - 2, 3) * (size - 5) * (size - 6) * comb(size - 7, 2)

    @cached_property
    def hand_count(self) -> int:
        return comb(self.deck.size, 2)

    def _sum(self, column: str, classes: npt.NDArray[np.bool_]) -> int:
        return int(self.tally[classes, _COLUMN[column]].sum())

    def ev_play(self, index: int) -> Fraction:
        """Expected result per Ante of making the Flop bet with a hand of class ``index`` and then
        following the strategy (its ``optimal`` choice for the optimal strategy)."""
        total = sum(int(self.tally[index, _COLUMN[bet]]) for bet in BETS)
        return Fraction(total, int(self.sizes[index]) * self.deals_per_holding)

    def ev(self, index: int) -> Fraction:
        """The class's expected result under the strategy (−1 where it folds, R2.3)."""
        return self.ev_play(index) if self.played[index] else Fraction(-1)

    @cached_property
    def by_bet(self) -> dict[str, tuple[Fraction, Fraction]]:
        """Per bet: (expected stake, expected return) per hand, in Antes."""
        played, hands = self.played, self.hand_count
        folded = int(self.sizes[~played].sum())
        play_hands = int(self.sizes[played].sum())
        situations = comb(self.deck.size - 2, 3)
        staked = {
            "ante": Fraction(1),
            "flop": Fraction(FLOP_STAKE * play_hands, hands),
            "turn": Fraction(self._sum("turn_bets", played), hands * situations),
            "river": Fraction(self._sum("river_bets", played), hands * situations * (self.deck.size - 5)),
        }
        net = {bet: Fraction(self._sum(bet, played), hands * self.deals_per_holding) for bet in BETS}
        net["ante"] -= Fraction(folded, hands)
        return {bet: (staked[bet], staked[bet] + net[bet]) for bet in BETS}

    @cached_property
    def staked(self) -> Fraction:
        """The average total bet per hand, in Antes."""
        return sum((stake for stake, _ in self.by_bet.values()), Fraction(0))

    @cached_property
    def returned(self) -> Fraction:
        return sum((back for _, back in self.by_bet.values()), Fraction(0))

    @property
    def net_per_ante(self) -> Fraction:
        return self.returned - self.staked

    @property
    def house_edge(self) -> Fraction:
        return -self.net_per_ante

    @property
    def rtp(self) -> Fraction:
        return self.returned / self.staked

    @property
    def element_of_risk(self) -> Fraction:
        return self.house_edge / self.staked

    @cached_property
    def variance(self) -> Fraction:
        """Variance of a hand's net result, in Antes squared."""
        folded = int(self.sizes[~self.played].sum())
        second = Fraction(self._sum("square", self.played), self.hand_count * self.deals_per_holding) + Fraction(
            folded, self.hand_count
        )
        return second - self.net_per_ante**2

    @property
    def standard_deviation(self) -> float:
        return sqrt(self.variance)

    @property
    def fold_rate(self) -> Fraction:
        return Fraction(int(self.sizes[~self.played].sum()), self.hand_count)

    @property
    def turn_bet_rate(self) -> Fraction:
        """Share of played hands that make the Turn bet (R2.4) on the flop."""
        return self.by_bet["turn"][0] / (1 - self.fold_rate)

    @property
    def river_bet_rate(self) -> Fraction:
        """Share of played hands that make the River bet (R2.5) on the turn."""
        return self.by_bet["river"][0] / (1 - self.fold_rate)

    def starting_hands(self) -> list[tuple[str, Fraction, bool]]:
        """(class label, expected result of playing it, played?) of every class the deck has."""
        return [
            (class_label(index), self.ev_play(index), bool(self.played[index]))
            for index in range(HOLE_CLASSES)
            if self.sizes[index]
        ]

    def risk_json(self) -> dict[str, Any]:
        """The figures beyond stakes and returns: house edge, element of risk, spread, bet rates."""
        return {
            "house_edge": exact_json(self.house_edge),
            "element_of_risk": exact_json(self.element_of_risk),
            "variance": exact_json(self.variance),
            "standard_deviation": self.standard_deviation,
            "fold_rate": exact_json(self.fold_rate),
            "turn_bet_rate": exact_json(self.turn_bet_rate),
            "river_bet_rate": exact_json(self.river_bet_rate),
        }

    def as_json(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "method": "exact",
            "rtp": exact_json(self.rtp),
            "net_per_ante": exact_json(self.net_per_ante),
            "average_total_bet": exact_json(self.staked),
            **self.risk_json(),
            "by_bet": {
                bet: {"staked": exact_json(s), "returned": exact_json(r)} for bet, (s, r) in self.by_bet.items()
            },
        }

    def summary_lines(self, indent: str = "") -> list[str]:
        """The figures as lines of text (decimals rounded; the exact fractions are in the JSON)."""
        return [
            f"{indent}Main game [exact enumeration, {self.strategy}]: RTP {float(self.rtp):.6f}, house edge "
            f"{float(self.house_edge):.4%} of the Ante (net {float(self.net_per_ante):+.6f} per Ante)",
            f"{indent}  average total bet {float(self.staked):.6f} Antes, "
            f"element of risk {float(self.element_of_risk):.4%}, "
            f"standard deviation {self.standard_deviation:.6f} Antes",
            f"{indent}  folds {float(self.fold_rate):.4%} before the flop; of the hands played, "
            f"{float(self.turn_bet_rate):.2%} make the Turn bet and {float(self.river_bet_rate):.2%} the River bet",
        ]


def exact_json(value: Fraction) -> dict[str, Any]:
    return {"fraction": f"{value.numerator}/{value.denominator}", "decimal": float(value)}


def figures(solution: Solution, strategy: Strategy | None = None) -> PlayFigures:
    """The exact figures of ``strategy`` (scored in ``solution``'s pass), or of the optimal
    strategy when None: it plays exactly the classes whose expected result beats a fold."""
    sizes = class_sizes(solution.deck)
    name = OPTIMAL if strategy is None else strategy.name
    tally = solution.tallies[name]
    if strategy is None:
        trial = PlayFigures(name, solution.deck, tally, sizes > 0, sizes)
        played = np.array([bool(sizes[c]) and trial.ev_play(c) > -1 for c in range(HOLE_CLASSES)])
    else:
        played = preflop_classes(strategy, solution.deck) & (sizes > 0)
    return PlayFigures(name, solution.deck, tally, played, sizes)
