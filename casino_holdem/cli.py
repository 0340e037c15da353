"""The ``casino-holdem`` command.

Bad input never shows a traceback: it prints one line on standard error naming the field and the
problem and exits 2, having changed nothing (SCENARIOS.md).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn

import click

from . import paytable_files
from .core.cards import Card, InvalidCard, format_cards, parse_cards
from .core.evaluator import evaluate
from .core.paytable import InvalidPaytable, Paytable
from .core.scenario import PaytableResolver, ScenarioError, compare, play, settlement_json
from .paytable_files import load_paytable

BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    click.echo(message.replace("\n", " "), err=True)
    sys.exit(BAD_INPUT)


def dumps(value: Any, *, indent: int | None = 2) -> str:
    return json.dumps(value, indent=indent, ensure_ascii=False, default=_json_default)


def _json_default(value: object) -> str:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Texas Hold'em Bonus Progressive: game core, compliance tools and the live game server."""


# --- scenario ---------------------------------------------------------------------------------

@main.group()
def scenario() -> None:
    """Settle described rounds exactly (../shared/SCENARIOS.md)."""


def _read_json(source: str) -> object:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioError(source, f"cannot read ({error.strerror})") from None
    except UnicodeDecodeError:
        raise ScenarioError(source, "not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ScenarioError(source, f"malformed JSON at line {error.lineno} column {error.colno}: {error.msg}") from None


def _paytable_for(override: str | None) -> Paytable | PaytableResolver:
    """The --paytable file, or the scenario's own ``paytable`` entry resolved by the core."""
    if not override:
        return paytable_files.resolve
    try:
        return paytable_files.resolve(override)
    except InvalidPaytable as error:
        raise ScenarioError("paytable", str(error)) from None


def _settle_file(source: str, override: str | None) -> tuple[object, dict[str, Any]]:
    data = _read_json(source)
    return data, settlement_json(play(data, _paytable_for(override)))


@scenario.command("settle")
@click.argument("file")
@click.option("--paytable", "paytable_path", metavar="PATH", help="A paytable file overriding the scenario's.")
def scenario_settle(file: str, paytable_path: str | None) -> None:
    """Print the settlement of the round in FILE ('-' for standard input) as JSON."""
    try:
        _, output = _settle_file(file, paytable_path)
    except ScenarioError as error:
        fail(str(error))
    click.echo(dumps(output))


@scenario.command("check")
@click.argument("files", nargs=-1, required=True)
@click.option("--paytable", "paytable_path", metavar="PATH", help="A paytable file overriding the scenarios'.")
def scenario_check(files: tuple[str, ...], paytable_path: str | None) -> None:
    """Settle each FILE and compare with its "expected" object: PASS/FAIL per file.

    Exit 0 when all pass, 1 when any fails, 2 when any file is bad input."""
    failed = bad = False
    for file in files:
        try:
            data, output = _settle_file(file, paytable_path)
            if not isinstance(data, dict) or not isinstance(data.get("expected"), dict):
                raise ScenarioError(file, "expected: missing (an object in the output format)")
        except ScenarioError as error:
            click.echo(f"{file}: {error}", err=True)
            bad = True
            continue
        name = data.get("name") or Path(file).stem
        problems = compare(data["expected"], output)
        if problems:
            failed = True
            click.echo(f"FAIL {name}: {problems[0]}" + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
        else:
            click.echo(f"PASS {name}")
    sys.exit(BAD_INPUT if bad else 1 if failed else 0)


# --- hand -------------------------------------------------------------------------------------

def _hand_json(cards: tuple[Card, ...]) -> dict[str, Any]:
    hand = evaluate(cards)
    return {"category": hand.category.slug, "best_five": format_cards(hand.best_five), "strength": hand.strength}


def _hand_cards(raw: object, field: str) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise InvalidCard(f"{field}: must be a list of 5 to 7 cards")
    cards = parse_cards(raw, what=field)
    if not 5 <= len(cards) <= 7:
        raise InvalidCard(f"{field}: {len(cards)} cards, a hand has 5 to 7")
    return cards


@main.command("hand")
@click.argument("cards", nargs=-1)
@click.option("--jsonl", is_flag=True, help='Read JSON lines {"cards": [...]} on stdin, write one result line each.')
def hand(cards: tuple[str, ...], jsonl: bool) -> None:
    """Evaluate 5-7 CARDS (R7): category, best five and strength (higher is stronger)."""
    if jsonl:
        _hand_lines()
        return
    try:
        result = _hand_json(_hand_cards(list(cards), "cards"))
    except InvalidCard as error:
        fail(str(error))
    click.echo(f"{result['category']} {' '.join(result['best_five'])} strength {result['strength']}")


def _hand_lines() -> None:
    out = sys.stdout
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict) or "cards" not in data:
                raise InvalidCard("cards: missing")
            out.write(json.dumps(_hand_json(_hand_cards(data["cards"], "cards"))) + "\n")
        except (json.JSONDecodeError, InvalidCard) as error:
            out.flush()
            fail(f"line {number}: {error if isinstance(error, InvalidCard) else 'malformed JSON: ' + error.msg}")


# --- paytable ---------------------------------------------------------------------------------

@main.group("paytable")
def paytable_group() -> None:
    """Validate and show paytable files (../shared/PAYTABLES.md)."""


@contextmanager
def _paytable_problems() -> Iterator[None]:
    try:
        yield
    except InvalidPaytable as error:
        for problem in error.problems:
            click.echo(f"{error.source}: {problem}", err=True)
        sys.exit(BAD_INPUT)


@paytable_group.command("validate")
@click.argument("file")
def paytable_validate(file: str) -> None:
    """Exit 0 with a summary when FILE is valid; otherwise one line per problem and exit 2."""
    with _paytable_problems():
        table = load_paytable(file)
    click.echo(f"valid: {table.id} version {table.version} ({table.title}), effective {table.effective_from}, "
               f"{len(table.currencies)} currencies, sha256 {table.sha256}")


@paytable_group.command("show")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the validated values as JSON.")
def paytable_show(file: str, as_json: bool) -> None:
    """Print the validated paytable."""
    with _paytable_problems():
        table = load_paytable(file)
    document = paytable_document(table)
    click.echo(dumps(document) if as_json else "\n".join(f"{k}: {v}" for k, v in _flatten(document)))


def paytable_document(table: Paytable) -> dict[str, Any]:
    main_pays, bonus, progressive = table.main, table.bonus, table.progressive
    return {
        "paytable": {**table.describe(), "title": table.title, "effective_from": table.effective_from.isoformat()},
        "main": {"ante_qualifier": main_pays.ante_qualifier.slug, "ante": main_pays.ante, "flop": main_pays.flop,
                 "turn": main_pays.turn, "river": main_pays.river},
        "bonus": {line: bonus.odds(line) for line in bonus.__dataclass_fields__},
        "progressive": {
            "contribution": str(progressive.contribution), "seed": str(progressive.seed),
            "p1": {f"royal_flush_{s}": str(progressive.p1_share(s)) for s in ("flop", "turn", "river")},
            "p2": {"straight_flush": str(progressive.p2_straight_flush),
                   "four_of_a_kind": str(progressive.p2_four_of_a_kind)},
            "p3": {"royal_flush": str(progressive.p3_royal_flush),
                   "straight_flush": str(progressive.p3_straight_flush),
                   "four_of_a_kind": str(progressive.p3_four_of_a_kind)},
        },
        "currencies": {code: {"multiplier": str(spec.multiplier), "unit": str(spec.unit)}
                       for code, spec in table.currencies.items()},
    }


def _flatten(node: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in node.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


# --- the operating, operator (issue 5) and compliance (issue 4) commands register on `main` ---
from .compliance.commands import register_compliance  # noqa: E402 (they import helpers from here)
from .operator_cli import register_operator  # noqa: E402
from .ops_cli import register_ops  # noqa: E402

register_ops(main)
register_operator(main)
register_compliance(main)
