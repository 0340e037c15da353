"""The exact return figures of every stored paytable version (issues 11 and 13): computed here, in
the commands layer, because services and web may not import the compliance tools; stored through
:mod:`casino_holdem.services.paytable_figures`, where the back office and the players' rules panel
read them.

The figures are ``casino-holdem rtp``'s, for every built-in strategy whose main game it reports
exactly (the optimal pass: ``optimal`` and ``simple``; ``always-play`` by enumeration; ``basic``
stays simulated there and is left out): per R3 bet the stake and return per round in Antes, the
main game as a whole, the R4 Bonus and the R5 Progressive's returns. Computed once per (paytable
SHA-256, engine hash): the engine hash changes with any code the figures come from.

``paytables figures`` computes every version still without figures; ``serve`` and each ``dealer``
run :class:`FiguresWorker`, which looks every ``CASINO_FIGURES_POLL`` seconds and, when a version
waits, runs that command in a child process at low priority: the computation (minutes, two worker
processes, most of a GiB) never shares the serving process's interpreter, lock or memory.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import settings
from ..core.paytable import Paytable, parse_paytable
from .context import service_context
from .terminal import write_json

if TYPE_CHECKING:
    from flask import Flask

    from ..compliance.rtp import RtpReport
    from ..compliance.strategies import Strategy

log = logging.getLogger(__name__)
#: raise it when the stored document's shape changes (the hash of the code covers the rest)
ENGINE_VERSION = "1"
#: every module the figures come from: evaluator, enumeration, optimal pass, strategies, rtp
ENGINE_MODULES = ("core.evaluator", "compliance.exact", "compliance.completions", "compliance.isomorphism",
                  "compliance.optimal", "compliance.optimal_strategy", "compliance.play_figures",
                  "compliance.simple", "compliance.strategies", "compliance.rtp")
#: how a background worker lowers its child's priority (serving comes first)
NICENESS = 10
#: seconds a stopped child may take to give its claim back
CHILD_STOP_SECONDS = 30


def engine_hash() -> str:
    """Changes whenever code the figures depend on changes, so old figures are computed again."""
    digest = hashlib.sha256(ENGINE_VERSION.encode())
    for name in ENGINE_MODULES:
        digest.update(Path(importlib.import_module(f"casino_holdem.{name}").__file__ or "").read_bytes())
    return digest.hexdigest()[:16]


def exact_strategies() -> list[Strategy]:
    """The built-in strategies whose main game ``rtp`` reports exactly (the others it simulates)."""
    from ..compliance.optimal_strategy import REPORTED
    from ..compliance.strategies import built_in

    return [strategy for strategy in built_in() if not strategy.postflop_bets or strategy.name in REPORTED]


def _exact(value: Fraction | float) -> dict[str, str]:
    from ..services.paytable_figures import exact

    if not isinstance(value, Fraction):
        raise TypeError(f"{value!r} is not an exact figure")
    return exact(value)


def figures_document(report: RtpReport) -> dict[str, Any]:
    """The stored figures of an ``rtp`` report: every number an exact fraction with its decimal."""
    strategies: dict[str, Any] = {}
    for play in report.strategies:
        main, pool = play.main, play.pool
        if main.method != "exact":
            continue
        strategies[play.strategy.name] = {
            "fold_rate": _exact(play.fold_rate),
            "main": {"rtp": _exact(main.rtp), "net_per_ante": _exact(main.net_per_ante),
                     "staked": _exact(main.staked), "returned": _exact(main.returned),
                     "by_bet": {bet: {"staked": _exact(staked), "returned": _exact(returned),
                                      "rtp": _exact(Fraction(returned) / Fraction(staked))}
                                for bet, (staked, returned) in main.by_bet.items() if staked}},
            "bonus": {"rtp": _exact(play.bonus.rtp)},
            "progressive": {"expected_fixed_prizes_per_bet": _exact(pool.fixed),
                            "return_at_seed_pool": _exact(pool.value_at(pool.seed)),
                            "long_run_return": _exact(pool.long_run_return),
                            "seed_top_up_method": "exact" if pool.top_up_exact else "approximation"},
        }
    return {"paytable": report.paytable.describe(), "bonus": {"rtp": _exact(report.bonus.rtp)},
            "strategies": strategies}


def paytable_figures(paytable: Paytable, *, threads: int = 2) -> dict[str, Any]:
    """Compute the figures of one paytable (the enumeration and the optimal pass from the cache
    when there)."""
    from ..compliance.rtp import compute

    return figures_document(compute(paytable, exact_strategies(), threads=threads))


Compute = Callable[[Paytable], dict[str, Any]]


def compute_missing(compute: Compute | None = None, *, threads: int = 2) -> list[dict[str, str]]:
    """Compute and store the figures of every stored version without them (in an app context),
    one claimed version at a time so that several processes never compute the same one. A
    failure leaves its claim to go stale (taken again an hour later); a stop gives it back."""
    from ..services import paytable_figures as stored

    engine = engine_hash()
    done: list[dict[str, str]] = []
    while (claim := stored.claim_next(engine)) is not None:
        ref = f"{claim.paytable_id}@{claim.version}"
        started = time.perf_counter()
        try:
            paytable = parse_paytable(claim.content, source=ref)
            figures = (compute or (lambda table: paytable_figures(table, threads=threads)))(paytable)
        except Exception:
            log.exception("paytable figures: %s failed", ref)
            continue
        except BaseException:
            stored.abandon(claim.sha256, engine)
            raise
        seconds = f"{time.perf_counter() - started:.1f}"
        stored.record(claim.sha256, engine, {**figures, "seconds": seconds})
        log.info("paytable figures: %s computed in %s s", ref, seconds)
        done.append({"paytable": ref, "sha256": claim.sha256, "engine": engine, "seconds": seconds})
    return done


def _stop_raises(*_: object) -> None:
    raise SystemExit(1)


@click.command("figures")
@click.option("--threads", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--nice", "niceness", type=click.IntRange(0, 19), default=0, show_default=True,
              help="Lower this process's priority first (the servers' background worker uses 10).")
def figures_command(threads: int, niceness: int) -> None:
    """Compute and store the exact return figures (those of ``rtp``) of every stored paytable
    version that has none; prints the versions computed and the seconds each took."""
    if niceness:
        os.nice(niceness)
    signal.signal(signal.SIGTERM, _stop_raises)       # a stopped worker gives its claim back
    with service_context():
        write_json(compute_missing(threads=threads))


class FiguresWorker:
    """The background worker of ``serve`` and ``dealer``: every ``poll`` seconds, when a stored
    version waits for figures, ``paytables figures`` in a child process (``run``: how, replaceable
    in tests), until ``stop`` is set; a child still running then is stopped (it gives its claim
    back)."""

    def __init__(self, app: Flask, stop: threading.Event, poll: float, run: Callable[[], None] | None = None) -> None:
        self.app, self.stop, self.poll = app, stop, poll
        self.run = run or self._child
        self.thread = threading.Thread(target=self._loop, name="paytable-figures", daemon=True)

    def _loop(self) -> None:
        from ..services import paytable_figures as stored

        engine = engine_hash()
        while not self.stop.is_set():
            try:
                with self.app.app_context():
                    waiting = stored.pending(engine)
                if waiting:
                    log.info("paytable figures: computing %s", ", ".join(waiting))
                    self.run()
            except Exception:
                log.exception("paytable figures: the background pass failed")
            self.stop.wait(self.poll)

    def command(self) -> Sequence[str]:
        return [sys.executable, "-m", "casino_holdem", "paytables", "figures", "--nice", str(NICENESS)]

    def _child(self) -> None:
        # the child inherits this process's environment, so it reads the same database (settings)
        process = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL, start_new_session=True)
        while process.poll() is None:
            if self.stop.wait(1.0):
                os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(timeout=CHILD_STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                return
        if process.returncode:
            log.warning("paytable figures: the child process exited %s", process.returncode)


def start_worker(app: Flask, stop: threading.Event) -> FiguresWorker | None:
    """Start the background worker unless ``CASINO_FIGURES_POLL`` is 0."""
    poll: int = settings.value("CASINO_FIGURES_POLL")
    if not poll:
        return None
    worker = FiguresWorker(app, stop, poll)
    worker.thread.start()
    return worker
