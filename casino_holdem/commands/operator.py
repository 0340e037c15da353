"""The table operator's commands: ``table``, ``pool``, ``player`` and ``void``.

Each command is one service call (one transaction, audited under ``--operator``). A refused
request prints the service's one-line reason naming the field and exits 2, changing nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from decimal import Decimal
from typing import Any, TypeVar

import click

from .. import settings
from ..core.live import DEALING_MODES
from ..core.rules import Stage, VoidReason
from .context import service_context
from .terminal import write_json

T = TypeVar("T")

operator_option = click.option("--operator", required=True, help="Who does this (recorded in the audit log).")


def _call(function: Callable[..., T], *args: Any, **kwargs: Any) -> None:
    with service_context():
        write_json(function(*args, **kwargs))


# --- tables -----------------------------------------------------------------------------------

@click.group("table")
def table_group() -> None:
    """List, create, open and close tables."""


@table_group.command("list")
def table_list() -> None:
    """Every table with its paytable, limits (base units), timers and pool."""
    from ..services.tables import list_tables

    _call(list_tables)


@table_group.command("create")
@click.argument("name")
@click.option("--pool", "pool_id", type=int, required=True, help="The jackpot pool id the table is linked to (R5).")
@click.option("--paytable", default="standard", show_default=True, help="A paytable id, id@version or file.")
@click.option("--ante", nargs=2, type=Decimal, default=None, help="Ante MIN MAX in base units (R6 scales them).")
@click.option("--bonus", nargs=2, type=Decimal, default=None, help="Bonus MIN MAX in base units.")
@click.option("--max-bettors", type=int, default=None, help="The operator's cap on bettors per round (R1).")
@click.option("--betting-seconds", type=int, default=None, help="The betting window (default: CASINO_BETTING_SECONDS).")
@click.option("--decision-seconds", type=int, default=None,
              help="Each decision window, R8 (default: CASINO_DECISION_SECONDS).")
@click.option("--dealing", type=click.Choice(DEALING_MODES), default="rng", show_default=True,
              help="Who deals: the server's shuffle (rng) or a dealer's console (live, R1, R9).")
@operator_option
def table_create(name: str, pool_id: int, paytable: str, ante: tuple[Decimal, Decimal] | None,
                 bonus: tuple[Decimal, Decimal] | None, max_bettors: int | None, betting_seconds: int | None,
                 decision_seconds: int | None, dealing: str, operator: str) -> None:
    """Create an open table NAME on a paytable file (recorded by id, version and SHA-256)."""
    from ..services.live_dealing import set_dealing
    from ..services.tables import create_table

    with service_context():
        view = create_table(
            name, pool_id, paytable=paytable, ante_min=ante[0] if ante else None, ante_max=ante[1] if ante else None,
            bonus_min=bonus[0] if bonus else None, bonus_max=bonus[1] if bonus else None, max_bettors=max_bettors,
            betting_seconds=settings.value("CASINO_BETTING_SECONDS") if betting_seconds is None else betting_seconds,
            decision_seconds=(settings.value("CASINO_DECISION_SECONDS") if decision_seconds is None
                              else decision_seconds), operator=operator)
        write_json({**asdict(view), "dealing": set_dealing(view.id, dealing, operator)})


@table_group.command("dealing")
@click.argument("table_id", type=int)
@click.argument("mode", type=click.Choice(DEALING_MODES))
@operator_option
def table_dealing(table_id: int, mode: str, operator: str) -> None:
    """Set who deals TABLE_ID from its next round: rng (the server's shuffle) or live (a dealer's console)."""
    from ..services.live_dealing import set_dealing

    _call(set_dealing, table_id, mode, operator)


def _set_open(is_open: bool) -> Callable[[int, str], None]:
    def command(table_id: int, operator: str) -> None:
        from ..services.tables import set_table_open

        _call(set_table_open, table_id, is_open, operator)

    return command


table_group.command("open", help="Open table TABLE_ID: it deals rounds again.")(
    operator_option(click.argument("table_id", type=int)(_set_open(True))))
table_group.command("close", help="Close table TABLE_ID: the round in play finishes, no new round opens.")(
    operator_option(click.argument("table_id", type=int)(_set_open(False))))


# --- jackpot pools ------------------------------------------------------------------------------

@click.group("pool")
def pool_group() -> None:
    """Jackpot pools: meters, house top-ups (R5 seed) and audited corrections (R9)."""


@pool_group.command("list")
def pool_list() -> None:
    """Every pool in base units and its meter in each currency (R6)."""
    from ..services.jackpot import list_pools

    _call(list_pools)


@pool_group.command("create")
@click.argument("name")
def pool_create(name: str) -> None:
    """Create an empty pool NAME (or show it when it exists)."""
    from ..services.jackpot import ensure_pool

    _call(ensure_pool, name)


@pool_group.command("top-up")
@click.argument("pool_id", type=int)
@click.argument("amount")
@click.option("--reason", required=True)
@click.option("--key", "idempotency_key", default=None, help="Makes a repeat of this top-up a no-op.")
@operator_option
def pool_top_up(pool_id: int, amount: str, reason: str, idempotency_key: str | None, operator: str) -> None:
    """Put AMOUNT base units of house money into the pool (R5)."""
    from ..services.jackpot import top_up

    _call(top_up, pool_id, amount, reason, operator, idempotency_key=idempotency_key)


@pool_group.command("correct")
@click.argument("pool_id", type=int)
@click.option("--amount", required=True, help="Signed base units, e.g. --amount -12.5.")
@click.option("--reason", required=True)
@operator_option
def pool_correct(pool_id: int, amount: str, reason: str, operator: str) -> None:
    """Correct a wrongly displayed pool by --amount signed base units (R9); never below zero (R5)."""
    from ..services.jackpot import correct

    _call(correct, pool_id, amount, reason, operator)


# --- players ------------------------------------------------------------------------------------

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

    _call(create_player, username, password, currency)


@player_group.command("deposit")
@click.argument("username")
@click.argument("amount")
@click.option("--key", "idempotency_key", required=True, help="The cashier's reference: a repeat credits nothing.")
@operator_option
def player_deposit(username: str, amount: str, idempotency_key: str, operator: str) -> None:
    """Credit AMOUNT (the player's currency) to USERNAME's wallet."""
    from ..services import audit
    from ..services.errors import NotFound
    from ..services.wallet import deposit, find_player

    with service_context():
        player = find_player(username)
        if player is None:
            raise NotFound(f"username: no player {username!r}", "username")
        write_json(deposit(player.id, amount, idempotency_key, actor=audit.operator_actor(operator)))


# --- R9: voids ----------------------------------------------------------------------------------

@click.command("void")
@click.argument("round_id", type=int)
@click.option("--reason", required=True, type=click.Choice([r.value for r in VoidReason]))
@click.option("--stage", type=click.Choice([s.value for s in Stage]), default=None,
              help="The step during which the incident happened (default: the step under way).")
@operator_option
def void(round_id: int, reason: str, stage: str | None, operator: str) -> None:
    """Void round ROUND_ID (R9): refunds, reversed contributions, an audit entry."""
    from ..services.voids import void_round

    _call(void_round, round_id, reason, stage, operator=operator)


COMMANDS = (table_group, pool_group, player_group, void)
