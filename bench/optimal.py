"""Benchmark of the exact optimal strategy: the whole computation for a paytable, then the cache.

    .venv/bin/python bench/optimal.py [PAYTABLE ...] [--workers N]

For each paytable (default: ``standard`` and the flush-qualifier paytable of the tests), the
whole enumeration is computed afresh (no cache; target: under 10 minutes on a 2-core machine),
then a second call in a fresh process reads the cache (target: under a second), and the figures
are printed beside the published analyses of Texas Hold'em Bonus (Wizard of Odds, Las Vegas
rules — Ante on a straight or better: house edge 2.037 % of the Ante, average total bet 3.8181
Antes, element of risk 0.5335 %, standard deviation 3.500839; Atlantic City rules — a flush or
better: house edge 5.5935 %, after Scott McIntosh). Peak memory: this process and the largest
worker (RSS; a worker per core).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from casino_holdem import paytables
from casino_holdem.compliance.isomorphism import Deck, canonical_flops
from casino_holdem.compliance.optimal_strategy import load_solution
from casino_holdem.compliance.play_figures import figures

TARGET_SECONDS = 600.0
TARGET_CACHED_SECONDS = 1.0
TARGET_MEMORY_GIB = 8.0
ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ("standard", str(ROOT / "tests" / "paytables" / "house-flush-v1.toml"))
PUBLISHED = {
    "straight": {
        "house edge": 0.02037,
        "average total bet": 3.8181,
        "element of risk": 0.005335,
        "standard deviation": 3.500839,
    },
    "flush": {"house edge": 0.055935},
}
CACHED_CALL = (
    "import sys, time; t = time.perf_counter(); from casino_holdem import paytables; "
    "from casino_holdem.compliance.optimal_strategy import load_solution; "
    "from casino_holdem.compliance.play_figures import figures; "
    "f = figures(load_solution(paytables.resolve(sys.argv[1]))); "
    "print(time.perf_counter() - t, float(f.house_edge))"
)


def peak_gib(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paytables", nargs="*", default=list(DEFAULT))
    parser.add_argument("--workers", type=int, default=2)
    arguments = parser.parse_args()
    os.environ["CASINO_CACHE_DIR"] = tempfile.mkdtemp(prefix="optimal-bench-")
    classes = len(canonical_flops(Deck.full())[0])
    for reference in arguments.paytables:
        paytable = paytables.resolve(reference)
        qualifier = paytable.main.ante_qualifier.slug
        started = time.perf_counter()
        solution = load_solution(paytable, workers=arguments.workers)
        seconds = time.perf_counter() - started
        cached = subprocess.run(
            [sys.executable, "-c", CACHED_CALL, reference], capture_output=True, text=True, check=True, env=os.environ
        )
        cached_seconds = float(cached.stdout.split()[0])
        command_started = time.perf_counter()
        subprocess.run(
            [str(Path(sys.executable).with_name("casino-holdem")), "strategy", "optimal", reference, "--json"],
            capture_output=True,
            check=True,
            env=os.environ,
        )
        command_seconds = time.perf_counter() - command_started
        result = figures(solution)
        print(f"{paytable.ref} (Ante qualifier: {qualifier}), sha256 {paytable.sha256[:16]}…")
        print(
            f"  whole exact computation: {seconds:.1f} s for {classes} flop classes with {arguments.workers} "
            f"workers (target < {TARGET_SECONDS:.0f} s: {'met' if seconds < TARGET_SECONDS else 'MISSED'}); "
            f"second call, from the cache in a fresh process: {cached_seconds:.2f} s to the figures, "
            f"{command_seconds:.2f} s for the whole `casino-holdem strategy optimal --json` (target < "
            f"{TARGET_CACHED_SECONDS:.0f} s: {'met' if command_seconds < TARGET_CACHED_SECONDS else 'MISSED'})"
        )
        total = peak_gib(resource.RUSAGE_SELF) + arguments.workers * peak_gib(resource.RUSAGE_CHILDREN)
        print(
            f"  peak memory (RSS): main process {peak_gib(resource.RUSAGE_SELF):.2f} GiB, largest worker "
            f"{peak_gib(resource.RUSAGE_CHILDREN):.2f} GiB, at most {total:.2f} GiB together "
            f"(target < {TARGET_MEMORY_GIB:.0f} GiB: {'met' if total < TARGET_MEMORY_GIB else 'MISSED'})"
        )
        ours = {
            "house edge": float(result.house_edge),
            "average total bet": float(result.staked),
            "element of risk": float(result.element_of_risk),
            "standard deviation": result.standard_deviation,
        }
        for name, value in ours.items():
            published = PUBLISHED.get(qualifier, {}).get(name)
            print(f"  {name:<20} {value:.6f}" + (f"   published {published}" if published is not None else ""))
        print(f"  return to player {float(result.rtp):.6f} = {result.rtp}")
        print(f"  house edge per Ante {result.house_edge}")
        print(
            f"  fold rate {float(result.fold_rate):.4%}, Turn bet rate {float(result.turn_bet_rate):.4%}, "
            f"River bet rate {float(result.river_bet_rate):.4%} (of hands played)"
        )
        print(
            "  folds: "
            + ", ".join(f"{label} ({float(ev):+.6f})" for label, ev, played in result.starting_hands() if not played)
        )


if __name__ == "__main__":
    main()
