"""The ``/api/dealer/`` part of the OpenAPI document, built like the back office's."""

from __future__ import annotations

from typing import Any

from ..operator.openapi_paths import Operation, back_office_paths

ROLES = "dealer, pit"
OPERATIONS: tuple[Operation, ...] = (
    ("get", "/tables", "The live tables (R1) with their round's phase and next position", ROLES, (), ()),
    ("get", "/tables/{table_id}", "A table's dealing state: next position, phase, timers, bettors' count (never "
     "their bets), the public cards; the Dealer's cards only after showdown", ROLES, (), ()),
    ("post", "/tables/{table_id}/cards", "R1: deal the next card (As, Td, 10d or a scanner's code); refused with "
     "no change when a duplicate, not a card, out of turn (not `position`) or for a finished round", ROLES,
     ("card", "position"), ()),
    ("post", "/tables/{table_id}/incidents", "R9: report an incident (kind: exposed_while_shuffling, card_exposed, "
     "dropped_in_shuffle, dropped_on_burn, dropped_face_unseen, dropped_face_seen, dropped_in_view, misdeal, "
     "shuffler_jam, other_error); other_error and a misdeal with house_voids are pit's", ROLES,
     ("kind", "card", "wrong_position", "house_voids"), ()),
)
TYPES: dict[str, Any] = {"position": {"type": "integer", "minimum": 0, "maximum": 11},
                         "wrong_position": {"type": "integer", "minimum": 0, "maximum": 11},
                         "house_voids": {"type": "boolean"}}


def dealer_paths() -> dict[str, Any]:
    return back_office_paths("/api/dealer", OPERATIONS, tag="dealer", types=TYPES)
