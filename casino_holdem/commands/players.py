"""The ``player`` commands: create players and credit their wallets, one at a time or a whole floor
at once from JSON lines (``create-many``, ``deposit-many``: the load benchmark sets up a thousand
players in two commands instead of two thousand).

A batch is one transaction: a bad line refuses it (one line on stderr naming the line and the
field, exit 2) and nothing is created or credited."""

from __future__ import annotations

import json
from typing import IO, Any

import click

from .accounts import acting, operator_option
from .context import call_service, service_context
from .terminal import fail, write_json


@click.group("player")
def player_group() -> None:
    """Create players and credit their wallets."""


@player_group.command("create")
@click.argument("username")
@click.option("--currency", required=True, help="The account currency (R6), e.g. USD, RMB, THB.")
@click.password_option()
def player_create(username: str, currency: str, password: str) -> None:
    """Create a player with a wallet in CURRENCY."""
    from ..services.wallet import create_player

    call_service(create_player, username, password, currency)


@player_group.command("deposit")
@click.argument("username")
@click.argument("amount")
@click.option("--key", "idempotency_key", required=True, help="The cashier's reference: a repeat credits nothing.")
@operator_option
def player_deposit(username: str, amount: str, idempotency_key: str, operator: str) -> None:
    """Credit AMOUNT (the player's currency) to USERNAME's wallet."""
    from ..services.errors import NotFound
    from ..services.wallet import deposit, find_player

    with service_context():
        player = find_player(username)
        if player is None:
            raise NotFound(f"username: no player {username!r}", "username")
        write_json(deposit(player.id, amount, idempotency_key, by=acting(operator, "manager")))


def json_lines(source: IO[str], fields: tuple[str, str, str]) -> list[tuple[str, str, str]]:
    """Each non-blank line of ``source`` as a JSON object with these string fields, in order;
    anything else is refused naming the line and the field."""
    rows: list[tuple[str, str, str]] = []
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            row: Any = json.loads(line)
        except ValueError:
            fail(f"line {number}: not a JSON object")
        if not isinstance(row, dict):
            fail(f"line {number}: not a JSON object")
        for field in fields:
            if not isinstance(row.get(field), str):
                fail(f"line {number}: {field}: required, a string")
        rows.append(tuple(row[field] for field in fields))
    return rows


@player_group.command("create-many")
@click.argument("source", type=click.File("r"))
def player_create_many(source: IO[str]) -> None:
    """Create the players of SOURCE (a file, or - for standard input) not there yet: one JSON
    object a line, {"username", "currency", "password"}. Prints how many were created and how
    many existed. Each distinct password is hashed once for the batch."""
    from ..services.wallet import NewPlayer, create_players

    rows = json_lines(source, ("username", "currency", "password"))
    call_service(create_players, [NewPlayer(*row) for row in rows])


@player_group.command("deposit-many")
@click.argument("source", type=click.File("r"))
@operator_option
def player_deposit_many(source: IO[str], operator: str) -> None:
    """Credit every wallet of SOURCE (a file, or - for standard input): one JSON object a line,
    {"username", "amount", "key"}; a key used before credits nothing again. Prints how many."""
    from ..services.wallet import deposit_many

    rows = json_lines(source, ("username", "amount", "key"))
    with service_context():
        write_json({"deposits": deposit_many(rows, by=acting(operator, "manager"))})


COMMANDS = (player_group,)
