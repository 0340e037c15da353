"""The compliance lab's verification commands: ``scenario settle|check`` (the scenario contract),
``hand`` (R7 evaluation) and ``paytable validate|show`` (paytable files)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from .. import paytable_files
from ..core.cards import Card, InvalidCard, format_cards, parse_cards
from ..core.evaluator import evaluate
from ..core.paytable import InvalidPaytable, Paytable
from ..core.scenario import PaytableResolver, ScenarioError, compare, play, settlement_json
from ..paytable_files import load_paytable
from .terminal import fail, refused, write_json

# --- scenario ---------------------------------------------------------------------------------


@click.group()
def scenario() -> None:
    """Settle described rounds exactly (the compliance scenario contract)."""


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
        raise ScenarioError(source, f"malformed JSON at line {error.lineno} column {error.colno}: "
                                    f"{error.msg}") from None


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
    with refused(ScenarioError):
        _, output = _settle_file(file, paytable_path)
    write_json(output)


@scenario.command("check")
@click.argument("files", nargs=-1, required=True)
@click.option("--paytable", "paytable_path", metavar="PATH", help="A paytable file overriding the scenarios'.")
def scenario_check(files: tuple[str, ...], paytable_path: str | None) -> None:
    """Settle each FILE and compare with its "expected" object: PASS/FAIL per file.

    Exit 0 when all pass, 1 when any fails, 2 when any file is bad input (each named on stderr)."""
    failed = False
    bad: list[str] = []
    for file in files:
        try:
            data, output = _settle_file(file, paytable_path)
            if not isinstance(data, dict) or not isinstance(data.get("expected"), dict):
                raise ScenarioError("expected", "missing (an object in the output format)")
        except ScenarioError as error:
            bad.append(f"{file}: {error}")
            continue
        name = data.get("name") or Path(file).stem
        problems = compare(data["expected"], output)
        if problems:
            failed = True
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            click.echo(f"FAIL {name}: {problems[0]}{more}")
        else:
            click.echo(f"PASS {name}")
    if bad:
        fail(*bad)
    sys.exit(1 if failed else 0)


# --- hand -------------------------------------------------------------------------------------

def _hand_json(cards: tuple[Card, ...]) -> dict[str, Any]:
    hand = evaluate(cards)
    return {"category": hand.category.slug, "best_five": format_cards(hand.best_five), "strength": hand.strength}


def _hand_cards(raw: object, field: str) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise InvalidCard("must be a list of 5 to 7 cards", field=field)
    cards = parse_cards(raw, what=field)
    if not 5 <= len(cards) <= 7:
        raise InvalidCard(f"{len(cards)} cards, a hand has 5 to 7", field=field)
    return cards


@click.command("hand")
@click.argument("cards", nargs=-1)
@click.option("--jsonl", is_flag=True, help='Read JSON lines {"cards": [...]} on stdin, write one result line each.')
def hand(cards: tuple[str, ...], jsonl: bool) -> None:
    """Evaluate 5-7 CARDS (R7): category, best five and strength (higher is stronger)."""
    if jsonl:
        _hand_lines()
        return
    with refused(InvalidCard):
        result = _hand_json(_hand_cards(list(cards), "cards"))
    click.echo(f"{result['category']} {' '.join(result['best_five'])} strength {result['strength']}")


def _hand_lines() -> None:
    """One result line per input line, in order; a bad line stops with exit 2 naming the line."""
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            fail(f"line {number}: malformed JSON: {error.msg}")
        with refused(InvalidCard, prefix=f"line {number}: "):
            if not isinstance(data, dict) or "cards" not in data:
                raise InvalidCard("missing", field="cards")
            result = _hand_json(_hand_cards(data["cards"], "cards"))
        write_json(result, indent=None)


# --- paytable ---------------------------------------------------------------------------------

@click.group("paytable")
def paytable_group() -> None:
    """Validate and show versioned paytable files."""


def _load_or_fail(file: str) -> Paytable:
    """The validated file, or every problem on its own line naming its key, and exit 2."""
    try:
        return load_paytable(file)
    except InvalidPaytable as error:
        fail(*(f"{error.source}: {problem}" for problem in error.problems))


@paytable_group.command("validate")
@click.argument("file")
def paytable_validate(file: str) -> None:
    """Exit 0 with a summary when FILE is valid; otherwise one line per problem and exit 2."""
    table = _load_or_fail(file)
    click.echo(f"valid: {table.id} version {table.version} ({table.title}), effective {table.effective_from}, "
               f"{len(table.currencies)} currencies, sha256 {table.sha256}")


@paytable_group.command("show")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the validated values as JSON.")
def paytable_show(file: str, as_json: bool) -> None:
    """Print the validated paytable."""
    document = paytable_document(_load_or_fail(file))
    if as_json:
        write_json(document)
    else:
        click.echo("\n".join(f"{key}: {value}" for key, value in _flatten(document)))


def paytable_document(table: Paytable) -> dict[str, Any]:
    """Every validated value of ``table``, amounts as exact strings."""
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


COMMANDS = (scenario, hand, paytable_group)
