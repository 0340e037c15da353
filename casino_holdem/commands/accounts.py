"""Back-office accounts (issue 11): ``operator create|list|disable|password``, and the
``--operator`` option of the operator's commands, which names an active account whose role has
the command's duty, so that the audit log records the action under that account's id and role.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from .context import service_context
from .terminal import write_json

if TYPE_CHECKING:
    from ..services.operators import OperatorView

operator_option = click.option("--operator", required=True,
                               help="The operator account doing this (its role must have the duty; audited).")


def acting(name: str, *roles: str) -> OperatorView:
    """The active operator ``--operator`` names, refused unless their role is one of ``roles``
    (issue 11: pit runs tables and voids, manager paytables, settings and pools)."""
    from ..services.errors import Unprocessable
    from ..services.operators import find

    operator = find(name)
    if operator is None or not operator.active:
        raise Unprocessable(f"operator: no active operator {name!r} (see: casino-holdem operator create)",
                            "operator")
    if operator.role.value not in roles:
        raise Unprocessable(f"operator: {name} is {operator.role.value}; this is a duty of {' or '.join(roles)}",
                            "operator")
    return operator


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

    with service_context():
        write_json(create(name, _new_password(password_stdin), role))


@operator_group.command("list")
def operator_list() -> None:
    """Every operator with role and whether active."""
    from ..services.operators import list_operators

    with service_context():
        write_json(list_operators())


@operator_group.command("disable")
@click.argument("name")
def operator_disable(name: str) -> None:
    """Disable operator NAME: no more sign-ins, open sessions end now."""
    from ..services.operators import disable

    with service_context():
        write_json(disable(name))


@operator_group.command("password")
@click.argument("name")
@password_stdin_option
def operator_password(name: str, password_stdin: bool) -> None:
    """Set operator NAME's password; every session signed in with the old one ends."""
    from ..services.operators import set_password

    with service_context():
        write_json(set_password(name, _new_password(password_stdin)))


COMMANDS = (operator_group,)
