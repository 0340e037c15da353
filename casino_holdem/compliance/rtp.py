"""Exact return figures of a paytable: the Bonus (R4), the Progressive (R5) and the main game (R3).

Every probability is a :class:`~fractions.Fraction` computed from the cards and every return from
the paytable file, never typed in. Sources:

- **Bonus** (R4): the 1,326 Player hole-card combinations, each classified by its pay line; AA
  against the Dealer's AA also counts the Dealer's C(50,2) = 1,225 hands (one of them is the other
  two aces). A strategy that folds a paying hand loses it (R2.3).
- **Progressive P1** (R5): closed form per hole-card combination. With h hole cards among the
  royal cards of a suit, the board must bring the other m = 5 - h; after k board cards that has
  probability C(50-m, k-m) / C(50, k). The Royal Flush is *first* made on the flop (k = 3), the turn
  (k = 4 but not 3) or the river (k = 5 but not 4). A royal on the board alone (h = 0) is P3's.
  Royals of two suits cannot both be completed (that needs 8 board cards), so suits add up.
- **Progressive P2/P3 and the main game**: the full enumeration of :mod:`.exact` (every board,
  Player hand and Dealer hand), grouped by the Player's pre-flop class.

A strategy's pre-flop decisions are applied per hole-card combination; its main-game return is
exact when it never bets after the flop (``postflop_bets = False``) and otherwise simulated with a
95 % confidence interval (:mod:`.simulate`), and every figure says which.

The pool model (R5), for one bettor per round who always places the Progressive bet
    Let c be the contribution per bet, F the expected fixed prizes (P2 + P3) per round and α the
    expected P1 share per round (Σ over streets of P(P1 on that street and the bettor made the Flop
    bet) × the street's share). With the pool X before a round, the round's expected payout is
    ``F + α (X + c)`` — P1 takes a share of the pool *with* this round's contribution. That is
    also the bet's expected return at pool X (the value of one bet). In the long run the pool's
    mean is stationary: contributions (plus seed top-ups T) equal expected payouts, so the mean
    pool with contributions is ``(c + T - F) / α`` and the bet's long-run return is ``c + T``.
    With a zero seed the pool never needs topping up (prizes are capped at the pool), so T = 0
    exactly; with a seed, T is approximated by assuming the pool stands at its mean when P1 hits.
    The model takes fixed prizes as uncapped, which they are whenever the pool holds more than
    the largest prize — at the long-run pool always.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from ..core.cards import TEN
from ..core.evaluator import Category
from ..core.paytable import P2_HANDS, P3_HANDS, Paytable
from ..core.rules import BONUS_LABELS, MAIN_BETS, STREETS
from .batch_rules import BONUS_CODES, STREET_CODES, bonus_codes
from .exact import BOARD_GROUPS, DEALER_HANDS, PAIRS, Enumeration, load_enumeration
from .isomorphism import FLOP_CLASSES, Deck
from .optimal_strategy import exact_main
from .play_figures import NotSuitBlind as NotSuitBlind  # re-exported: callers catch rtp's
from .play_figures import PlayFigures, preflop_classes
from .simulate import TableSetup, simulate
from .stats import Estimate, mean_net, return_ratio
from .strategies import Strategy, bind, built_in
from .vector import HOLE_CLASSES, combinations

HOLES = combinations(52, 2).astype(np.int64)
HOLE_COMBOS = len(HOLES)
DEALER_AFTER_HOLE = comb(50, 2)
#: R5: the fixed-prize lines of P2 and P3 with their paytable keys
P2_LINES = tuple((hand, hand.slug) for hand in P2_HANDS)
P3_LINES = tuple((hand, hand.slug) for hand in P3_HANDS)
DEFAULT_ROUNDS = 10_000_000


@dataclass(frozen=True)
class Line:
    """One exact pay line: ``ways`` favourable cases out of ``out_of`` equally likely ones, and
    ``pays``: what one unit staked returns when it hits (stake included), a prize in base units,
    or a share of the pool — as the table it belongs to says."""

    key: str
    label: str
    ways: int
    out_of: int
    pays: Fraction

    @property
    def probability(self) -> Fraction:
        return Fraction(self.ways, self.out_of)

    @property
    def value(self) -> Fraction:
        return self.probability * self.pays


# --- strategies before the flop ---------------------------------------------------------------

def played_combos(strategy: Strategy) -> npt.NDArray[np.bool_]:
    """R2.3: whether ``strategy`` makes the Flop bet with each of the 1,326 hole-card combinations."""
    return np.asarray(strategy.preflop(HOLES), bool)


def played_classes(strategy: Strategy) -> npt.NDArray[np.bool_]:
    """The pre-flop decision per class (169); refuses a strategy that is not suit-blind."""
    return preflop_classes(strategy, Deck.full())


# --- R4: the Bonus ----------------------------------------------------------------------------

@dataclass(frozen=True)
class BonusFigures:
    lines: tuple[Line, ...]
    folded_paying: int          # paying hole-card combinations the strategy folds (R2.3 loses them)

    @property
    def rtp(self) -> Fraction:
        return sum((line.value for line in self.lines), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.rtp


def bonus_figures(paytable: Paytable, played: npt.NDArray[np.bool_] | None = None) -> BonusFigures:
    """R4 exactly: every line's probability over (Player hole cards, Dealer hole cards) and return
    per unit Bonus; ``played`` (per hole combination) removes the hands a strategy folds."""
    live = np.ones(HOLE_COMBOS, bool) if played is None else played
    codes = bonus_codes(HOLES)                    # without the Dealer's cards AA is plain AA
    out_of = HOLE_COMBOS * DEALER_AFTER_HOLE
    aces = int((live & (codes == BONUS_CODES.index("aa"))).sum())
    lines = []
    for code, key in enumerate(BONUS_CODES):
        if key is None:
            continue
        if key == "aa_vs_dealer_aa":
            ways = aces * 1                        # the Dealer holds the other two aces
        elif key == "aa":
            ways = aces * (DEALER_AFTER_HOLE - 1)
        else:
            ways = int((live & (codes == code)).sum()) * DEALER_AFTER_HOLE
        lines.append(Line(key, BONUS_LABELS[key], ways, out_of, Fraction(paytable.bonus.odds(key) + 1)))
    return BonusFigures(tuple(lines), int((~live & (codes > 0)).sum()))


# --- R5: the Progressive ----------------------------------------------------------------------

def royal_chances(hole: Sequence[int]) -> tuple[Fraction, Fraction, Fraction]:
    """R5 P1: the probability that the Player's Royal Flush is first made on the flop, the turn or
    the river, given the two hole cards (closed form, see the module documentation)."""
    chances = [Fraction(0)] * 3
    for suit in range(4):
        held = sum(1 for card in hole if card & 3 == suit and card >> 2 >= TEN)
        if not held:
            continue                               # a royal without a hole card is P3's
        need = 5 - held
        seen = [Fraction(comb(50 - need, k - need), comb(50, k)) if k >= need else Fraction(0) for k in (3, 4, 5)]
        chances[0] += seen[0]
        chances[1] += seen[1] - seen[0]
        chances[2] += seen[2] - seen[1]
    return chances[0], chances[1], chances[2]


@lru_cache(maxsize=1)
def _royal_table() -> tuple[tuple[Fraction, Fraction, Fraction], ...]:
    return tuple(royal_chances(tuple(int(card) for card in hole)) for hole in HOLES)


def p1_probabilities(played: npt.NDArray[np.bool_] | None = None) -> dict[str, Fraction]:
    """P(the Royal Flush is first made on each street [and the bettor made the Flop bet])."""
    table = _royal_table()
    live = np.ones(HOLE_COMBOS, bool) if played is None else played
    return {street: sum((table[i][n] for i in np.flatnonzero(live)), Fraction(0)) / HOLE_COMBOS
            for n, street in enumerate(STREETS)}


def p2_probabilities(enumeration: Enumeration, played: npt.NDArray[np.bool_] | None = None) -> dict[str, Fraction]:
    """R5 P2 [and the Flop bet made]: straight flush / four of a kind on 7 cards while the board
    alone qualifies for nothing (no double payment); ``played`` is per class."""
    live = np.ones(HOLE_CLASSES, bool) if played is None else played
    return {key: Fraction(int(enumeration.joint[live, category, 0].sum()), PAIRS) for category, key in P2_LINES}


def p3_probabilities(enumeration: Enumeration) -> dict[str, Fraction]:
    """R5 P3: the board alone is a royal flush, a straight flush or four of a kind."""
    return {key: Fraction(int(enumeration.joint[:, :, BOARD_GROUPS.index(key)].sum()), PAIRS) for _, key in P3_LINES}


@dataclass(frozen=True)
class PoolModel:
    """The one-bettor pool model of the module documentation, for one strategy."""

    strategy: str
    fixed: Fraction            # F: expected P2 + P3 prizes per round (base units)
    alpha: Fraction            # α: expected P1 share of the pool per round
    contribution: Fraction     # c
    seed: Fraction
    top_up: Fraction           # T per round (0 exactly when the seed is 0)
    top_up_exact: bool

    def value_at(self, pool: Fraction) -> Fraction:
        """Expected return of one Progressive bet when the pool stands at ``pool`` before it."""
        return self.fixed + self.alpha * (pool + self.contribution)

    @property
    def break_even_pool(self) -> Fraction | None:
        """The pool before a bet above which the bet returns more than it costs (1 base unit)."""
        return (1 - self.fixed) / self.alpha - self.contribution if self.alpha else None

    @property
    def long_run_pool(self) -> Fraction | None:
        """Mean pool with the round's contributions at the stationary state (None: no steady state,
        the fixed prizes alone cost more than the contributions bring)."""
        surplus = self.contribution + self.top_up - self.fixed
        return surplus / self.alpha if self.alpha and surplus > 0 else None

    @property
    def long_run_return(self) -> Fraction:
        return self.contribution + self.top_up


def pool_model(paytable: Paytable, name: str, p1: dict[str, Fraction], p2: dict[str, Fraction],
               p3: dict[str, Fraction]) -> PoolModel:
    rules = paytable.progressive
    fixed = (sum((p2[key] * Fraction(getattr(rules, f"p2_{key}")) for _, key in P2_LINES), Fraction(0))
             + sum((p3[key] * Fraction(getattr(rules, f"p3_{key}")) for _, key in P3_LINES), Fraction(0)))
    shares = {street: Fraction(rules.p1_share(street)) for street in STREETS}
    alpha = sum((p1[street] * shares[street] for street in STREETS), Fraction(0))
    contribution, seed = Fraction(rules.contribution), Fraction(rules.seed)
    top_up = Fraction(0)
    if seed > 0 and alpha > 0:
        # T ≈ Σ P(P1 on s) × max(0, seed − (1 − share_s) × mean pool), solved as a fixed point
        for _ in range(50):
            mean = max((contribution + top_up - fixed) / alpha, Fraction(0))
            top_up = sum((p1[s] * max(Fraction(0), seed - (1 - shares[s]) * mean) for s in STREETS), Fraction(0))
            top_up = top_up.limit_denominator(10**18)
    return PoolModel(name, fixed, alpha, contribution, seed, top_up, top_up_exact=seed == 0)


# --- R3: the main game ------------------------------------------------------------------------

#: a main-game figure: a Fraction when exact, a float when simulated
Figure = TypeVar("Figure", Fraction, float)


@dataclass(frozen=True)
class MainFigures(Generic[Figure]):
    """The main game (Ante, Flop, Turn, River bets) per round, in Ante units, for one strategy.

    Exact (``method == "exact"``): Fractions. Simulated: ``estimates`` hold 95 % intervals."""

    strategy: str
    method: str
    fold_rate: Fraction
    staked: Figure
    returned: Figure
    by_bet: dict[str, tuple[Figure, Figure]]        # bet → (staked, returned)
    rounds: int = 0
    seed: int | None = None
    estimates: dict[str, Estimate] = field(default_factory=dict)
    optimal_pass: PlayFigures | None = None     # figures from the optimal strategy's enumeration

    @staticmethod
    def from_optimal_pass(figures: PlayFigures) -> MainFigures[Fraction]:
        return MainFigures(figures.strategy, "exact", figures.fold_rate, figures.staked, figures.returned,
                           dict(figures.by_bet), optimal_pass=figures)

    @property
    def rtp(self) -> Figure:
        return self.returned / self.staked

    @property
    def net_per_ante(self) -> Figure:
        """Expected result of a round per unit of Ante (negative: the house edge on the Ante)."""
        return self.returned - self.staked


def main_exact(paytable: Paytable, enumeration: Enumeration, strategy: Strategy) -> MainFigures[Fraction]:
    """R3 by enumeration for a strategy that never bets after the flop: every (board, Player hand,
    Dealer hand), the Ante winning 1:1 with the qualifier or better and pushing below it, the Flop
    bet (2 × Ante) 1:1, ties pushing, a fold losing the Ante."""
    played = played_classes(strategy)
    deals = PAIRS * DEALER_HANDS
    main = paytable.main
    qualifier = int(main.ante_qualifier)
    wins, ties, losses = enumeration.wins[played], enumeration.ties[played], enumeration.losses[played]
    ante_returned = (int(wins[:, qualifier:].sum()) * (main.ante + 1) + int(wins[:, :qualifier].sum())
                     + int(ties.sum()))
    flop_returned = 2 * (int(wins.sum()) * (main.flop + 1) + int(ties.sum()))
    played_deals = int(wins.sum() + ties.sum() + losses.sum())
    by_bet = {"ante": (Fraction(1), Fraction(ante_returned, deals)),
              "flop": (Fraction(2 * played_deals, deals), Fraction(flop_returned, deals))}
    return MainFigures(strategy.name, "exact", Fraction(deals - played_deals, deals),
                       sum((s for s, _ in by_bet.values()), Fraction(0)),
                       sum((r for _, r in by_bet.values()), Fraction(0)), by_bet)


def main_simulated(paytable: Paytable, strategy: Strategy, rounds: int, seed: int, *, threads: int = 2,
                   progress: Callable[[int], None] | None = None) -> MainFigures[float]:
    """R3 by simulation (for strategies that bet after the flop), with 95 % intervals."""
    currency = "USD" if "USD" in paytable.currencies else next(iter(paytable.currencies))
    setup = TableSetup(paytable, strategy, bonus=Decimal(0), progressive=False, currency=currency)
    run = simulate(setup, rounds, seed, threads=threads, progress=progress)
    ante = run.units.ante
    by_bet = {bet: (run.sums[bet][0] / ante / rounds, run.sums[bet][1] / ante / rounds) for bet in MAIN_BETS}
    estimates = {"rtp": return_ratio(run.sums["main"], rounds),
                 "net_per_ante": mean_net(run.sums["main"], rounds, ante)}
    fold_rate = Fraction(int((~played_combos(strategy)).sum()), HOLE_COMBOS)
    return MainFigures(strategy.name, "simulation", fold_rate, run.sums["main"][0] / ante / rounds,
                       run.sums["main"][1] / ante / rounds, by_bet, rounds, seed,
                       {key: value for key, value in estimates.items() if value is not None})


# --- references for the simulator -------------------------------------------------------------

def reference_probabilities(enumeration: Enumeration, paytable: Paytable) -> dict[str, dict[int, Fraction]]:
    """Exact hand-level probabilities of everything :func:`.simulate.play_chunk` counts, keyed
    like its ``counts`` arrays (index → probability)."""
    deals = PAIRS * DEALER_HANDS
    qualifier = int(paytable.main.ante_qualifier)
    bonus = {code: line.probability for code, line in enumerate(bonus_figures(paytable).lines, start=1)}
    bonus[0] = 1 - sum(bonus.values(), Fraction(0))
    p1, p2, p3 = p1_probabilities(), p2_probabilities(enumeration), p3_probabilities(enumeration)
    return {
        "bonus": bonus,
        "outcome": {0: Fraction(int(enumeration.wins.sum()), deals), 1: Fraction(int(enumeration.ties.sum()), deals),
                    2: Fraction(int(enumeration.losses.sum()), deals),
                    3: Fraction(int(enumeration.wins[:, qualifier:].sum()), deals)},
        "category": {int(c): Fraction(int(enumeration.joint[:, int(c), :].sum()), PAIRS) for c in Category},
        "p1": {STREET_CODES.index(street): p1[street] for street in STREETS},
        "p2": {int(category): p2[key] for category, key in P2_LINES},
        "p3": {int(category): p3[key] for category, key in P3_LINES},
    }


# --- the whole report -------------------------------------------------------------------------

@dataclass(frozen=True)
class StrategyFigures:
    strategy: Strategy
    fold_rate: Fraction
    bonus: BonusFigures
    p1: dict[str, Fraction]
    p2: dict[str, Fraction]
    pool: PoolModel
    main: MainFigures[Fraction] | MainFigures[float]


@dataclass(frozen=True)
class RtpReport:
    paytable: Paytable
    bonus: BonusFigures
    p1: dict[str, Fraction]
    p2: dict[str, Fraction]
    p3: dict[str, Fraction]
    strategies: tuple[StrategyFigures, ...]
    enumeration: Enumeration
    seconds: dict[str, float]


def stage_counter(progress: Callable[[str, int, int], None] | None, stage: str,
                  total: int) -> Callable[[int], None]:
    """A ``progress(count)`` callback that adds counts up and reports ``(stage, done, total)``."""
    done = 0

    def advance(count: int) -> None:
        nonlocal done
        done += count
        if progress is not None:
            progress(stage, done, total)
    return advance


def compute(paytable: Paytable, strategies: Iterable[Strategy] | None = None, *, rounds: int = DEFAULT_ROUNDS,
            seed: int = 1, threads: int = 2, use_cache: bool = True,
            progress: Callable[[str, int, int], None] | None = None) -> RtpReport:
    """Every figure of ``casino-holdem rtp``. ``progress(stage, done, total)`` is told how the
    enumeration and the simulations advance."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    enumeration = load_enumeration(use_cache=use_cache, threads=threads,
                                   progress=stage_counter(progress, "enumeration", 134_459))
    timings["enumeration"] = time.perf_counter() - started
    exact_started = time.perf_counter()
    p1, p2, p3 = p1_probabilities(), p2_probabilities(enumeration), p3_probabilities(enumeration)
    figures = []
    simulated = 0.0
    solving: dict[str, Any] = {"workers": threads, "use_cache": use_cache,
                               "progress": stage_counter(progress, "optimal strategy", FLOP_CLASSES)}
    for strategy in (list(strategies) if strategies is not None else list(built_in())):
        strategy = bind(strategy, paytable, **solving)
        combos, classes = played_combos(strategy), played_classes(strategy)
        mine_p1, mine_p2 = p1_probabilities(combos), p2_probabilities(enumeration, classes)
        main: MainFigures[Fraction] | MainFigures[float]
        if (exact := exact_main(paytable, strategy, **solving)) is not None:
            main = MainFigures.from_optimal_pass(exact)
        elif strategy.postflop_bets:
            simulation_started = time.perf_counter()
            main = main_simulated(paytable, strategy, rounds, seed, threads=threads,
                                  progress=stage_counter(progress, f"simulating {strategy.name}", rounds))
            simulated += time.perf_counter() - simulation_started
        else:
            main = main_exact(paytable, enumeration, strategy)
        fold_rate = Fraction(int((~combos).sum()), HOLE_COMBOS)
        figures.append(StrategyFigures(strategy, fold_rate, bonus_figures(paytable, combos), mine_p1, mine_p2,
                                       pool_model(paytable, strategy.name, mine_p1, mine_p2, p3), main))
    timings["exact figures"] = time.perf_counter() - exact_started - simulated
    timings["exact total"] = timings["enumeration"] + timings["exact figures"]
    timings["simulation"] = simulated
    return RtpReport(paytable, bonus_figures(paytable), p1, p2, p3, tuple(figures), enumeration, timings)
