"""Benchmark of the compliance math: simulator rounds per second and the exact RTP runtime.

    .venv/bin/python bench/simulate.py [--rounds N] [--threads T] [--skip-exact]

Prints, for each built-in strategy, complete rounds per second of ``casino-holdem simulate``
(every bet of every bettor settled, the pool carried round to round; the target is at least 2
million a second on a 2-core machine), next to two scalar peers measured in the same run: a
Python loop settling each round through ``core.rules.settle`` (the same rules, one round at a
time) and a loop that only evaluates the two hands of each round with ``eval7`` (the fastest
peer evaluator; an upper bound for any scalar simulator built on it). Then the time of the exact
enumeration behind ``casino-holdem rtp`` computed afresh (no cache; the target is under a minute).
"""

from __future__ import annotations

import argparse
import os
import time
from decimal import Decimal

import numpy as np

from casino_holdem import paytable_files
from casino_holdem.compliance.exact import canonical_boards, load_enumeration
from casino_holdem.compliance.rtp import compute
from casino_holdem.compliance.simulate import TableSetup, deal, simulate
from casino_holdem.compliance.strategies import bind, built_in
from casino_holdem.core.cards import FULL_DECK
from casino_holdem.core.rules import DealtCards, Stake, settle

TARGET_ROUNDS_PER_SECOND = 2_000_000
TARGET_EXACT_SECONDS = 60.0
PEER_ROUNDS = 20_000


def scalar_peers(paytable: object) -> tuple[float, float | None]:
    """Rounds per second of the scalar peers: core.rules.settle per round (always-play, one USD
    bettor with every side bet), and eval7 evaluating both hands (None when eval7 is missing)."""
    rounds = deal(np.random.default_rng(2), PEER_ROUNDS).tolist()
    stake = Stake("b", "USD", Decimal(1), Decimal(1), Decimal(1), flop=Decimal(2))
    started = time.perf_counter()
    for row in rounds:
        cards = [FULL_DECK[i] for i in row]
        settle(paytable, DealtCards(tuple(cards[:2]), tuple(cards[2:4]), tuple(cards[4:])), [stake], Decimal(0))
    core_rate = PEER_ROUNDS / (time.perf_counter() - started)
    try:
        import eval7
    except ImportError:
        return core_rate, None
    deck = [eval7.Card(str(card)) for card in FULL_DECK]
    hands = [([deck[i] for i in row[:2] + row[4:]], [deck[i] for i in row[2:]]) for row in rounds]
    evaluate = eval7.evaluate
    started = time.perf_counter()
    player_wins = 0
    for player, dealer in hands:
        player_wins += evaluate(player) > evaluate(dealer)
    return core_rate, PEER_ROUNDS / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=8_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--skip-exact", action="store_true")
    options = parser.parse_args()
    paytable = paytable_files.resolve("standard")
    print(f"machine: {os.cpu_count()} CPUs; {options.rounds:,} rounds per run, {options.threads} threads")
    simulate(TableSetup(paytable, next(built_in())), 100_000, seed=0)          # warm-up
    core_rate, eval7_rate = scalar_peers(paytable)
    print(f"peer: core.rules.settle per round   {core_rate / 1e6:8.4f} M rounds/s")
    if eval7_rate is not None:
        print(f"peer: eval7, the two hands only     {eval7_rate / 1e6:8.4f} M rounds/s")
    for strategy in (bind(strategy, paytable) for strategy in built_in()):   # optimal: its cached solution
        for bettors in (1, 5):
            run = simulate(TableSetup(paytable, strategy, bettors=bettors), options.rounds, seed=1,
                           threads=options.threads)
            verdict = "ok" if run.rounds_per_second >= TARGET_ROUNDS_PER_SECOND else "BELOW TARGET"
            versus = f"{run.rounds_per_second / core_rate:,.0f}x core.rules.settle"
            if eval7_rate is not None:
                versus += f", {run.rounds_per_second / eval7_rate:,.1f}x eval7 hands only"
            print(f"simulate {strategy.name:12} {bettors} bettor(s): {run.rounds_per_second / 1e6:6.2f} M rounds/s "
                  f"({run.seconds:.2f} s; {versus}; target {TARGET_ROUNDS_PER_SECOND / 1e6:g} M: {verdict})")
    if options.skip_exact:
        return
    started = time.perf_counter()
    canonical_boards.cache_clear()
    canonical_boards()
    classes = time.perf_counter() - started
    enumeration = load_enumeration(use_cache=False, threads=options.threads)
    started = time.perf_counter()
    report = compute(paytable, [strategy for strategy in built_in() if not strategy.postflop_bets],
                     threads=options.threads)
    figures = time.perf_counter() - started
    total = classes + enumeration.seconds + figures
    verdict = "ok" if total <= TARGET_EXACT_SECONDS else "ABOVE TARGET"
    print(f"rtp exact: board classes {classes:.1f} s + enumeration {enumeration.seconds:.1f} s "
          f"(145,349,179 seven-card hands, {enumeration.board_classes:,} board classes) + figures {figures:.2f} s "
          f"= {total:.1f} s (target under {TARGET_EXACT_SECONDS:g} s: {verdict})")
    print(f"  Bonus RTP {float(report.bonus.rtp):.6f}; always-play main RTP {float(report.strategies[0].main.rtp):.6f}")


if __name__ == "__main__":
    main()
