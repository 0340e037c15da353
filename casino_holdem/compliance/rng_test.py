"""Statistical checks of the play shuffle (R1: "shuffled before every round").

The shuffle under test is :func:`casino_holdem.core.shuffle.secure_shuffle` (the CSPRNG
Fisher–Yates used at the tables); any function returning a 52-card deck can be checked the same way.
Three chi-square tests, each against what a uniformly random permutation gives:

1. **Card × position** — how often each card lands in each of the 52 positions (52 × 52 counts,
   N/52 expected each). A deck is a permutation, so every row and column of the table sums to N
   exactly; the statistic Σ(O-E)²/E is then (52/51) × χ² with 51² degrees of freedom (the
   covariance of a random permutation matrix is (Q ⊗ Q)/(n-1) with Q the centring matrix), and the
   test uses Σ(O-E)²/E × 51/52 against χ²(2601).
2. **Adjacent pairs** — how often card b directly follows card a, pooled over the 51 adjacent
   positions of every deck (52 × 51 ordered pairs, N/52 expected each). The counts of one deck are
   dependent (a card has at most one successor), so the statistic is compared with a scaled
   chi-square g·χ²(h) matching its exact null mean and variance (Satterthwaite), computed from the
   exact covariances of adjacency indicators in a random permutation.
3. **First five cards** — the category (R7) of the first five cards of each deck against the exact
   category frequencies of all C(52,5) hands; categories expected fewer than 5 times are merged
   into the next lower category.

Significance: the three p-values are judged together at a family-wise level ``alpha`` (default
0.001) with the Bonferroni correction, i.e. each at ``alpha / 3``; the shuffle passes when every
p-value is at least that. A correct shuffle therefore fails one run in a thousand by chance.

Runtime: :func:`secure_shuffle` is pure Python (51 CSPRNG draws per deck), roughly 10,000 to
15,000 decks a second on this 2-core machine; the statistics take well under a second (plus about
a second, once per process, to build the evaluator's tables and count all C(52,5) hands). The
default 20,000 shuffles take 2.5 to 4 seconds in all and already detect, e.g., the naive
swap-with-any-position shuffle by orders of magnitude.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.cards import DECK_SIZE, Card
from ..core.evaluator import Category, categories_batch, evaluate_batch
from ..core.shuffle import secure_shuffle
from .vector import combinations

DEFAULT_SHUFFLES = 20_000
DEFAULT_ALPHA = 0.001
MIN_EXPECTED = 5.0


@dataclass(frozen=True)
class ChiSquare:
    name: str
    statistic: float
    degrees_of_freedom: float
    p_value: float
    cells: int
    detail: str


@dataclass(frozen=True)
class RngReport:
    shuffles: int
    alpha: float
    tests: tuple[ChiSquare, ...]
    seconds: float

    @property
    def threshold(self) -> float:
        """Bonferroni: each test at alpha / number of tests."""
        return self.alpha / len(self.tests)

    @property
    def passed(self) -> bool:
        return all(test.p_value >= self.threshold for test in self.tests)

    def as_json(self) -> dict[str, Any]:
        return {"shuffles": self.shuffles, "alpha": self.alpha, "per_test_threshold": self.threshold,
                "passed": self.passed, "seconds": self.seconds,
                "tests": [{"name": t.name, "statistic": t.statistic, "degrees_of_freedom": t.degrees_of_freedom,
                           "p_value": t.p_value, "cells": t.cells, "detail": t.detail,
                           "passed": t.p_value >= self.threshold} for t in self.tests]}

    def as_text(self) -> str:
        lines = [(f"{self.shuffles:,} shuffles in {self.seconds:.1f} s; family-wise alpha {self.alpha} "
                  f"(Bonferroni: each test at {self.threshold:.3g})")]
        for test in self.tests:
            verdict = "ok" if test.p_value >= self.threshold else "FAIL"
            lines.append(f"  {verdict:4} {test.name}: chi2 {test.statistic:,.1f}, df {test.degrees_of_freedom:,.1f}, "
                         f"p = {test.p_value:.4g} ({test.detail})")
        lines.append(("PASS" if self.passed else "FAIL") + f": the shuffle {'shows no' if self.passed else 'shows a'} "
                     "departure from a uniform random permutation at this level")
        return "\n".join(lines)


def shuffle_decks(count: int, shuffle: Callable[[], Sequence[Card]] = secure_shuffle) -> npt.NDArray[np.uint8]:
    """(count, 52) card ids of ``count`` decks from ``shuffle``."""
    decks = np.empty((count, DECK_SIZE), np.uint8)
    for row in range(count):
        decks[row] = [card.id for card in shuffle()]
    return decks


def _chi2() -> Any:
    """scipy.stats, imported when a test runs so the rest of the CLI works without scipy."""
    from scipy import stats

    return stats


def position_test(decks: npt.NDArray[np.uint8]) -> ChiSquare:
    """Test 1: every card equally likely in every position."""
    count, n = decks.shape
    observed = np.bincount((decks.astype(np.int64) * n + np.arange(n)).ravel(), minlength=n * n)
    expected = count / n
    statistic = float(((observed - expected) ** 2).sum() / expected) * (n - 1) / n
    df = (n - 1) ** 2
    return ChiSquare("card x position", statistic, df, float(_chi2().chi2.sf(statistic, df)), n * n,
                     f"{n}x{n} counts, {expected:.1f} expected each")


def adjacency_null(n: int = DECK_SIZE) -> tuple[float, float]:
    """Mean and variance of the adjacent-pair statistic for a uniform permutation of n cards.

    Per deck, X_ab = 1 when b directly follows a: P = 1/n. Two different pairs that cannot both
    occur (same first card, same second card, or b→a against a→b: 2n-3 of them) have covariance
    -1/n²; every other pair (both can occur, as two blocks or a chain a→b→c: P = 1/(n(n-1)))
    has 1/(n²(n-1)). With Z = (O-E)/√E and E = N/n, Cov(Z) = n·C, so the statistic ΣZ² has mean
    n·tr(C) = (n-1)² and, for large N, variance 2·Σ(n·C)²."""
    variance = (n - 1) / n**2
    conflicting, other = -1 / n**2, 1 / (n**2 * (n - 1))
    per_cell = variance**2 + (2 * n - 3) * conflicting**2 + (n - 1) * (n - 2) * other**2
    return float((n - 1) ** 2), 2 * n**2 * n * (n - 1) * per_cell


def adjacency_test(decks: npt.NDArray[np.uint8]) -> ChiSquare:
    """Test 2: every ordered pair of different cards equally likely to be adjacent."""
    count, n = decks.shape
    pairs = decks[:, :-1].astype(np.int64) * n + decks[:, 1:]
    observed = np.bincount(pairs.ravel(), minlength=n * n).reshape(n, n)[~np.eye(n, dtype=bool)]
    expected = count * (n - 1) / observed.size
    statistic = float(((observed - expected) ** 2).sum() / expected)
    mean, variance = adjacency_null(n)
    scale, df = variance / (2 * mean), 2 * mean**2 / variance
    return ChiSquare("adjacent pairs", statistic, df, float(_chi2().chi2.sf(statistic / scale, df)), observed.size,
                     f"{observed.size} ordered pairs, {expected:.1f} expected each; null {scale:.4f} x chi2({df:.1f})")


@lru_cache(maxsize=1)
def five_card_frequencies() -> tuple[int, ...]:
    """How many of the C(52,5) five-card hands fall in each category (R7), by evaluation."""
    categories = categories_batch(evaluate_batch(combinations(52, 5)))
    return tuple(int(n) for n in np.bincount(categories, minlength=len(Category)))


def category_test(decks: npt.NDArray[np.uint8]) -> ChiSquare:
    """Test 3: the first five cards' categories at their exact frequencies."""
    count = len(decks)
    observed = np.bincount(categories_batch(evaluate_batch(decks[:, :5])), minlength=len(Category))
    frequencies = np.array(five_card_frequencies(), np.float64)
    expected = count * frequencies / frequencies.sum()
    groups: list[list[int]] = []
    pending: list[int] = []
    for category in reversed(range(len(Category))):       # merge rare top categories downwards
        pending.append(category)
        if expected[pending].sum() >= MIN_EXPECTED:
            groups.append(pending)
            pending = []
    if pending:
        groups[-1].extend(pending)
    obs = np.array([observed[g].sum() for g in groups], np.float64)
    exp = np.array([expected[g].sum() for g in groups])
    result = _chi2().chisquare(obs, exp)
    names = ", ".join(Category(min(g)).slug + (f"..{Category(max(g)).slug}" if len(g) > 1 else "")
                      for g in reversed(groups))
    return ChiSquare("first five cards' categories", float(result.statistic), len(groups) - 1,
                     float(result.pvalue), len(groups), f"groups {names}")


def rng_test(decks: npt.NDArray[np.uint8], *, alpha: float = DEFAULT_ALPHA, seconds: float = 0.0) -> RngReport:
    """All three tests on given decks."""
    started = time.perf_counter()
    tests = (position_test(decks), adjacency_test(decks), category_test(decks))
    return RngReport(len(decks), alpha, tests, seconds + time.perf_counter() - started)


def run(shuffles: int = DEFAULT_SHUFFLES, *, alpha: float = DEFAULT_ALPHA,
        shuffle: Callable[[], Sequence[Card]] = secure_shuffle) -> RngReport:
    """Shuffle ``shuffles`` decks and test them."""
    started = time.perf_counter()
    decks = shuffle_decks(shuffles, shuffle)
    return rng_test(decks, alpha=alpha, seconds=time.perf_counter() - started)
