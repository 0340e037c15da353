"""Reading an operator's request: JSON bodies for the API and form fields for the pages, each
refusal a :class:`~casino_holdem.services.errors.BadRequest` naming its field."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import request

from ...services.errors import BadRequest
from ...services.operators import OperatorView
from ..security import current_operator

#: table settings that are amounts (base units, R6) and whole numbers
AMOUNTS = ("ante_min", "ante_max", "bonus_min", "bonus_max")
WHOLE = ("max_bettors", "betting_seconds", "decision_seconds", "pool_id")


def me() -> OperatorView:
    """The signed-in operator, whom every back-office action is audited under (id and role)."""
    operator = current_operator()
    if operator is None:  # the guard ran first; this is a programming error, not a visitor's
        raise RuntimeError("me() outside an operator_required view")
    return operator


def body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("body: a JSON object is required (Content-Type: application/json)")
    return data


def text(data: Mapping[str, Any], name: str, *, limit: int = 500, required: bool = True) -> str:
    value = data.get(name)
    if value in (None, "") and not required:
        return ""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise BadRequest(f"{name}: required, a string of 1 to {limit} characters", name)
    return value


def whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise BadRequest(f"{name}: a whole number", name)
    try:
        return int(value)
    except ValueError:
        raise BadRequest(f"{name}: a whole number", name) from None


def amount(value: Any, name: str) -> Decimal:
    """An exact decimal from a string (or a whole JSON number); floats are refused (not exact)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise BadRequest(f"{name}: an exact decimal string such as \"10.50\"", name)
    try:
        return Decimal(value)
    except InvalidOperation:
        raise BadRequest(f"{name}: an exact decimal string such as \"10.50\"", name) from None


def table_settings(data: Mapping[str, Any]) -> dict[str, Decimal | int | str | None]:
    """The table settings present in ``data``; an empty limit clears it."""
    settings: dict[str, Decimal | int | str | None] = {}
    for name in AMOUNTS:
        if name in data:
            settings[name] = None if data[name] in (None, "") else amount(data[name], name)
    for name in WHOLE:
        if name in data and data[name] not in (None, ""):
            settings[name] = whole(data[name], name)
    if "max_bettors" in data and data["max_bettors"] in (None, ""):
        settings["max_bettors"] = None
    if data.get("dealing") not in (None, ""):
        settings["dealing"] = text(data, "dealing", limit=8)
    return settings


def new_table(data: Mapping[str, Any]) -> tuple[str, int, dict[str, Decimal | int | str | None]]:
    """A table to create (issue 11): its name, linked pool (R5) and settings."""
    settings = table_settings(data)
    pool = settings.pop("pool_id", None)
    if pool is None:
        raise BadRequest("pool_id: required, the jackpot pool the table is linked to (R5)", "pool_id")
    return text(data, "name", limit=64), int(pool), settings


def instant(value: str | None, name: str) -> dt.datetime | None:
    """An ISO 8601 date or time (UTC when no zone is given)."""
    if not value:
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        raise BadRequest(f"{name}: a date or time such as 2026-12-01 or 2026-12-01T12:00:00Z", name) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def day(value: str | None, name: str) -> dt.date:
    if not value:
        raise BadRequest(f"{name}: required, a date YYYY-MM-DD", name)
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise BadRequest(f"{name}: a date YYYY-MM-DD", name) from None
