"""The auditor's commands: ``replay`` (re-settle a stored round) and ``audit-ledger``."""

from __future__ import annotations

import sys

import click

from .context import make_app, service_context
from .terminal import write_json


@click.command("replay")
@click.argument("round_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the report and the replayed settlement as JSON.")
def replay(round_id: int, as_json: bool) -> None:
    """Re-settle a stored round through the core and compare with the record: exit 0 when
    identical, 1 with the differences otherwise."""
    from ..services.verify import replay as replay_round

    with service_context():
        report = replay_round(round_id)
    if as_json:
        write_json({"round_id": report.round_id, "identical": report.identical,
                    "differences": report.differences, "settlement": report.settlement})
    else:
        click.echo(f"round {round_id}: " + ("identical to the record" if report.identical else "DIFFERS"))
        for line in report.differences:
            click.echo(f"  {line}")
    sys.exit(0 if report.identical else 1)


@click.command("audit-ledger")
def audit_ledger() -> None:
    """Check every ledger invariant; list each break and exit 1, or exit 0 when sound."""
    from ..services.verify import audit_ledger as audit

    with make_app().app_context():
        problems = audit()
    for problem in problems:
        click.echo(problem)
    click.echo(f"{len(problems)} problem(s)" if problems else "ledger sound: every invariant holds")
    sys.exit(1 if problems else 0)


COMMANDS = (replay, audit_ledger)
