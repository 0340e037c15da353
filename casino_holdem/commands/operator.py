"""The table operator's commands: ``table``, ``pool``, ``void``, ``paytables``, ``report`` and
``operator`` (back-office accounts, issue 11); ``player`` is in :mod:`.players`.

Each command is one service call (one transaction, audited under ``--operator``). A refused
request prints the service's one-line reason naming the field and exits 2, changing nothing.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from dataclasses import asdict
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import click

from .. import settings
from ..core.live import DEALING_MODES
from ..core.paytable import Paytable
from ..core.rules import Stage, VoidReason
from ..serialize import jsonable
from .context import service_context
from .terminal import write_json

T = TypeVar("T")

operator_option = click.option("--operator", required=True, help="Who does this (recorded in the audit log).")


def call_service(function: Callable[..., T], *args: Any, **kwargs: Any) -> None:
    """One service call (one transaction) in the commands' app, its result as JSON; a refusal exits 2."""
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

    call_service(list_tables)


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

    call_service(set_dealing, table_id, mode, operator)


def _set_open(is_open: bool) -> Callable[[int, str], None]:
    def command(table_id: int, operator: str) -> None:
        from ..services.tables import set_table_open

        call_service(set_table_open, table_id, is_open, operator)

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

    call_service(list_pools)


@pool_group.command("create")
@click.argument("name")
def pool_create(name: str) -> None:
    """Create an empty pool NAME (or show it when it exists)."""
    from ..services.jackpot import ensure_pool

    call_service(ensure_pool, name)


@pool_group.command("top-up")
@click.argument("pool_id", type=int)
@click.argument("amount")
@click.option("--reason", required=True)
@click.option("--key", "idempotency_key", default=None, help="Makes a repeat of this top-up a no-op.")
@operator_option
def pool_top_up(pool_id: int, amount: str, reason: str, idempotency_key: str | None, operator: str) -> None:
    """Put AMOUNT base units of house money into the pool (R5)."""
    from ..services.jackpot import top_up

    call_service(top_up, pool_id, amount, reason, operator, idempotency_key=idempotency_key)


@pool_group.command("correct")
@click.argument("pool_id", type=int)
@click.option("--amount", required=True, help="Signed base units, e.g. --amount -12.5.")
@click.option("--reason", required=True)
@operator_option
def pool_correct(pool_id: int, amount: str, reason: str, operator: str) -> None:
    """Correct a wrongly displayed pool by --amount signed base units (R9); never below zero (R5)."""
    from ..services.jackpot import correct

    call_service(correct, pool_id, amount, reason, operator)


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

    call_service(void_round, round_id, reason, stage, operator=operator)


@pool_group.command("request-correction")
@click.argument("pool_id", type=int)
@click.option("--amount", required=True, help="Signed base units, e.g. --amount -12.5.")
@click.option("--reason", required=True)
@operator_option
def pool_request_correction(pool_id: int, amount: str, reason: str, operator: str) -> None:
    """Ask for a correction of the pool (R9); nothing moves until a second manager approves it."""
    from ..services import audit
    from ..services.pool_admin import request_correction

    call_service(request_correction, pool_id, amount, reason, audit.operator_actor(operator))


@pool_group.command("approve-correction")
@click.argument("correction_id", type=int)
@operator_option
def pool_approve_correction(correction_id: int, operator: str) -> None:
    """Apply a requested correction as a second manager (four-eyes)."""
    from ..services import audit
    from ..services.pool_admin import approve_correction

    call_service(approve_correction, correction_id, audit.operator_actor(operator))


# --- the paytable lifecycle ---------------------------------------------------------------------

@click.group("paytables")
def paytables_group() -> None:
    """Paytable versions kept in the database: import, approve (four-eyes), assign to a table."""


@paytables_group.command("list")
def paytables_list() -> None:
    """Every stored version with its SHA-256, effective date and status."""
    from ..services.paytable_versions import list_versions

    call_service(list_versions)


@paytables_group.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@operator_option
def paytables_import(path: Path, operator: str) -> None:
    """Store the file at PATH as a draft version (validated; every problem named by its key)."""
    from ..services import audit
    from ..services.paytable_versions import submit

    call_service(submit, path.read_bytes(), audit.operator_actor(operator))


@paytables_group.command("approve")
@click.argument("version_id", type=int)
@operator_option
def paytables_approve(version_id: int, operator: str) -> None:
    """Approve a draft as a manager other than the one who imported it (four-eyes)."""
    from ..services import audit
    from ..services.paytable_versions import approve

    call_service(approve, version_id, audit.operator_actor(operator))


@paytables_group.command("assign")
@click.argument("table_id", type=int)
@click.argument("version_id", type=int)
@click.option("--reason", required=True)
@operator_option
def paytables_assign(table_id: int, version_id: int, reason: str, operator: str) -> None:
    """Give TABLE_ID an approved version from its next round, never before its effective date."""
    from ..services import audit
    from ..services.paytable_versions import assign

    with service_context():
        change = assign(table_id, version_id, audit.operator_actor(operator), reason)
        write_json({"table_id": table_id, "settings": change.settings, "not_before": change.not_before})


@paytables_group.command("compare")
@click.argument("left_id", type=int)
@click.argument("right_id", type=int)
def paytables_compare(left_id: int, right_id: int) -> None:
    """Two stored versions key by key, the differences marked, and the change of the exact Bonus return (R4)."""
    from ..services.paytable_versions import compare

    call_service(compare, left_id, right_id, exact_bonus)


def exact_bonus(paytable: Paytable) -> Fraction:
    """R4: the Bonus's exact return from the compliance tools (services never import them)."""
    from ..compliance.rtp import bonus_figures

    return bonus_figures(paytable).rtp


# --- reports ------------------------------------------------------------------------------------

@click.command("report")
@click.option("--from", "start", type=click.DateTime(["%Y-%m-%d"]), required=True, help="First day (UTC).")
@click.option("--to", "end", type=click.DateTime(["%Y-%m-%d"]), required=True, help="Last day (UTC), included.")
@click.option("--table", "table_id", type=int, default=None, help="One table (default: all).")
@click.option("--csv", "as_csv", is_flag=True, help="CSV: one row per bet type and currency, then the totals.")
def report(start: dt.datetime, end: dt.datetime, table_id: int | None, as_csv: bool) -> None:
    """Takings of the finished rounds from --from to --to: stakes, returns, revenue checked against the ledger."""
    from ..services import reports

    first, _ = reports.day_bounds(start.date())
    _, last = reports.day_bounds(end.date())
    with service_context():
        result = reports.report(first, last, table_id, exact_bonus=exact_bonus)
        if as_csv:
            click.echo(reports.to_csv([result]), nl=False)
        else:
            write_json({**jsonable(result), "ledger_agrees": result.ledger_agrees})


# --- back-office accounts (issue 11) -----------------------------------------------------------

@click.group("operator")
def operator_group() -> None:
    """Back-office accounts: pit, manager, auditor and dealer roles."""


def _new_password(from_stdin: bool) -> str:
    """From a hidden prompt (typed twice) or the first line of stdin: never an argument, which
    would sit in the shell history and the process list."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    return str(click.prompt("Password", hide_input=True, confirmation_prompt=True))


password_stdin_option = click.option("--password-stdin", is_flag=True,
                                     help="Read the password from the first line of standard input.")


@operator_group.command("create")
@click.argument("name")
@click.option("--role", required=True, help="pit, manager, auditor or dealer.")
@password_stdin_option
def operator_create(name: str, role: str, password_stdin: bool) -> None:
    """Create operator NAME with ROLE (the password is asked for)."""
    from ..services.operators import create

    call_service(create, name, _new_password(password_stdin), role)


@operator_group.command("list")
def operator_list() -> None:
    """Every operator with role and whether active."""
    from ..services.operators import list_operators

    call_service(list_operators)


@operator_group.command("disable")
@click.argument("name")
def operator_disable(name: str) -> None:
    """Disable operator NAME: no more sign-ins, open sessions end now."""
    from ..services.operators import disable

    call_service(disable, name)


@operator_group.command("password")
@click.argument("name")
@password_stdin_option
def operator_password(name: str, password_stdin: bool) -> None:
    """Set operator NAME's password; every session signed in with the old one ends."""
    from ..services.operators import set_password

    call_service(set_password, name, _new_password(password_stdin))


COMMANDS = (table_group, pool_group, void, paytables_group, report, operator_group)
