"""JSON, one way for the whole project: the API, the audit log and every command's output.

:func:`jsonable` turns service results into JSON values and :func:`dumps` writes them, so an amount
is always the same exact decimal string (never a float, R6) wherever it is shown.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .core.money import format_amount


def jsonable(value: Any) -> Any:
    """Dataclasses as objects, Decimals as exact strings, times in ISO 8601, keys as strings."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, Decimal):
        return format_amount(value)
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    return value


def dumps(value: Any, *, indent: int | None = 2) -> str:
    """``value`` as JSON text (UTF-8 characters kept as they are); ``indent=None`` for one line."""
    return json.dumps(jsonable(value), indent=indent, ensure_ascii=False)
