"""The exact optimal strategy of the main game (R2, R3) by enumeration and backward induction.

Why each later bet is its own decision
    The Flop, Turn and River bets (R2.3-R2.5) are all settled on the same final outcome (R3), at
    fixed odds, and no decision changes the cards or another bet's result. So a bet's value is
    its stake times the expected result per unit given what the player sees when placing it,
    and the later bets add up:

    - at the turn (6 cards known), the River bet is made iff its expected result over every river
      card and Dealer hand is positive;
    - at the flop (5 cards known), the Turn bet is made iff its expected result over every turn,
      river and Dealer hand is positive — whatever the River bet will be, which does not change
      the Turn bet's result;
    - before the flop, playing is worth E[Ante] + 2 E[Flop bet] + E[max(0, Turn bet | flop)] +
      E[max(0, River bet | turn)] against −1 for a fold (R2.3), for each of the 169 starting hands.

    A decision whose expected result is exactly zero is taken as a check (or a fold before the
    flop): it changes no return, and it stakes less.

How it is counted
    Every flop class under suit relabelling (:mod:`.isomorphism`) is enumerated once with its
    weight; :mod:`.completions` gives, for each of its holdings and turn cards, the (river,
    Dealer hand) deals won, lost and won with the Ante qualifier. Everything else is integer
    arithmetic on those counts, so every figure is an exact fraction. The same pass scores any
    other suit-blind strategy exactly (its decisions applied to the same counts).

The paytable supplies the odds of the four bets and the Ante qualifier (R3); the stakes are the
rule book's (R2: Ante 1, Flop bet 2, Turn and River bets 1 each).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from math import comb
from multiprocessing import get_context

import numpy as np
import numpy.typing as npt

from ..core.evaluator import Category
from ..core.hand_classes import CLASS_COUNTS
from ..core.paytable import Paytable
from .completions import FlopSums, flop_sums
from .isomorphism import Deck, canonical_flops
from .strategies import Strategy
from .vector import HOLE_CLASSES, combinations, hole_classes

#: R2: the Flop bet is 2 x Ante, the Turn and River bets 1 x Ante each
FLOP_STAKE = 2
#: columns of a tally: the net result of each bet, the sum of squared net results per hand, and
#: how many (holding, flop) situations bet the turn and (holding, flop, turn) ones the river
TALLY = ("ante", "flop", "turn", "river", "square", "turn_bets", "river_bets")
OPTIMAL = "optimal"
_CHUNK = 15


@dataclass(frozen=True)
class MainRules:
    """What of a paytable the main game's value depends on (R3): the odds "N to 1" of each bet
    and the Ante qualifier."""

    qualifier: Category
    ante: int
    flop: int
    turn: int
    river: int

    @classmethod
    def of(cls, paytable: Paytable) -> MainRules:
        main = paytable.main
        return cls(Category(main.ante_qualifier), main.ante, main.flop, main.turn, main.river)

    @property
    def qualifier_strength(self) -> int:
        """The weakest R7 strength with the qualifier (strengths count up from 1 by category)."""
        return 1 + sum(CLASS_COUNTS[: int(self.qualifier)])


@dataclass(frozen=True)
class FlopPlay:
    """One flop's (canonical member's) holdings — the pairs of the cards left, in
    ``combinations(n, 2)`` order — their pre-flop classes, and for each strategy the
    decisions and tally rows (len(holdings), len(TALLY))."""

    classes: npt.NDArray[np.int16]
    turn_bet: dict[str, npt.NDArray[np.bool_]]
    river_bet: dict[str, npt.NDArray[np.bool_]]
    tally: dict[str, npt.NDArray[np.int64]]


def bet_values(sums: FlopSums, rules: MainRules) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Expected results (× the deal count) of the Turn bet per holding and of the River bet per
    (holding, turn): wins pay the odds, losses cost the stake, ties push (R3)."""
    river = rules.river * sums.win - sums.lose
    turn = (rules.turn * sums.win - sums.lose).sum(axis=1)
    return turn, river


def optimal_decisions(sums: FlopSums, rules: MainRules) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """R2.4 / R2.5 at their best: bet exactly when the bet's expected result is positive."""
    turn, river = bet_values(sums, rules)
    return turn > 0, river > 0


def tally(
    sums: FlopSums, rules: MainRules, turn_bet: npt.NDArray[np.bool_], river_bet: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """Per holding, summed over every (turn, river, Dealer hand): the :data:`TALLY` columns for
    a player who made the Flop bet and then bets as told."""
    win, lose, qualified = sums.win, sums.lose, sums.qualified
    turn_value, river_value = bet_values(sums, rules)
    bet_turn = turn_bet.astype(np.int64)[:, None]
    bet_river = river_bet.astype(np.int64)
    # net result of a deal: a win pays the Ante's odds only with the qualifier (else it
    # pushes) plus each made bet's odds; a loss costs every stake; a tie is 0 (R3)
    raised = FLOP_STAKE * rules.flop + rules.turn * bet_turn + rules.river * bet_river
    lost = 1 + FLOP_STAKE + bet_turn + bet_river
    square = qualified * (rules.ante + raised) ** 2 + (win - qualified) * raised**2 + lose * lost**2
    return np.stack(
        [
            (rules.ante * qualified - lose).sum(axis=1),
            FLOP_STAKE * (rules.flop * win - lose).sum(axis=1),
            turn_bet * turn_value,
            (bet_river * river_value).sum(axis=1),
            square.sum(axis=1),
            turn_bet.astype(np.int64),
            bet_river.sum(axis=1),
        ],
        axis=1,
    )


def play_flop(
    deck: Deck, flop: npt.NDArray[np.uint8], rules: MainRules, strategies: Sequence[Strategy] = ()
) -> FlopPlay:
    """The optimal decisions and the tallies of ``optimal`` and of each strategy on one flop."""
    rest = np.setdiff1d(deck.cards, flop).astype(np.uint8)
    n = len(rest)
    sums = flop_sums(flop, rest, rules.qualifier_strength)
    holes = rest[combinations(n, 2)]
    turn_bet, river_bet = {}, {}
    turn_bet[OPTIMAL], river_bet[OPTIMAL] = optimal_decisions(sums, rules)
    if strategies:
        flops = np.broadcast_to(flop, (len(holes), 3))
        holding, turn = _open_cells(n)
        boards = np.concatenate([flops[holding], rest[turn][:, None]], axis=1)
        for strategy in strategies:
            turn_bet[strategy.name] = np.asarray(strategy.flop(holes, flops), bool)
            river = np.zeros((len(holes), n), bool)
            river[holding, turn] = np.asarray(
                strategy.turn(holes[holding], boards, turn_bet[strategy.name][holding]), bool
            )
            river_bet[strategy.name] = river
    tallies = {name: tally(sums, rules, turn_bet[name], river_bet[name]) for name in turn_bet}
    return FlopPlay(hole_classes(holes), turn_bet, river_bet, tallies)


def _open_cells(n: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """(holding, turn) pairs whose turn card is not in the holding."""
    pairs = combinations(n, 2).astype(np.intp)
    holding, turn = np.nonzero((np.arange(n)[None, :] != pairs[:, :1]) & (np.arange(n)[None, :] != pairs[:, 1:]))
    return holding, turn


@dataclass(frozen=True)
class Solution:
    """The whole enumeration for one deck and paytable: per strategy a (169, len(TALLY)) tally
    by pre-flop class (weighted over every flop), and the optimal post-flop decisions of each
    canonical flop's holdings — ``turn_bits`` (flops, holdings) and ``river_bits`` (flops,
    holdings, turn cards) with the turn cards numbered among the cards left after the flop and
    packed eight to a byte (``numpy.packbits``: 15 MB instead of 101 MB on the full deck)."""

    deck: Deck
    rules: MainRules
    tallies: dict[str, npt.NDArray[np.int64]]
    turn_bits: npt.NDArray[np.bool_]
    river_bits: npt.NDArray[np.uint8]
    seconds: float


def _play_chunk(deck: Deck, rules: MainRules, strategies: Sequence[Strategy], indices: Sequence[int]) -> _Chunk:
    flops, weights = canonical_flops(deck)
    totals: dict[str, npt.NDArray[np.int64]] = {}
    turn_bits, river_bits = [], []
    for index in indices:
        play = play_flop(deck, flops[index], rules, strategies)
        for name, rows in play.tally.items():
            total = totals.setdefault(name, np.zeros((HOLE_CLASSES, len(TALLY)), np.int64))
            np.add.at(total, play.classes, rows * weights[index])
        turn_bits.append(play.turn_bet[OPTIMAL])
        river_bits.append(np.packbits(play.river_bet[OPTIMAL], axis=-1))
    return list(indices), totals, np.array(turn_bits), np.array(river_bits)


_Chunk = tuple[list[int], dict[str, npt.NDArray[np.int64]], npt.NDArray[np.bool_], npt.NDArray[np.uint8]]


def solve(
    deck: Deck,
    rules: MainRules,
    strategies: Sequence[Strategy] = (),
    *,
    workers: int = 2,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Enumerate every flop class of ``deck``: the optimal strategy's tally and decisions, and
    the tally of each of ``strategies`` (suit-blind ones: a decision must not depend on suit
    labels). ``workers`` processes share the flops; ``progress(count)`` hears of each chunk."""
    started = time.perf_counter()
    flops, _ = canonical_flops(deck)
    n = deck.size - 3
    chunks = [range(start, min(start + _CHUNK, len(flops))) for start in range(0, len(flops), _CHUNK)]
    totals = {name: np.zeros((HOLE_CLASSES, len(TALLY)), np.int64) for name in (OPTIMAL, *(s.name for s in strategies))}
    turn_bits = np.zeros((len(flops), comb(n, 2)), bool)
    river_bits = np.zeros((len(flops), comb(n, 2), (n + 7) // 8), np.uint8)

    def collect(result: _Chunk) -> None:
        indices, chunk_totals, chunk_turn, chunk_river = result
        for name, total in chunk_totals.items():
            totals[name] += total
        turn_bits[indices], river_bits[indices] = chunk_turn, chunk_river
        if progress is not None:
            progress(len(indices))

    if workers <= 1:
        for chunk in chunks:
            collect(_play_chunk(deck, rules, strategies, chunk))
    else:
        # processes, not threads: the per-flop work is many small numpy steps that hold the GIL
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            futures = [pool.submit(_play_chunk, deck, rules, tuple(strategies), chunk) for chunk in chunks]
            for future in futures:
                collect(future.result())
    return Solution(deck, rules, totals, turn_bits, river_bits, time.perf_counter() - started)
