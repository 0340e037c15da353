"""The ``/api/operator/`` part of the OpenAPI document (merged into the players' document by
:func:`casino_holdem.web.openapi.document`): one row per operation, the roles allowed in its
description, the same error shape as the players' API. :func:`back_office_paths` builds the
dealer's ``/api/dealer/`` part the same way."""

from __future__ import annotations

import re
from typing import Any

ERROR = {"$ref": "#/components/schemas/Error"}
OBJECT = {"type": "object"}
REFUSALS = {"400": "malformed input (the field is named)", "401": "not signed in as an operator",
            "403": "this role may not do this, or the CSRF token is missing", "404": "no such object",
            "409": "not allowed now (four-eyes, status; a card out of turn or for a finished round, R1, R9)",
            "422": "refused by the rules (the field is named)"}
#: (method, path, summary, roles, body fields, query parameters)
Operation = tuple[str, str, str, str, tuple[str, ...], tuple[str, ...]]
OPERATIONS: tuple[Operation, ...] = (
    ("get", "/paytables", "Every stored paytable version with its status and exact return figures (rtp: null "
     "while computing)", "manager, auditor", (), ()),
    ("get", "/paytables/{version_id}", "One version with its exact return figures (rtp: null while computing)",
     "manager, auditor", (), ()),
    ("post", "/paytables", "Upload a version as a draft (validated key by key)", "manager", ("content",), ()),
    ("post", "/paytables/{version_id}/approve", "Approve a draft (a second manager: four-eyes)", "manager", (), ()),
    ("post", "/paytables/{version_id}/retire", "Retire a version", "manager", ("reason",), ()),
    ("get", "/paytables/{left_id}/compare/{right_id}", "Two versions key by key, and the change of each exact "
     "return figure (rtp)", "manager, auditor", (), ()),
    ("get", "/tables", "Every table with its settings", "pit, manager, auditor", (), ()),
    ("post", "/tables", "Create an open table on the standard paytable", "manager",
     ("name", "pool_id", "ante_min", "ante_max", "bonus_min", "bonus_max", "max_bettors", "betting_seconds",
      "decision_seconds", "dealing"), ()),
    ("get", "/tables/{table_id}/changes", "Changes waiting for the next round", "pit, manager, auditor", (), ()),
    ("post", "/tables/{table_id}/settings", "Change limits, timers, cap, pool or dealing from the next round",
     "manager", ("reason", "ante_min", "ante_max", "bonus_min", "bonus_max", "max_bettors", "betting_seconds",
                 "decision_seconds", "pool_id", "dealing"), ()),
    ("post", "/tables/{table_id}/paytable", "Assign an approved version from the next round", "manager",
     ("version_id", "reason"), ()),
    ("post", "/tables/{table_id}/open", "Open a table", "pit, manager", (), ()),
    ("post", "/tables/{table_id}/close", "Close a table (the round in play finishes)", "pit, manager", (), ()),
    ("post", "/tables/{table_id}/suspend", "Suspend a table: no bet, no new round; the round in play finishes",
     "pit, manager", ("reason",), ()),
    ("post", "/tables/{table_id}/resume", "Resume a suspended table", "pit, manager", ("reason",), ()),
    ("post", "/rounds/{round_id}/void", "Void a round (R9)", "pit", ("reason", "stage"), ()),
    ("get", "/pools", "Every pool and its meters (R6)", "pit, manager, auditor", (), ()),
    ("get", "/pools/{pool_id}/history", "The pool's movements, prizes with their shares", "manager, auditor", (),
     ()),
    ("get", "/pools/{pool_id}/reconciliation", "Meter = history = ledger", "manager, auditor", (), ()),
    ("get", "/pools/{pool_id}/corrections", "The pool's corrections", "manager, auditor", (), ()),
    ("post", "/pools/{pool_id}/corrections", "Request a correction (R9)", "manager", ("amount", "reason"), ()),
    ("post", "/corrections/{correction_id}/approve", "Apply a correction (four-eyes)", "manager", (), ()),
    ("post", "/corrections/{correction_id}/reject", "Turn a correction down", "manager", ("reason",), ()),
    ("get", "/reports", "Takings of a period, checked against the ledger (format=csv for CSV)",
     "manager, auditor", (), ("from", "to", "table", "format")),
    ("get", "/audit", "The audit log, filtered (format=csv or json to export)", "auditor, manager", (),
     ("actor", "action", "table_id", "round_id", "player_id", "since", "until", "limit", "format")),
    ("get", "/players/{player_id}/rounds", "A player's finished rounds", "auditor", (), ("page",)),
    ("get", "/players/{player_id}/rounds/{round_id}", "Game recall of one round", "auditor", (), ()),
)


def _operation(summary: str, roles: str, body: tuple[str, ...], query: tuple[str, ...], path: str, tag: str,
               types: dict[str, Any]) -> dict[str, Any]:
    json = {"content": {"application/json": {"schema": OBJECT}}}
    operation: dict[str, Any] = {
        "summary": summary, "description": f"Roles: {roles}.", "tags": [tag],
        "responses": {"200": {"description": "OK", **json},
                      **{code: {"description": text, "content": {"application/json": {"schema": ERROR}}}
                         for code, text in REFUSALS.items()}}}
    parameters = [{"name": name, "in": "path", "required": True, "schema": {"type": "integer"}}
                  for name in re.findall(r"{(\w+)}", path)]
    parameters += [{"name": name, "in": "query", "schema": {"type": "string"}} for name in query]
    if parameters:
        operation["parameters"] = parameters
    if body:
        operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "properties": {name: types.get(name, {"type": "string"}) for name in body}}}}}
    return operation


def back_office_paths(prefix: str, operations: tuple[Operation, ...], *, tag: str,
                      types: dict[str, Any] | None = None) -> dict[str, Any]:
    """``operations`` under ``prefix``, ready to merge into the document's ``paths``; body fields
    are strings unless ``types`` gives their schema."""
    paths: dict[str, Any] = {}
    for method, path, summary, roles, body, query in operations:
        full = f"{prefix}{path}"
        paths.setdefault(full, {})[method] = _operation(summary, roles, body, query, full, tag, types or {})
    return paths


def operator_paths() -> dict[str, Any]:
    """The back office's paths."""
    return back_office_paths("/api/operator", OPERATIONS, tag="operator")
