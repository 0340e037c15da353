"""The OpenAPI document and the server agree on every limit (issue 10): each request-body limit the
document states (required, type, length, pattern, enum, range) is read from the document and sent just
outside it, which the server refuses naming the field; values just inside are not refused for it.
Path ids and the page number are checked at their bounds the same way."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory

from casino_holdem.web import openapi
from support.web import Client, WebCasino

DOCUMENT = openapi.document()
#: a body the server accepts (or refuses for another reason) per operation with a body
VALID = {
    ("post", "/api/session"): {"username": "alice", "password": "not the password"},
    ("post", "/api/players"): {"username": "carol", "password": "long enough", "currency": "USD"},
    ("post", "/api/tables/{table_id}/bets"): {"ante": "10", "request_id": "bet-1"},
    ("post", "/api/rounds/{round_id}/decisions"): {"action": "fold", "request_id": "decision-1"},
}
#: values just inside a limit the document states as a pattern, which no length rule finds
INSIDE = {"username": ["abc", "a" * 32], "ante": ["1", "9" * 13 + "." + "9" * 8], "bonus": ["0", "0.00000001"],
          "currency": ["USD"]}
WRONG_TYPE = {"string": 7, "boolean": "yes", "integer": "7"}


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in schema:
        return DOCUMENT["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]  # type: ignore[no-any-return]
    return schema


def _outside(prop: dict[str, Any]) -> list[Any]:
    """Values just outside each limit the document states for a property."""
    values: list[Any] = [WRONG_TYPE[prop["type"]]]
    if "maxLength" in prop:
        values.append("a" * (prop["maxLength"] + 1))
    if prop.get("minLength", 0) > 0:
        values.append("a" * (prop["minLength"] - 1))
    if "pattern" in prop:
        values += [value for value in ("", "a b", "1e5", "-1", "usd", "9" * 14, "1.123456789")
                   if not re.search(prop["pattern"], value)]
    if "enum" in prop:
        values.append("jump")
    if "minimum" in prop:
        values += [prop["minimum"] - 1, prop["maximum"] + 1, True, 1.5]
    return values


def _inside(name: str, prop: dict[str, Any]) -> list[Any]:
    if "pattern" in prop:
        return INSIDE[name]
    values: list[Any] = [*prop.get("enum", [])] or ([True, False] if prop["type"] == "boolean" else [])
    if "maxLength" in prop:
        values += ["a" * prop.get("minLength", 1), "a" * prop["maxLength"]]
    if "minimum" in prop:
        values += [prop["minimum"], prop["maximum"]]
    return values


def _cases(inside: bool) -> list[Any]:
    cases = []
    for (method, path), body in VALID.items():
        schema = _resolve(DOCUMENT["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"])
        for name, prop in schema["properties"].items():
            values = _inside(name, prop) if inside else [*_outside(prop), *(["<absent>"] if name in
                                                                             schema.get("required", []) else [])]
            cases += [pytest.param(path, body, name, value, id=f"{path}:{name}:{str(value)[:20]}") for value in values]
    return cases


def _send(casino: WebCasino, clock: FrozenDateTimeFactory, path: str, body: dict[str, Any], name: str,
          value: Any) -> tuple[int, dict[str, Any]]:
    casino.player("alice")
    table = casino.table()
    casino.advance(table)
    client: Client = casino.client("alice")
    if "round_id" in path:
        assert client.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "bet-0"}).status_code == 201
        clock.tick(dt.timedelta(seconds=11))
        casino.advance(table)  # the round waits for alice's first decision (R2.3)
    round_id = client.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    if path in ("/api/session", "/api/players"):
        client = casino.client()
        client.refresh_token()
    sent = {key: item for key, item in body.items() if key != name}
    if value != "<absent>":
        sent[name] = value
    response = client.post(path.format(table_id=table, round_id=round_id), sent)
    return response.status_code, (response.get_json() or {}).get("error") or {}


@pytest.mark.parametrize("path, body, name, value", _cases(inside=False))
def test_values_outside_a_documented_limit_are_refused_naming_the_field(casino: WebCasino, clock: FrozenDateTimeFactory,
                                                                         path: str, body: Any, name: str,
                                                                         value: Any) -> None:
    status, error = _send(casino, clock, path, body, name, value)
    assert status in (400, 422) and error["field"] == name


@pytest.mark.parametrize("path, body, name, value", _cases(inside=True))
def test_values_inside_a_documented_limit_are_not_refused_for_it(casino: WebCasino, clock: FrozenDateTimeFactory,
                                                                 path: str, body: Any, name: str, value: Any) -> None:
    """Other refusals may follow (a wrong password, an action not allowed now, R2.3): not the limit's
    400 or 422. Amounts inside the format are then checked by the table's limits (R2.1, R6: a 422)."""
    status, error = _send(casino, clock, path, body, name, value)
    refused_for_the_limit = status == 400 or (status == 422 and name not in ("ante", "bonus"))
    assert not (refused_for_the_limit and error["field"] == name), error


def _parameter(path: str, name: str) -> dict[str, Any]:
    operation = DOCUMENT["paths"][path]["get"]
    return next(p["schema"] for p in operation["parameters"] if p["name"] == name)  # type: ignore[no-any-return]


@pytest.mark.parametrize("path", ["/api/tables/{table_id}", "/api/rounds/{round_id}"])
def test_path_ids_at_and_beyond_the_documented_bounds_are_404(casino: WebCasino, path: str) -> None:
    schema = _parameter(path, path.rsplit("{", 1)[1].rstrip("}"))
    assert (schema["minimum"], schema["maximum"]) == (1, 2**31 - 1)
    casino.player("alice")
    client = casino.client("alice")
    for value in (schema["minimum"] - 1, schema["minimum"], schema["maximum"], schema["maximum"] + 1):
        response = client.get(re.sub(r"\{.*\}", str(value), path))
        assert response.status_code == 404 and response.get_json()["error"]["code"] == "not_found"


def test_the_page_number_is_read_exactly_within_its_documented_bounds(casino: WebCasino) -> None:
    schema = _parameter("/api/history", "page")
    casino.player("alice")
    client = casino.client("alice")
    for value, status in ((schema["minimum"] - 1, 400), (schema["minimum"], 200), (schema["maximum"], 200),
                          (schema["maximum"] + 1, 400)):
        assert client.get("/api/history", query_string={"page": value}).status_code == status
