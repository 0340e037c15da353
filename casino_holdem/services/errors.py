"""Domain errors of the services: each has an HTTP-like ``status`` and names the field at fault, so
the web layer maps them to a JSON error and the CLI to exit 2 without knowing any rule.

Messages never carry hidden information (the Dealer's hole cards, the undealt deck).
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refused request; nothing was changed (the transaction was rolled back)."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def to_json(self) -> dict[str, Any]:
        return {"error": self.message, "field": self.field, "status": self.status}


class BadRequest(ServiceError):
    """Malformed input: a value that is not an amount, an unknown action name."""

    status = 400


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
