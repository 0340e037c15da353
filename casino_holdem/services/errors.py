"""Domain errors of the services, and the one place core refusals become them.

Each service error has an HTTP-like ``status`` and names the field at fault, so the web layer
maps it to a JSON error (``web/errors.py``) and the CLI to exit 2 without knowing any rule.
The pure core refuses with its own exceptions (``RuleViolation``, ``InvalidBet``,
``InvalidPaytable``, ``InvalidAmount``, ``InvalidCard``); :func:`core_refusals` is the only
translation from those to service errors, as ``web/errors.py`` is the only one from service
errors to HTTP.

Messages never carry hidden information (the Dealer's hole cards, the undealt deck).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TypeVar

from ..core.errors import CoreError, InvalidAmount, InvalidBet, InvalidCard, InvalidPaytable, RuleViolation

E = TypeVar("E", bound=StrEnum)


class ServiceError(Exception):
    """A refused request; nothing was changed (the transaction was rolled back)."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class BadRequest(ServiceError):
    """Malformed input: a value that is not an amount, an unknown action name."""

    status = 400


class Forbidden(ServiceError):
    """Not this operator's authority: a dealer calling a void only the house may call (R9)."""

    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """Not allowed now: betting closed, a decision already made, an idempotency key reused with
    different content."""

    status = 409


class Unprocessable(ServiceError):
    """Well-formed but refused by the rules: outside the limits, not a whole unit, not enough money."""

    status = 422


class InsufficientFunds(Unprocessable):
    def __init__(self, message: str) -> None:
        super().__init__(message, "balance")


#: What each kind of core refusal becomes, looked up along the error's class hierarchy (the most
#: specific class first): the service error, and whether the field goes in front of the core's
#: message (a paytable's message names its file, not the request's field). ``CoreError``, the
#: base of every core refusal, covers any other (a scenario's, say).
CORE_REFUSALS: dict[type[Exception], tuple[type[ServiceError], bool]] = {
    InvalidBet: (Unprocessable, False),     # R2.1, R6: outside the limits or the currency's unit
    RuleViolation: (Conflict, False),       # R2, R9: not allowed now
    InvalidPaytable: (Unprocessable, True),
    InvalidAmount: (BadRequest, False),     # not an amount at all
    InvalidCard: (BadRequest, False),
    CoreError: (Unprocessable, False),
}


def from_core(error: Exception, field: str | None = None) -> ServiceError:
    """The service error for a core refusal; ``field`` is used when the core's error names none."""
    kind, named = next(CORE_REFUSALS[cls] for cls in type(error).__mro__ if cls in CORE_REFUSALS)
    at = getattr(error, "field", None) or field
    return kind(f"{at}: {error}" if named else str(error), at)


@contextmanager
def core_refusals(field: str | None = None) -> Iterator[None]:
    """Turn a core refusal raised inside the block into its service error (see :data:`CORE_REFUSALS`)."""
    try:
        yield
    except tuple(CORE_REFUSALS) as error:
        raise from_core(error, field) from None


def one_of(choices: type[E], value: str, field: str) -> E:
    """``value`` as one of the rule book's names (an action, a void reason, a stage), or
    :class:`BadRequest` listing them."""
    try:
        return choices(value)
    except ValueError:
        raise BadRequest(f"{field}: {value!r} must be one of {', '.join(c.value for c in choices)}", field) from None
