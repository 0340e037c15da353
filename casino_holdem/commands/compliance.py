"""The compliance tester's commands: ``rtp``, ``simulate``, ``rng-test`` and ``strategy optimal``.

Progress bars go to standard error so standard output stays clean for ``--json``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

import click

from .. import paytable_files
from ..compliance import rng_test as rng_checks
from ..compliance import strategy_chart
from ..compliance.exact import load_enumeration
from ..compliance.isomorphism import FLOP_CLASSES
from ..compliance.optimal_strategy import exact_main, load_solution
from ..compliance.report import summarize, summary_text, write_html
from ..compliance.rtp import (
    DEFAULT_ROUNDS,
    NotSuitBlind,
    bonus_figures,
    compute,
    main_exact,
    played_combos,
    reference_probabilities,
    stage_counter,
)
from ..compliance.rtp_output import report_json, report_text
from ..compliance.simulate import TableSetup, simulate
from ..compliance.strategies import UnknownStrategy, bind, get_strategy, strategy_names
from ..core.paytable import InvalidPaytable, Paytable
from .terminal import fail, refused, write_json


def _paytable(reference: str) -> Paytable:
    with refused(InvalidPaytable, prefix="paytable: "):
        return paytable_files.resolve(reference)


class _Bars:
    """One click progress bar per stage, on standard error."""

    def __init__(self) -> None:
        self.stage: str | None = None
        self.bar: Any = None
        self.done = 0

    def __call__(self, stage: str, done: int, total: int) -> None:
        if stage != self.stage:
            self.close()
            self.stage, self.done = stage, 0
            self.bar = click.progressbar(length=total, label=stage, file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def counter(self, stage: str, total: int) -> Callable[[int], None]:
        return stage_counter(self, stage, total)


@click.command("rtp")
@click.argument("paytable")
@click.option("--json", "as_json", is_flag=True, help="Print every figure as JSON (fractions and decimals).")
@click.option("--strategy", "names", multiple=True, metavar="NAME",
              help="Strategies to report (repeatable; default: the built-in ones).")
@click.option("--rounds", type=click.IntRange(min=2), default=DEFAULT_ROUNDS, show_default=True,
              help="Rounds simulated for strategies that bet after the flop.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of those simulations.")
@click.option("--threads", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--no-cache", is_flag=True, help="Recompute the enumeration instead of reading the cache.")
def rtp_command(paytable: str, as_json: bool, names: tuple[str, ...], rounds: int, seed: int, threads: int,
                no_cache: bool) -> None:
    """Exact return figures of PAYTABLE (a path, or an id such as standard or standard@1): the
    Bonus (R4), the Progressive (R5) and the main game (R3) under each strategy."""
    table = _paytable(paytable)
    try:
        strategies = [get_strategy(name) for name in names] if names else None
    except UnknownStrategy as error:
        fail(f"--strategy: {error}")
    bars = _Bars()
    try:
        report = compute(table, strategies, rounds=rounds, seed=seed, threads=threads, use_cache=not no_cache,
                         progress=bars)
    except NotSuitBlind as error:
        fail(f"--strategy: {error}")
    finally:
        bars.close()
    if as_json:
        write_json(report_json(report))
    else:
        click.echo(report_text(report))


def _decimal(value: str, name: str) -> Decimal:
    try:
        return Decimal(value)
    except InvalidOperation:
        fail(f"{name}: {value!r} is not a decimal amount")


@click.command("simulate")
@click.option("--rounds", type=click.IntRange(min=2), default=1_000_000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--strategy", "name", default="basic", show_default=True,
              help="A registered strategy: " + ", ".join(strategy_names()))
@click.option("--bettors", type=click.IntRange(min=1), default=1, show_default=True,
              help="Bettors on the shared hand (R1); they share the progressive prizes (R5).")
@click.option("--paytable", "paytable_reference", default="standard", show_default=True)
@click.option("--ante", default="1", show_default=True, help="Each bettor's Ante.")
@click.option("--bonus", default="1", show_default=True, help="Each bettor's Bonus bet (0: none).")
@click.option("--no-progressive", is_flag=True, help="Bettors do not place the Progressive bet.")
@click.option("--currency", default="USD", show_default=True)
@click.option("--pool", default="0", show_default=True, help="Jackpot pool at the start (base units).")
@click.option("--threads", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--no-exact", is_flag=True, help="Skip the comparison with exact probabilities.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--report", "report_path", type=click.Path(dir_okay=False, writable=True), help="Write an HTML report.")
def simulate_command(rounds: int, seed: int, name: str, bettors: int, paytable_reference: str, ante: str, bonus: str,
                     no_progressive: bool, currency: str, pool: str, threads: int, no_exact: bool, as_json: bool,
                     report_path: str | None) -> None:
    """Deal, play and settle ROUNDS complete rounds with the real settlement rules (vectorised)."""
    table = _paytable(paytable_reference)
    try:
        strategy = get_strategy(name)
        setup = TableSetup(table, strategy, bettors=bettors, ante=_decimal(ante, "--ante"),
                           bonus=_decimal(bonus, "--bonus"), progressive=not no_progressive, currency=currency,
                           pool=_decimal(pool, "--pool"))
    except UnknownStrategy as error:
        fail(f"--strategy: {error}")
    except (KeyError, ValueError) as error:
        fail(str(error).strip('"'))
    bars = _Bars()
    try:
        setup = replace(setup, strategy=bind(setup.strategy, table, workers=threads,
                                             progress=bars.counter("optimal strategy", FLOP_CLASSES)))
        run = simulate(setup, rounds, seed, threads=threads, progress=bars.counter("simulating", rounds))
        reference, exact_rtp, fold = None, None, None
        if not no_exact:
            enumeration = load_enumeration(threads=threads, progress=bars.counter("exact enumeration", 134_459))
            reference = reference_probabilities(enumeration, table)
            exact_rtp, fold = _exact_rtp(table, setup, enumeration)
    finally:
        bars.close()
    summary = summarize(run, reference, exact_rtp, fold)
    if report_path:
        write_html(summary, report_path)
    if as_json:
        write_json(summary)
    else:
        click.echo(summary_text(summary))
        if report_path:
            click.echo(f"report written to {report_path}")


def _exact_rtp(table: Paytable, setup: TableSetup, enumeration: Any) -> tuple[dict[str, Fraction], Fraction | None]:
    """The bets whose return is exactly known for this strategy: the Bonus always, the main game
    when the strategy never bets after the flop or the paytable's optimal pass (computed or
    cached already: it is not started for a comparison) scores it."""
    try:
        combos = played_combos(setup.strategy)
        exact = {"bonus": bonus_figures(table, combos).rtp}
        main = exact_main(table, setup.strategy, compute=False) or (
            None if setup.strategy.postflop_bets else main_exact(table, enumeration, setup.strategy))
        if main is not None:
            exact["main"] = main.rtp
            for bet, (staked, returned) in main.by_bet.items():
                if staked:
                    exact[bet] = returned / staked
        return exact, Fraction(int((~combos).sum()), len(combos))
    except NotSuitBlind:
        return {}, None


@click.command("rng-test")
@click.option("--shuffles", type=click.IntRange(min=100), default=rng_checks.DEFAULT_SHUFFLES, show_default=True,
              help="Decks to shuffle with the play shuffle (10,000-15,000 a second).")
@click.option("--alpha", type=click.FloatRange(min=0, max=1, min_open=True, max_open=True),
              default=rng_checks.DEFAULT_ALPHA, show_default=True, help="Family-wise significance level.")
@click.option("--json", "as_json", is_flag=True)
def rng_test_command(shuffles: int, alpha: float, as_json: bool) -> None:
    """Chi-square checks of the play shuffle (R1): card x position, adjacent pairs and the first
    five cards' categories. Exit 0 on PASS, 1 on FAIL."""
    report = rng_checks.run(shuffles, alpha=alpha)
    if as_json:
        write_json(report.as_json())
    else:
        click.echo(report.as_text())
    sys.exit(0 if report.passed else 1)


@click.group("strategy")
def strategy_group() -> None:
    """Playing strategies of the main game (R2)."""


@strategy_group.command("optimal")
@click.argument("paytable")
@click.option("--json", "as_json", is_flag=True, help="Print every figure as JSON (fractions and decimals).")
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the strategy chart (169 hands, rules, figures) as one HTML file.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--no-cache", is_flag=True, help="Recompute instead of reading the cache.")
def optimal_command(paytable: str, as_json: bool, chart_path: str | None, workers: int, no_cache: bool) -> None:
    """The exact optimal strategy of PAYTABLE by enumeration (a few minutes the first time, then
    cached): every decision, the 169 starting hands, rules to follow and the exact figures."""
    table = _paytable(paytable)
    bars = _Bars()
    try:
        solution = load_solution(table, use_cache=not no_cache, workers=workers,
                                 progress=bars.counter("optimal strategy", FLOP_CLASSES))
    finally:
        bars.close()
    report = strategy_chart.build(table, solution)
    if chart_path:
        strategy_chart.write_chart(report, chart_path)
    if as_json:
        write_json(strategy_chart.report_json(report))
    else:
        click.echo(strategy_chart.report_text(report))
        if chart_path:
            click.echo(f"chart written to {chart_path}")


COMMANDS = (rtp_command, simulate_command, rng_test_command, strategy_group)
