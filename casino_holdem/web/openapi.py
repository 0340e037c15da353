"""The OpenAPI 3 description of ``/api/``; tests keep it in step with the app's routes and with
every limit the server enforces (tests/web/test_openapi_limits.py sends each boundary value).

The limits are written once: the request schemas below are built from the constants the server
checks (:mod:`.api`, :mod:`.inputs`, the services), so the two cannot drift apart.
"""

from __future__ import annotations

from typing import Any

from ..services import accounts, player_settings, rounds
from .dealer.openapi_paths import dealer_paths
from .inputs import MAX_ID
from .operator.openapi_paths import operator_paths

VERSION = "1.0.0"
#: the longest username or password the API reads; a longer one is a 400 before any lookup
MAX_CREDENTIAL = 256
MAX_ACTION = 16
MAX_PAGE = 999_999
#: a request amount: at most 13 integer digits (amounts stay below 10^13) and 8 decimals
AMOUNT_PATTERN = r"^[0-9]{1,13}(\.[0-9]{1,8})?$"
CURRENCY_PATTERN = "^[A-Z]{3}$"
ACTIONS = ["fold", "flop", "bet", "check"]
#: R2.3-R2.5: the streets a decision is made on (a client names one so a late decision never lands on the next)
STREETS = ["preflop", "flop", "turn"]
MONEY = {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$", "description": "an exact decimal amount",
         "example": "10.50"}
NULLABLE_MONEY = {**MONEY, "nullable": True}
CARD = {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$", "example": "As"}
CARDS = {"type": "array", "items": CARD}
#: R2.1: a betting window nobody has bet in opens again every so many seconds (pages roll the countdown)
REPEATS_EVERY = {"type": "integer", "nullable": True,
                 "description": "seconds after which an empty betting window opens again; null once somebody bets"}
AMOUNT = {"type": "string", "pattern": AMOUNT_PATTERN, "example": "10.50",
          "description": "an exact decimal amount; whole units of the currency (R6) are checked after the format"}
ID = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
REQUEST_ID = {"type": "string", "minLength": 1, "maxLength": rounds.MAX_REQUEST_ID,
              "description": "the client's idempotency key: a retry with the same id returns the first result"}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(name: str) -> dict[str, Any]:
    """OpenAPI 3.0 ignores keys beside a $ref, so a nullable reference is wrapped in allOf."""
    return {"allOf": [_ref(name)], "nullable": True}


def _obj(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, **_json(_ref("Error"))}


ERRORS = {
    "400": "malformed input (the field is named)", "401": "not logged in, or a wrong password",
    "403": "CSRF token missing or wrong", "404": "no such table or round", "409": "not allowed now (R2), "
    "or a request id reused with different content", "422": "refused by the rules: limits, units, balance (R2.1, R6)",
    "429": "too many failed logins (Retry-After says when to try again)",
    "503": "the database is unavailable for a moment (Retry-After says when to try again)",
}


def _operation(summary: str, schema: dict[str, Any], *, errors: str = "", body: dict[str, Any] | None = None,
               status: str = "200", parameters: list[dict[str, Any]] | None = None,
               public: bool = False) -> dict[str, Any]:
    operation: dict[str, Any] = {"summary": summary, "responses": {status: {"description": "OK", **_json(schema)}}}
    for code in ("401", *errors.split(), "503") if not public else (*errors.split(), "503"):
        operation["responses"][code] = _error(ERRORS[code])
    if body is not None:
        operation["requestBody"] = {"required": True, **_json(body)}
    if parameters:
        operation["parameters"] = parameters
    if public:
        operation["security"] = []
    return operation


def _path_id(name: str) -> list[dict[str, Any]]:
    return [{"name": name, "in": "path", "required": True, "schema": ID}]


SCHEMAS: dict[str, Any] = {
    "Error": _obj({"error": _obj({"code": {"type": "string", "example": "conflict"},
                                  "message": {"type": "string"},
                                  "field": {"type": "string", "nullable": True}}, ("code", "message", "field"))},
                  ("error",)),
    "Currency": _obj({"code": {"type": "string", "example": "USD"}, "unit": MONEY, "decimals": {"type": "integer"}}),
    "Balance": _obj({"balance": MONEY, "reserved": MONEY, "available": MONEY}),
    "Player": _obj({"id": {"type": "integer"}, "username": {"type": "string"}, "currency": {"type": "string"}}),
    "Session": _obj({"authenticated": {"type": "boolean"}, "player": _nullable("Player"),
                     "csrf_token": {"type": "string"}}),
    "Operator": _obj({"id": {"type": "integer"}, "username": {"type": "string"},
                      "role": {"type": "string", "enum": ["pit", "manager", "auditor", "dealer"]}}),
    "OperatorSession": _obj({"authenticated": {"type": "boolean"}, "operator": _nullable("Operator"),
                             "csrf_token": {"type": "string"}}),
    "Me": _obj({"id": {"type": "integer"}, "username": {"type": "string"}, "currency": _ref("Currency"),
                "balance": _ref("Balance")}),
    "Table": _obj({
        "id": {"type": "integer"}, "name": {"type": "string"},
        "paytable": _obj({"id": {"type": "string"}, "version": {"type": "integer"}, "sha256": {"type": "string"}}),
        "limits": _obj({name: NULLABLE_MONEY for name in ("ante_min", "ante_max", "bonus_min", "bonus_max")}),
        "progressive_bet": MONEY, "jackpot": {**MONEY, "description": "R6: the pool × your currency's multiplier"},
        "max_bettors": {"type": "integer", "nullable": True}, "betting_seconds": {"type": "integer"},
        "decision_seconds": {"type": "integer"},
        "suspended": {"type": "boolean", "description": "suspended by the pit: no bets and no new round until "
                                                        "it is resumed; a round in play finishes (R2)"},
        "round": {**_obj({"round_id": {"type": "integer"}, "number": {"type": "integer"},
                          "phase": {"type": "string"}, "bettors": {"type": "integer"},
                          "deadline": {"type": "string", "format": "date-time", "nullable": True},
                          "repeats_every": REPEATS_EVERY}),
                  "nullable": True}}),
    "Lobby": _obj({"server_time": {"type": "string", "format": "date-time"}, "currency": _ref("Currency"),
                   "tables": {"type": "array", "items": _ref("Table")}, "balance": _ref("Balance")}),
    "HandName": _obj({"id": {"type": "string", "description": "message id, e.g. 'Pair of %(pair)s, %(kicker)s kicker'"},
                      "args": {"type": "object", "description": "rank names (message ids too)"},
                      "text": {"type": "string", "description": "the name in English"}}),
    "Hand": _obj({"name": _ref("HandName"),
                  "best": {**CARDS, "description": "R7: the five cards that make the hand (none before the flop)"}}),
    "Round": _obj({
        "round_id": {"type": "integer"}, "table_id": {"type": "integer"}, "table_name": {"type": "string"},
        "number": {"type": "integer"}, "opened_at": {"type": "string", "format": "date-time"},
        "finished_at": {"type": "string", "format": "date-time", "nullable": True},
        "phase": {"type": "string", "enum": ["betting", "pre_flop", "flop", "turn", "showdown", "settled", "void"]},
        "commitment": {"type": "string", "nullable": True,
                       "description": "sha256(nonce + ':' + deck), published before the deal; null for a live round"},
        "dealing": {"type": "string", "enum": ["rng", "live"],
                    "description": "R1: the server's shuffle or a live dealer"},
        "notices": {"type": "array", "items": {"type": "string"},
                    "description": "R9: incidents that did not void the round"},
        "deadline": {"type": "string", "format": "date-time", "nullable": True},
        "repeats_every": REPEATS_EVERY,
        "paytable": _obj({"id": {"type": "string"}, "version": {"type": "integer"}, "sha256": {"type": "string"}}),
        "cards": _obj({"player": CARDS, "board": CARDS,
                       "dealer": {**CARDS, "description": "empty until the round is settled or void"}}),
        "bettor_count": {"type": "integer"},
        "progressive_participants": {"type": "integer", "description": "R5: this round's Progressive bettors"},
        "hands": _obj({"player": {**_ref("Hand"), "nullable": True},
                       "dealer": {**_ref("Hand"), "nullable": True, "description": "null until settled or void"}}),
        "reveal": _obj({"deck": {"type": "string"}, "nonce": {"type": "string", "nullable": True},
                        "commitment": {"type": "string", "description": "a live round: why it has no commitment"}}),
        "result": _obj({"result": {"type": "string"}, "player_hand": {"type": "string", "nullable": True},
                        "dealer_hand": {"type": "string", "nullable": True},
                        "void": {"type": "object", "nullable": True},
                        "awards": {"type": "array", "items": _obj({
                            "table": {"type": "string", "enum": ["P1", "P2", "P3"]}, "hand": {"type": "string"},
                            "street": {"type": "string", "nullable": True},
                            "share_of": {"type": "integer"}, "amount": MONEY})}}),
        "you": _obj({"player_id": {"type": "integer"}, "has_bet": {"type": "boolean"},
                     "allowed_actions": {"type": "array", "items": {"type": "string",
                                                                    "enum": ["fold", "flop", "bet", "check"]}},
                     "bet": {"type": "object", "nullable": True,
                             "description": "your bets, decisions (automatic: timeout or disconnect), outcome"},
                     "staked": MONEY, "costs": _obj({"flop": MONEY, "bet": MONEY}), "net": NULLABLE_MONEY}),
    }, ("round_id", "phase", "cards", "commitment")),
    "Settings": _obj({"language": {"type": "string", "enum": [*player_settings.LANGUAGES], "nullable": True,
                                   "description": "the pages' language; null until chosen (the browser's serves)"},
                      "reality_check_minutes": {"type": "integer", "enum": list(player_settings.REALITY_CHECK_MINUTES),
                                                "description": "a reminder of the session's time and net result "
                                                               "every N minutes; 0 is off"}}),
    "SettingsRequest": _obj({"language": {"type": "string", "enum": [*player_settings.LANGUAGES]},
                             "reality_check_minutes": {"type": "integer",
                                                       "enum": list(player_settings.REALITY_CHECK_MINUTES)}}),
    "Prize": _obj({"amount": MONEY, "share": {**MONEY, "description": "R5: your share if the round's Progressive "
                                                                      "bettors (you included) shared it"}}),
    "Rules": _obj({
        "ante_qualifier": {"type": "string", "enum": ["straight", "flush"],
                           "description": "R3: the Player's hand the Ante needs to win rather than push"},
        "bonus": {"type": "array", "description": "R4: the Bonus pays, strongest line first",
                  "items": _obj({"line": {"type": "string"}, "odds": {"type": "integer"}})},
        "p1": {"type": "object", "description": "R5: P1 (Royal Flush) as a percentage of the pool per street",
               "additionalProperties": MONEY},
        "p2": {"type": "object", "description": "R5: P2 fixed prizes in your currency (R6)",
               "additionalProperties": _ref("Prize")},
        "p3": {"type": "object", "description": "R5: P3 (board) fixed prizes in your currency (R6)",
               "additionalProperties": _ref("Prize")},
        "contribution": {**MONEY, "description": "R5: the percentage of each Progressive bet put into the pool"},
        "sharers": {"type": "integer", "description": "R5: how many would share a prize of the current round"},
        "returns": {**_obj({
            "strategy": {"type": "string", "example": "optimal"},
            "bets": {"type": "object", "additionalProperties": {"type": "string"},
                     "description": "each main-game bet's return in percent (R3)"},
            "main": {"type": "string", "description": "the four bets together, percent"},
            "bonus": {"type": "string", "description": "R4, percent"},
            "progressive": {"type": "string", "description": "R5 long-run return, percent"},
        }), "nullable": True, "description": "the exact returns to player of the paytable (casino-holdem rtp); "
                                             "null while computing"}}),
    "JackpotWin": _obj({"round_id": {"type": "integer"}, "prize": {"type": "string", "enum": ["P1", "P2", "P3"]},
                        "hand": {"type": "string"}, "street": {"type": "string", "nullable": True},
                        "amount": {**MONEY, "description": "R6: the whole prize in your currency"},
                        "share_of": {"type": "integer", "description": "R5: how many bettors shared it"},
                        "table": {"type": "string"}, "at": {"type": "string", "format": "date-time"}}),
    "TableState": _obj({"server_time": {"type": "string", "format": "date-time"}, "currency": _ref("Currency"),
                        "table": _ref("Table"), "round": _nullable("Round"),
                        "last_round": {**_nullable("Round"),
                                       "description": "the last finished round, shown while the next takes bets"},
                        "recent": {"type": "array", "description": "the results strip: last finished rounds",
                                   "items": _obj({"number": {"type": "integer"}, "result": {"type": "string"},
                                                  "void": {"type": "string", "nullable": True},
                                                  "player": {**_ref("HandName"), "nullable": True},
                                                  "dealer": {**_ref("HandName"), "nullable": True}})},
                        "balance": _ref("Balance"),
                        "rules": {**_ref("Rules"), "description": "the rules panel (R2-R9): pays and prizes"},
                        "jackpot_wins": {"type": "array", "items": _ref("JackpotWin"),
                                         "description": "the progressive panel: the pool's last wins, newest first"}}),
    "BetRequest": _obj({"ante": AMOUNT, "bonus": {**AMOUNT, "default": "0"},
                        "progressive": {"type": "boolean", "default": False}, "request_id": REQUEST_ID,
                        "round_id": {**ID, "description": "R2.1: the round these bets are for (the round "
                                                          "taking bets when they were chosen); bets that arrive "
                                                          "after its betting is over are refused (409), never "
                                                          "placed on the next round"}},
                       ("ante", "request_id")),
    "BetReceipt": _obj({"bet_id": {"type": "integer"}, "round_id": {"type": "integer"},
                        "round_number": {"type": "integer"}, "table_id": {"type": "integer"},
                        "player_id": {"type": "integer"}, "currency": {"type": "string"}, "ante": MONEY,
                        "bonus": MONEY, "progressive": MONEY, "request_id": {"type": "string"},
                        "balance": _obj({"player_id": {"type": "integer"}, "currency": {"type": "string"},
                                         "balance": MONEY, "reserved": MONEY, "available": MONEY})}),
    "DecisionRequest": _obj({"action": {"type": "string", "enum": ACTIONS},
                             "request_id": REQUEST_ID,
                             "street": {"type": "string", "enum": STREETS,
                                        "description": "R8: the street this decision is for; a decision for a "
                                                       "street whose window has closed is refused (409), never "
                                                       "applied to the next street"}},
                            ("action", "request_id")),
    "Decision": _obj({"round_id": {"type": "integer"}, "player_id": {"type": "integer"},
                      "street": {"type": "string", "enum": ["preflop", "flop", "turn"]}, "action": {"type": "string"},
                      "automatic": {"type": "string", "nullable": True, "enum": ["timeout", "disconnect", None]},
                      "decided_at": {"type": "string", "format": "date-time"}, "amount": MONEY}),
    "History": _obj({"page": {"type": "integer"}, "per_page": {"type": "integer"}, "total": {"type": "integer"},
                     "pages": {"type": "integer"}, "rounds": {"type": "array", "items": _ref("Round")}}),
}


def _paths() -> dict[str, Any]:
    text = {"type": "string", "minLength": 1, "maxLength": MAX_CREDENTIAL}
    credentials = _obj({"username": text, "password": text}, ("username", "password"))
    registration = _obj({"username": {"type": "string", "pattern": accounts.USERNAME.pattern},
                         "password": {**text, "minLength": accounts.MIN_PASSWORD},
                         "currency": {"type": "string", "pattern": CURRENCY_PATTERN, "example": "USD"}},
                        ("username", "password", "currency"))
    table_id, round_id = _path_id("table_id"), _path_id("round_id")
    return {
        "/api/openapi.json": {"get": _operation("This document", {"type": "object"}, public=True)},
        "/api/session": {
            "get": _operation("Who is logged in, and the CSRF token", _ref("Session"), public=True),
            "post": _operation("Log in (send X-CSRF-Token from GET /api/session)", _ref("Session"),
                               errors="400 401 403 429", body=credentials, public=True),
            "delete": _operation("Log out", _ref("Session"), errors="403", public=True),
        },
        "/api/players": {"post": _operation("Register and log in", _ref("Session"), errors="400 403 409 422",
                                            body=registration, status="201", public=True)},
        "/api/me": {"get": _operation("You: currency and balance", _ref("Me"))},
        "/api/me/password": {"post": _operation(
            "Change your password: every session of yours ends; this one continues with a new cookie",
            _ref("Session"), errors="400 401 403 422",
            body=_obj({"current_password": text, "password": {**text, "minLength": accounts.MIN_PASSWORD}},
                      ("current_password", "password")))},
        "/api/me/settings": {
            "get": _operation("Your settings: language and reality check (the same on every device)",
                              _ref("Settings")),
            "put": _operation("Change the settings given (a missing one is kept)", _ref("Settings"),
                              errors="400 403", body=_ref("SettingsRequest")),
        },
        "/api/tables": {"get": _operation("The lobby: open tables in your currency (R6)", _ref("Lobby"))},
        "/api/tables/{table_id}": {"get": _operation("A table and its current round as you may see it",
                                                     _ref("TableState"), errors="404 422", parameters=table_id)},
        "/api/tables/{table_id}/bets": {"post": _operation(
            "R2.1: place Ante, Bonus and Progressive on the current round", _ref("BetReceipt"),
            errors="400 403 404 409 422", body=_ref("BetRequest"), status="201", parameters=table_id)},
        "/api/tables/{table_id}/leave": {"post": _operation(
            "R8: leave mid-round (a disconnection: fold before the flop, check after)",
            _obj({"decisions": {"type": "array", "items": _ref("Decision")}}), errors="403 404",
            parameters=table_id)},
        "/api/tables/{table_id}/join": {"post": _operation(
            "R8: come back to the same round", _obj({"rejoined": {"type": "boolean"}}), errors="403 404",
            parameters=table_id)},
        "/api/rounds/{round_id}": {"get": _operation("A round as you may see it (game recall)", _ref("Round"),
                                                     errors="404", parameters=round_id)},
        "/api/rounds/{round_id}/decisions": {"post": _operation(
            "R2.3-R2.5: fold / flop, then bet / check", _ref("Decision"), errors="400 403 404 409",
            body=_ref("DecisionRequest"), status="201", parameters=round_id)},
        "/api/operator/session": {
            "get": _operation("Which operator is signed in, and the CSRF token", _ref("OperatorSession"),
                              public=True),
            "post": _operation("Operator sign-in (send X-CSRF-Token from GET /api/operator/session)",
                               _ref("OperatorSession"), errors="400 401 403 429", body=credentials, public=True),
            "delete": _operation("Operator sign-out", _ref("OperatorSession"), errors="403", public=True),
        },
        "/api/history": {"get": _operation(
            "Your finished rounds, newest first, 10 a page", _ref("History"), errors="400",
            parameters=[{"name": "page", "in": "query",
                         "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 1}}])},
    }


def document() -> dict[str, Any]:
    """The OpenAPI 3.0 document of the API."""
    return {
        "openapi": "3.0.3",
        "info": {"title": "casino_holdem player API", "version": VERSION,
                 "description": "Texas Hold'em Bonus Progressive. Log in with a session cookie; every POST and "
                                "DELETE sends the session's CSRF token as X-CSRF-Token. Money is decimal strings. "
                                "Errors are {\"error\": {\"code\", \"message\", \"field\"}}; a refused request "
                                "changes nothing."},
        "components": {"schemas": SCHEMAS,
                       "securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "session"}}},
        "security": [{"session": []}],
        "paths": {**_paths(), **operator_paths(), **dealer_paths()},
    }
