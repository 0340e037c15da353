"""Benchmark of the compliance math: simulator rounds per second and the exact RTP runtime.

    .venv/bin/python bench/simulate.py [--rounds N] [--threads T] [--skip-exact]

Prints, for each built-in strategy, complete rounds per second of ``casino-holdem simulate``
(every bet of every bettor settled, the pool carried round to round; the target is at least 2
million a second on a 2-core machine), then the time of the exact enumeration behind
``casino-holdem rtp`` computed afresh (no cache; the target is under a minute).
"""

from __future__ import annotations

import argparse
import os
import time

from casino_holdem import paytables
from casino_holdem.compliance.exact import canonical_boards, load_enumeration
from casino_holdem.compliance.rtp import compute
from casino_holdem.compliance.simulate import TableSetup, simulate
from casino_holdem.compliance.strategies import built_in

TARGET_ROUNDS_PER_SECOND = 2_000_000
TARGET_EXACT_SECONDS = 60.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=8_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--skip-exact", action="store_true")
    options = parser.parse_args()
    paytable = paytables.resolve("standard")
    print(f"machine: {os.cpu_count()} CPUs; {options.rounds:,} rounds per run, {options.threads} threads")
    simulate(TableSetup(paytable, next(built_in())), 100_000, seed=0)          # warm-up
    for strategy in built_in():
        for bettors in (1, 5):
            run = simulate(TableSetup(paytable, strategy, bettors=bettors), options.rounds, seed=1,
                           threads=options.threads)
            verdict = "ok" if run.rounds_per_second >= TARGET_ROUNDS_PER_SECOND else "BELOW TARGET"
            print(f"simulate {strategy.name:12} {bettors} bettor(s): {run.rounds_per_second / 1e6:6.2f} M rounds/s "
                  f"({run.seconds:.2f} s; target {TARGET_ROUNDS_PER_SECOND / 1e6:g} M: {verdict})")
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
