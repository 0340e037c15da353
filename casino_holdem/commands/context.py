"""The app the database commands work in: built from the environment (``casino_holdem.settings``),
with a service's refusal turned into the commands' one exit-2 path."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .terminal import refused, write_json

if TYPE_CHECKING:
    from flask import Flask


def make_app() -> Flask:
    """The app as configured by the ``CASINO_*`` variables (Flask is imported only when needed)."""
    from .. import create_app

    return create_app()


@contextmanager
def service_context() -> Iterator[None]:
    """An app context in which a refused request becomes one line on stderr and exit 2."""
    from ..services.errors import ServiceError

    with make_app().app_context(), refused(ServiceError):
        yield


def call_service(function: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """One service call (one transaction) in the commands' app, its result as JSON; a refusal exits 2."""
    with service_context():
        write_json(function(*args, **kwargs))
