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
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.evaluator import Category
from ..core.paytable import Paytable
from ..core.rules import BONUS_LABELS
from .exact import BOARD_GROUPS, DEALER_HANDS, PAIRS, Enumeration, load_enumeration
from .isomorphism import FLOP_CLASSES, Deck
from .optimal_strategy import exact_main
from .play_figures import NotSuitBlind, PlayFigures, exact_json, preflop_classes  # noqa: F401 (NotSuitBlind: callers catch rtp's)
from .simulate import TableSetup, simulate
from .stats import Estimate, mean_net, return_ratio
from .strategies import Strategy, bind, built_in
from .vector import (
    BONUS_CODES,
    HOLE_CLASSES,
    TEN,
    bonus_codes,
    combinations,
)

HOLES = combinations(52, 2).astype(np.int64)
HOLE_COMBOS = len(HOLES)
DEALER_AFTER_HOLE = comb(50, 2)
STREETS = ("flop", "turn", "river")
P2_LINES = ((Category.STRAIGHT_FLUSH, "straight_flush"), (Category.FOUR_OF_A_KIND, "four_of_a_kind"))
P3_LINES = ((Category.ROYAL_FLUSH, "royal_flush"), (Category.STRAIGHT_FLUSH, "straight_flush"),
            (Category.FOUR_OF_A_KIND, "four_of_a_kind"))
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

@dataclass(frozen=True)
class MainFigures:
    """The main game (Ante, Flop, Turn, River bets) per round, in Ante units, for one strategy.

    Exact (``method == "exact"``): Fractions. Simulated: ``estimates`` hold 95 % intervals."""

    strategy: str
    method: str
    fold_rate: Fraction
    staked: Fraction | float
    returned: Fraction | float
    by_bet: dict[str, tuple[Fraction | float, Fraction | float]]        # bet → (staked, returned)
    rounds: int = 0
    seed: int | None = None
    estimates: dict[str, Estimate] = field(default_factory=dict)
    optimal_pass: PlayFigures | None = None     # figures from the optimal strategy's enumeration

    @classmethod
    def from_optimal_pass(cls, figures: PlayFigures) -> MainFigures:
        return cls(figures.strategy, "exact", figures.fold_rate, figures.staked, figures.returned,
                   dict(figures.by_bet), optimal_pass=figures)

    @property
    def rtp(self) -> Fraction | float:
        return self.returned / self.staked

    @property
    def net_per_ante(self) -> Fraction | float:
        """Expected result of a round per unit of Ante (negative: the house edge on the Ante)."""
        return self.returned - self.staked


def main_exact(paytable: Paytable, enumeration: Enumeration, strategy: Strategy) -> MainFigures:
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
                   progress: Callable[[int], None] | None = None) -> MainFigures:
    """R3 by simulation (for strategies that bet after the flop), with 95 % intervals."""
    currency = "USD" if "USD" in paytable.currencies else next(iter(paytable.currencies))
    setup = TableSetup(paytable, strategy, bonus=Decimal(0), progressive=False, currency=currency)
    run = simulate(setup, rounds, seed, threads=threads, progress=progress)
    ante = run.units.ante
    by_bet = {bet: (run.sums[bet][0] / ante / rounds, run.sums[bet][1] / ante / rounds)
              for bet in ("ante", "flop", "turn", "river")}
    estimates = {"rtp": return_ratio(run.sums["main"], rounds), "net_per_ante": mean_net(run.sums["main"], rounds, ante)}
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
        "p1": {n + 1: p1[street] for n, street in enumerate(STREETS)},
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
    main: MainFigures


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
    solving = {"workers": threads, "use_cache": use_cache, "progress": stage_counter(progress, "optimal strategy", FLOP_CLASSES)}
    for strategy in (list(strategies) if strategies is not None else list(built_in())):
        strategy = bind(strategy, paytable, **solving)
        combos, classes = played_combos(strategy), played_classes(strategy)
        mine_p1, mine_p2 = p1_probabilities(combos), p2_probabilities(enumeration, classes)
        if (exact := exact_main(paytable, strategy, **solving)) is not None:
            main = MainFigures.from_optimal_pass(exact)
        elif strategy.postflop_bets:
            simulation_started = time.perf_counter()
            main = main_simulated(paytable, strategy, rounds, seed, threads=threads,
                                  progress=stage_counter(progress, f"simulating {strategy.name}", rounds))
            simulated += time.perf_counter() - simulation_started
        else:
            main = main_exact(paytable, enumeration, strategy)
        figures.append(StrategyFigures(strategy, Fraction(int((~combos).sum()), HOLE_COMBOS), bonus_figures(paytable, combos),
                                       mine_p1, mine_p2, pool_model(paytable, strategy.name, mine_p1, mine_p2, p3), main))
    timings["exact figures"] = time.perf_counter() - exact_started - simulated
    timings["exact total"] = timings["enumeration"] + timings["exact figures"]
    timings["simulation"] = simulated
    return RtpReport(paytable, bonus_figures(paytable), p1, p2, p3, tuple(figures), enumeration, timings)


# --- output -----------------------------------------------------------------------------------

def number_json(value: Fraction | float) -> Any:
    return exact_json(value) if isinstance(value, Fraction) else value


def _line_json(line: Line, pays_name: str) -> dict[str, Any]:
    return {"line": line.key, "label": line.label, "ways": line.ways, "out_of": line.out_of,
            "probability": exact_json(line.probability), pays_name: number_json(line.pays),
            "return": exact_json(line.value)}


def _optional(value: Fraction | None) -> Any:
    return None if value is None else exact_json(value)


def report_json(report: RtpReport) -> dict[str, Any]:
    rules = report.paytable.progressive
    bonus = report.bonus
    document: dict[str, Any] = {
        "paytable": {**report.paytable.describe(), "title": report.paytable.title},
        "bonus": {"method": "exact (1326 Player hole-card combinations x 1225 Dealer hands)",
                  "lines": [_line_json(line, "returns_per_unit") for line in bonus.lines],
                  "rtp": exact_json(bonus.rtp), "house_edge": exact_json(bonus.house_edge)},
        "progressive": {
            "method": "exact (P1 closed form; P2/P3 by full enumeration)",
            "p1": {street: {"probability": exact_json(p), "share_of_pool": str(rules.p1_share(street))}
                   for street, p in report.p1.items()},
            "p2": {key: {"probability": exact_json(p), "prize": str(getattr(rules, f"p2_{key}"))}
                   for key, p in report.p2.items()},
            "p3": {key: {"probability": exact_json(p), "prize": str(getattr(rules, f"p3_{key}"))}
                   for key, p in report.p3.items()},
            "contribution": str(rules.contribution), "seed": str(rules.seed),
        },
        "strategies": [],
        "seconds": report.seconds,
    }
    for figures in report.strategies:
        pool, main = figures.pool, figures.main
        document["strategies"].append({
            "strategy": figures.strategy.name, "summary": figures.strategy.summary,
            "fold_rate": exact_json(figures.fold_rate),
            "bonus": {"rtp": exact_json(figures.bonus.rtp), "house_edge": exact_json(figures.bonus.house_edge),
                      "paying_hands_folded": figures.bonus.folded_paying},
            "progressive": {
                "p1_paid": {street: exact_json(p) for street, p in figures.p1.items()},
                "p2_paid": {key: exact_json(p) for key, p in figures.p2.items()},
                "expected_fixed_prizes_per_bet": exact_json(pool.fixed),
                "p1_value_per_bet_per_unit_of_pool": exact_json(pool.alpha),
                "value_per_bet": "fixed + p1_coefficient x (pool_before + contribution)",
                "break_even_pool": _optional(pool.break_even_pool),
                "long_run_pool_with_contribution": _optional(pool.long_run_pool),
                "long_run_return": exact_json(pool.long_run_return),
                "seed_top_up_per_round": exact_json(pool.top_up),
                "seed_top_up_method": "exact" if pool.top_up_exact else "approximation",
                "return_at_seed_pool": exact_json(pool.value_at(pool.seed)),
            },
            "main": _main_json(main),
        })
    return document


def _main_json(main: MainFigures) -> dict[str, Any]:
    result: dict[str, Any] = {
        "method": main.method, "staked_per_round_in_antes": number_json(main.staked),
        "returned_per_round_in_antes": number_json(main.returned), "rtp": number_json(main.rtp),
        "net_per_ante": number_json(main.net_per_ante),
        "by_bet": {bet: {"staked": number_json(s), "returned": number_json(r)} for bet, (s, r) in main.by_bet.items()},
    }
    if main.method != "exact":
        result.update(rounds=main.rounds, seed=main.seed,
                      estimates={key: value.as_dict() for key, value in main.estimates.items()})
    if main.optimal_pass is not None:
        result.update(source="optimal strategy enumeration", **main.optimal_pass.risk_json())
    return result


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """Plain-text columns: the first left-aligned, the others right-aligned."""
    cells = [[str(cell) for cell in row] for row in [headers, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
            for row in cells]


def _pct(value: Fraction | float, digits: int = 4) -> str:
    return f"{float(value) * 100:.{digits}f}%"


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def report_text(report: RtpReport) -> str:
    paytable, bonus, rules = report.paytable, report.bonus, report.paytable.progressive
    out = [f"Paytable {paytable.ref} ({paytable.title}), sha256 {paytable.sha256}",
           "Exact figures unless marked [simulated]; fractions are exact, decimals rounded.", "",
           "Bonus bet (R4) — exact: 1326 Player hole-card combinations x 1225 Dealer hands"]
    out += format_table(
        ["line", "pays", "probability", "(fraction)", "return per unit"],
        [[line.label, f"{int(line.pays) - 1} to 1", f"{float(line.probability):.8f}", _frac(line.probability),
          f"{float(line.value):.6f}"] for line in bonus.lines])
    out += [f"Bonus RTP {float(bonus.rtp):.6f} = {_frac(bonus.rtp)}; house edge {_pct(bonus.house_edge)}", "",
            "Progressive (R5) — exact: P1 closed form, P2/P3 over all 2,809,475,760 (board, hole) deals"]
    rows = [[f"P1 royal flush first on the {street}", f"{rules.p1_share(street)} of pool", f"{float(p):.4e}", _frac(p)]
            for street, p in report.p1.items()]
    rows += [[f"P2 {key.replace('_', ' ')} (7 cards, board not P3)", str(getattr(rules, f"p2_{key}")), f"{float(p):.4e}",
              _frac(p)] for key, p in report.p2.items()]
    rows += [[f"P3 board {key.replace('_', ' ')}", str(getattr(rules, f"p3_{key}")), f"{float(p):.4e}", _frac(p)]
             for key, p in report.p3.items()]
    out += format_table(["line", "pays", "probability", "(fraction)"], rows)
    out.append(f"contribution {rules.contribution} per bet into the pool, seed {rules.seed}")
    for figures in report.strategies:
        pool, main = figures.pool, figures.main
        out.append("")
        out.append(f"Strategy {figures.strategy.name}: {figures.strategy.summary}")
        out.append(f"  folds {_pct(figures.fold_rate, 3)} of hands ({_frac(figures.fold_rate)}) before the flop")
        out.append(f"  Bonus RTP {float(figures.bonus.rtp):.6f} (house edge {_pct(figures.bonus.house_edge)}; "
                   f"{figures.bonus.folded_paying} paying combinations folded)")
        out.append(f"  Progressive, one bettor: expected fixed prizes per bet {float(pool.fixed):.6f} "
                   "(P2 only with the Flop bet, P3 always)")
        out.append(f"    P1 value per bet = {float(pool.alpha):.6e} x (pool before + {rules.contribution}); "
                   f"break-even pool {float(pool.break_even_pool or 0):,.0f}")
        if pool.long_run_pool is not None:
            out.append(f"    long-run mean pool (with the round's contribution) {float(pool.long_run_pool):,.0f}; "
                       f"long-run return {_pct(pool.long_run_return, 2)}")
        else:
            out.append("    no steady state: the fixed prizes cost more than the contributions bring")
        out.append(f"    return at the seed pool {float(pool.value_at(pool.seed)):.6f}; seed top-ups per round "
                   f"{float(pool.top_up):.6f} ({'exact' if pool.top_up_exact else 'approximation'})")
        if main.optimal_pass is not None:
            out += main.optimal_pass.summary_lines(indent="  ")
        elif main.method == "exact":
            out.append(f"  Main game [exact enumeration]: RTP {float(main.rtp):.6f} ({_frac(main.rtp)}), "
                       f"net per Ante {float(main.net_per_ante):+.6f}, {float(main.staked):.4f} Antes staked per round")
        else:
            rtp, net = main.estimates["rtp"], main.estimates["net_per_ante"]
            out.append(f"  Main game [simulated, {main.rounds:,} rounds, seed {main.seed}]: RTP {rtp.value:.5f} "
                       f"(95% CI {rtp.low:.5f}..{rtp.high:.5f}), net per Ante {net.value:+.5f} "
                       f"({net.low:+.5f}..{net.high:+.5f}), {float(main.staked):.4f} Antes staked per round")
        out.append("    by bet: " + ", ".join(f"{bet} {float(r) / float(s):.5f}" for bet, (s, r) in main.by_bet.items() if s))
    out += ["", "Runtime: " + ", ".join(f"{key} {value:.1f} s" for key, value in report.seconds.items())]
    return "\n".join(out)
