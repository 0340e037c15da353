"""Stored paytable figures for the tests that need some without the minutes of the real
computation: the shape of :func:`casino_holdem.commands.figures.figures_document`, with made-up
but exact figures (the real ones are compared with ``rtp --json`` in tests/compliance)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from casino_holdem.services.paytable_figures import exact

#: the Bonus's exact return on standard@1 (R4), as ``rtp`` reports it
STANDARD_BONUS = Fraction(148562, 162435)


def sample_figures(main: Fraction = Fraction(99, 100), bonus: Fraction = STANDARD_BONUS) -> dict[str, Any]:
    """One ``optimal`` strategy whose four bets all return ``main``, and ``bonus`` for the Bonus."""
    stakes = {"ante": Fraction(1), "flop": Fraction(191, 100), "turn": Fraction(45, 100), "river": Fraction(46, 100)}
    by_bet = {bet: {"staked": exact(staked), "returned": exact(staked * main), "rtp": exact(main)}
              for bet, staked in stakes.items()}
    staked = sum(stakes.values(), Fraction(0))
    play = {"fold_rate": exact(Fraction(10, 221)),
            "main": {"rtp": exact(main), "net_per_ante": exact(staked * main - staked), "staked": exact(staked),
                     "returned": exact(staked * main), "by_bet": by_bet},
            "bonus": {"rtp": exact(bonus)},
            "progressive": {"expected_fixed_prizes_per_bet": exact(Fraction(3, 8)),
                            "return_at_seed_pool": exact(Fraction(3, 8)), "long_run_return": exact(Fraction(19, 20)),
                            "seed_top_up_method": "exact"}}
    return {"paytable": {"id": "standard", "version": "1"}, "bonus": {"rtp": exact(bonus)},
            "strategies": {"optimal": play}}
