"""Statistics of simulated rounds: return ratios with 95 % intervals and z-scores.

Floats are used here and only here, for estimates; every amount that is settled stays an integer
of the currency's smallest unit (:mod:`.simulate`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

#: two-sided 95 % normal quantile
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A simulated figure with its standard error and 95 % interval."""

    value: float
    error: float

    @property
    def low(self) -> float:
        return self.value - Z95 * self.error

    @property
    def high(self) -> float:
        return self.value + Z95 * self.error

    def as_dict(self) -> dict[str, float]:
        return {"value": self.value, "standard_error": self.error, "ci95_low": self.low, "ci95_high": self.high}


def return_ratio(moments: Sequence[float], rounds: int) -> Estimate | None:
    """Return to player Σ return / Σ stake over rounds, from the moments [Σs, Σr, Σs², Σr², Σsr].

    The interval is the ratio estimator's (delta method): the residuals ``r_i - R·s_i`` have mean
    zero, and the standard error is their spread over Σs. None when nothing was staked."""
    stake, returned, stake2, returned2, cross = moments
    if stake == 0 or rounds < 2:
        return None
    ratio = returned / stake
    residual = max(returned2 - 2 * ratio * cross + ratio * ratio * stake2, 0.0)
    return Estimate(ratio, math.sqrt(residual * rounds / (rounds - 1)) / stake)


def mean_net(moments: Sequence[float], rounds: int, per: float = 1.0) -> Estimate:
    """Mean of (return - stake) per round, divided by ``per`` (e.g. the Ante)."""
    stake, returned, stake2, returned2, cross = moments
    mean = (returned - stake) / rounds
    second = (returned2 - 2 * cross + stake2) / rounds
    variance = max(second - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    return Estimate(mean / per, math.sqrt(variance / rounds) / per)


def z_score(count: int, trials: int, probability: Fraction | float) -> float | None:
    """(observed - expected) / standard deviation of a binomial count; None when p is 0 or 1."""
    p = float(probability)
    if trials == 0 or p <= 0.0 or p >= 1.0:
        return None if count == 0 or p >= 1.0 else math.inf
    return (count - trials * p) / math.sqrt(trials * p * (1.0 - p))
