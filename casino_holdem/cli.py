"""The ``casino-holdem`` command: every command of :mod:`casino_holdem.commands` on one group.

Bad input never shows a traceback: it prints one line on standard error naming the field (or the
``CASINO_*`` variable) and exits 2, having changed nothing.
"""

from __future__ import annotations

from typing import Any

import click

from .commands import accounts, audit, compliance, operator, players, server, verify
from .commands.terminal import refused
from .settings import InvalidSetting


class _Commands(click.Group):
    """The group whose every command refuses a bad ``CASINO_*`` value through the exit-2 path."""

    def invoke(self, ctx: click.Context) -> Any:
        with refused(InvalidSetting):
            return super().invoke(ctx)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Texas Hold'em Bonus Progressive: game core, compliance tools and the live game server."""


for module in (verify, compliance, server, operator, accounts, players, audit):
    for command in module.COMMANDS:
        main.add_command(command)
