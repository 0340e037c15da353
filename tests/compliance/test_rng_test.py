"""rng-test (compliance/rng_test.py): it passes the play shuffle and fails biased ones."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import numpy as np
import pytest

from casino_holdem.compliance import rng_test
from casino_holdem.core.cards import FULL_DECK, Card
from casino_holdem.core.shuffle import fisher_yates


def naive_shuffle(seed: int) -> Callable[[], tuple[Card, ...]]:
    """The classic mistake: swap every position with *any* position (n^n paths, n! outcomes)."""
    rnd = random.Random(seed)

    def shuffle() -> tuple[Card, ...]:
        deck = list(FULL_DECK)
        for i in range(len(deck)):
            j = rnd.randrange(len(deck))
            deck[i], deck[j] = deck[j], deck[i]
        return tuple(deck)
    return shuffle


def sattolo_shuffle(seed: int) -> Callable[[], tuple[Card, ...]]:
    """An off-by-one Fisher–Yates (j < i): only cyclic permutations, no card stays in place."""
    rnd = random.Random(seed)
    return lambda: fisher_yates(lambda n: rnd.randrange(n - 1))


def test_the_play_shuffle_passes() -> None:
    # a correct shuffle fails one run in a thousand (alpha 0.001); one retry makes that 1e-6
    reports = [rng_test.run(6_000) for _ in range(2)]
    assert any(report.passed for report in reports), reports[0].as_text()


@pytest.mark.parametrize("shuffle, failing", [
    (naive_shuffle(1), "card x position"),
    (sattolo_shuffle(2), "card x position"),
    (lambda: FULL_DECK, "adjacent pairs"),
])
def test_biased_shuffles_fail(shuffle: Callable[[], tuple[Card, ...]], failing: str) -> None:
    report = rng_test.run(20_000 if shuffle is not FULL_DECK else 500, shuffle=shuffle)
    assert not report.passed
    assert {test.name: test.p_value < report.threshold for test in report.tests}[failing]
    assert "FAIL" in report.as_text()


def test_r1_the_position_statistic_is_scaled_by_the_permutation_covariance() -> None:
    """For n = 4, the exact covariance of a random permutation matrix is (Q ⊗ Q)/(n-1)."""
    n = 4
    matrices = np.array([np.eye(n)[list(p)].ravel() for p in itertools.permutations(range(n))])
    covariance = np.cov(matrices.T, bias=True)
    centring = np.eye(n) - 1 / n
    assert np.allclose(covariance, np.kron(centring, centring) / (n - 1))


def test_r1_the_adjacency_null_moments_are_exact_for_a_small_deck() -> None:
    """For n = 5, enumerate all 120 permutations: mean n·tr(C) and variance 2·Σ(n·C)²."""
    n = 5
    cells = [(a, b) for a in range(n) for b in range(n) if a != b]
    indicators = []
    for p in itertools.permutations(range(n)):
        follows = {(p[i], p[i + 1]) for i in range(n - 1)}
        indicators.append([cell in follows for cell in cells])
    covariance = np.cov(np.array(indicators, float).T, bias=True)
    mean, variance = rng_test.adjacency_null(n)
    assert mean == pytest.approx(n * np.trace(covariance))
    assert variance == pytest.approx(2 * ((n * covariance) ** 2).sum())


def test_five_card_category_frequencies_are_the_known_counts() -> None:
    assert rng_test.five_card_frequencies() == (1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744,
                                                 624, 36, 4)
