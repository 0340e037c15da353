"""Hostile input stopped before it reaches a view (issue 10: schemathesis found 500s).

- Path ids: every ``<int:...>`` route takes 1 to 2^31-1 written in ASCII digits (the database's
  integer ids); anything else matches no route, a 404, instead of overflowing a query.
- A NUL byte in a query, form or JSON string is a 400, and so is a lone surrogate (``\\ud800``) in
  JSON: no text the game keeps contains one, and the databases refuse them mid-transaction.
- JSON bodies are parsed once here: invalid, nested deeper than :data:`MAX_JSON_DEPTH` or (on the
  API) not an object is a 400; the size limit (``MAX_CONTENT_LENGTH``) is a 413 before parsing.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import BadRequest
from werkzeug.routing import IntegerConverter, Map

MAX_ID = 2**31 - 1
MAX_JSON_DEPTH = 16
NUL = "\x00"


class IdConverter(IntegerConverter):
    """A database id in a path: 1 to :data:`MAX_ID`, ASCII digits only (``\\d`` would take ``٣``)."""

    regex = r"[0-9]{1,10}"

    def __init__(self, map: Map, min: int = 1, max: int = MAX_ID) -> None:  # noqa: A002 (werkzeug's names)
        super().__init__(map, min=min, max=max)


class RefusedInput(BadRequest):
    """A request refused before any view ran; ``field`` names the parameter at fault (None: the whole body)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _encodable(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _nested_refusal(value: Any) -> str | None:
    """Why a parsed JSON value is refused (too deep, or a NUL in a key or string), or None."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if depth > MAX_JSON_DEPTH:
            return f"nested deeper than {MAX_JSON_DEPTH} levels"
        if isinstance(item, str) and (NUL in item or not _encodable(item)):
            return "contains a NUL character or a lone surrogate (\\ud800)"
        if isinstance(item, dict):
            pending.extend((key, depth) for key in item)
            pending.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            pending.extend((child, depth + 1) for child in item)
    return None


def _check_json() -> None:
    try:
        data = request.get_json()
    except (BadRequest, RecursionError):
        raise RefusedInput("body: not valid JSON") from None
    refusal = _nested_refusal(data)
    if refusal is not None:
        raise RefusedInput(f"body: {refusal}")
    if request.path.startswith("/api/") and not isinstance(data, dict):
        raise RefusedInput("body: a JSON object is required")


def _refuse_nul(fields: MultiDict[str, str]) -> None:
    for name, value in fields.items(multi=True):
        if NUL in name or NUL in value:
            field = name.replace(NUL, "")
            raise RefusedInput(f"{field}: contains a NUL character", field)


def check_request() -> None:
    """Refuse NUL bytes, bad or deep JSON and non-object API bodies before the view (400)."""
    _refuse_nul(request.args)
    if request.is_json and request.get_data(cache=True):
        _check_json()
    elif request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        _refuse_nul(request.form)


def register(app: Flask) -> None:
    """Before any blueprint is registered, so every ``<int:...>`` rule is built with :class:`IdConverter`."""
    app.url_map.converters["int"] = IdConverter
    app.before_request(check_request)
