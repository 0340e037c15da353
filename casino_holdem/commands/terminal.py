"""What every command says, in one place: JSON on standard output through one writer, and bad input
as one line on standard error naming the field, with exit status 2 and nothing changed."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click

from ..serialize import dumps

#: the exit status of bad input (a refused request changed nothing)
BAD_INPUT = 2


def fail(*lines: str) -> NoReturn:
    """Refuse bad input: each line (one per problem, usually one) on standard error, exit 2."""
    for line in lines:
        click.echo(line.replace("\n", " "), err=True)
    sys.exit(BAD_INPUT)


@contextmanager
def refused(*errors: type[Exception], prefix: str = "") -> Iterator[None]:
    """Any of ``errors`` raised inside is bad input: its message (after ``prefix``) and exit 2."""
    try:
        yield
    except errors as error:
        fail(f"{prefix}{error}")


def write_json(value: Any, *, indent: int | None = 2) -> None:
    """The one JSON writer of the commands (``indent=None``: one line, for JSON lines)."""
    click.echo(dumps(value, indent=indent))
