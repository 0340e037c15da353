"""The table operator's commands: ``table``, ``pool``, ``void``, ``paytables`` and ``report`` (the
back-office accounts are :mod:`.accounts`, the players :mod:`.players`).

Each command is one service call (one transaction). ``--operator`` names an active back-office
account whose role has the duty (the same separation as the web's guard), and the audit log
records the action under that account's id and role. A refused request prints the service's
one-line reason naming the field and exits 2, changing nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import click

from .. import settings
from ..core.live import DEALING_MODES
from ..core.paytable import Paytable
from ..core.rules import Stage, VoidReason
from ..serialize import jsonable
from .accounts import acting, operator_option
from .context import call_service, service_context
from .figures import figures_command
from .terminal import write_json

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
    from ..services.tables import create_table

    with service_context():
        write_json(create_table(
            name, pool_id, paytable=paytable, ante_min=ante[0] if ante else None, ante_max=ante[1] if ante else None,
            bonus_min=bonus[0] if bonus else None, bonus_max=bonus[1] if bonus else None, max_bettors=max_bettors,
            betting_seconds=settings.value("CASINO_BETTING_SECONDS") if betting_seconds is None else betting_seconds,
            decision_seconds=(settings.value("CASINO_DECISION_SECONDS") if decision_seconds is None
                              else decision_seconds), dealing=dealing, by=acting(operator, "manager")))


@table_group.command("dealing")
@click.argument("table_id", type=int)
@click.argument("mode", type=click.Choice(DEALING_MODES))
@click.option("--reason", required=True)
@operator_option
def table_dealing(table_id: int, mode: str, reason: str, operator: str) -> None:
    """Set who deals TABLE_ID from its next round: rng (the server's shuffle) or live (a dealer's console)."""
    from ..services.tables import edit_table

    with service_context():
        write_json(edit_table(table_id, acting(operator, "manager"), reason, dealing=mode))


def _set_open(is_open: bool) -> Callable[[int, str], None]:
    def command(table_id: int, operator: str) -> None:
        from ..services.tables import set_table_open

        with service_context():
            write_json(set_table_open(table_id, is_open, acting(operator, "pit", "manager")))

    return command


table_group.command("open", help="Open table TABLE_ID: it deals rounds again.")(
    operator_option(click.argument("table_id", type=int)(_set_open(True))))
table_group.command("close", help="Close table TABLE_ID: the round in play finishes, no new round opens.")(
    operator_option(click.argument("table_id", type=int)(_set_open(False))))


@table_group.command("suspend")
@click.argument("table_id", type=int)
@click.option("--reason", required=True, help="Why (audited; shown in the back office).")
@operator_option
def table_suspend(table_id: int, reason: str, operator: str) -> None:
    """Suspend TABLE_ID: no bet and no new round until resumed; the round in play finishes."""
    from ..services.tables import suspend_table

    with service_context():
        write_json(suspend_table(table_id, reason, acting(operator, "pit", "manager")))


@table_group.command("resume")
@click.argument("table_id", type=int)
@click.option("--reason", default="", help="Why (audited).")
@operator_option
def table_resume(table_id: int, reason: str, operator: str) -> None:
    """Resume a suspended TABLE_ID: it takes bets and opens rounds again."""
    from ..services.tables import resume_table

    with service_context():
        write_json(resume_table(table_id, reason, acting(operator, "pit", "manager")))


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

    with service_context():
        write_json(top_up(pool_id, amount, reason, acting(operator, "manager"), idempotency_key=idempotency_key))



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

    with service_context():
        write_json(void_round(round_id, reason, stage, by=acting(operator, "pit")))


@pool_group.command("request-correction")
@click.argument("pool_id", type=int)
@click.option("--amount", required=True, help="Signed base units, e.g. --amount -12.5.")
@click.option("--reason", required=True)
@operator_option
def pool_request_correction(pool_id: int, amount: str, reason: str, operator: str) -> None:
    """Ask for a correction of the pool (R9); nothing moves until a second manager approves it."""
    from ..services.pool_admin import request_correction

    with service_context():
        write_json(request_correction(pool_id, amount, reason, acting(operator, "manager")))


@pool_group.command("approve-correction")
@click.argument("correction_id", type=int)
@operator_option
def pool_approve_correction(correction_id: int, operator: str) -> None:
    """Apply a requested correction as a second manager (four-eyes)."""
    from ..services.pool_admin import approve_correction

    with service_context():
        write_json(approve_correction(correction_id, acting(operator, "manager")))


# --- the paytable lifecycle ---------------------------------------------------------------------

@click.group("paytables")
def paytables_group() -> None:
    """Paytable versions kept in the database: import, approve (four-eyes), assign to a table."""


paytables_group.add_command(figures_command)


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
    from ..services.paytable_versions import submit

    with service_context():
        write_json(submit(path.read_bytes(), acting(operator, "manager")))


@paytables_group.command("approve")
@click.argument("version_id", type=int)
@operator_option
def paytables_approve(version_id: int, operator: str) -> None:
    """Approve a draft as a manager other than the one who imported it (four-eyes)."""
    from ..services.paytable_versions import approve

    with service_context():
        write_json(approve(version_id, acting(operator, "manager")))


@paytables_group.command("assign")
@click.argument("table_id", type=int)
@click.argument("version_id", type=int)
@click.option("--reason", required=True)
@operator_option
def paytables_assign(table_id: int, version_id: int, reason: str, operator: str) -> None:
    """Give TABLE_ID an approved version from its next round, never before its effective date."""
    from ..services.paytable_versions import assign

    with service_context():
        change = assign(table_id, version_id, acting(operator, "manager"), reason)
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


COMMANDS = (table_group, pool_group, void, paytables_group, report)
