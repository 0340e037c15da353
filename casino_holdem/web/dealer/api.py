"""The dealer API (``/api/dealer/``): the live tables, a table's dealing state, a card, an R9
incident. Each view reads its input, calls one service of :mod:`~casino_holdem.services.live_dealing`
as the signed-in operator and returns the result; refusals have the players' API error shape and
change nothing (a duplicate, an impossible code, a card out of turn or for a finished round)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify

from ...core.phases import DEALING_ORDER
from ...serialize import jsonable
from ...services import live_dealing
from ...services.errors import BadRequest
from ...services.operators import Role
from ..operator.inputs import body, me, text, whole
from ..operator_auth import operator_required

bp = Blueprint("dealer_api", __name__, url_prefix="/api/dealer")
DEALER, PIT = Role.DEALER, Role.PIT
#: the longest card code read (``10♦`` and a scanner's padding fit; anything longer is not a card)
MAX_CODE = 16


def _json(value: Any) -> tuple[Response, int]:
    return jsonify(jsonable(value)), 200


def _position(data: Mapping[str, Any], name: str) -> int | None:
    """An optional place in R1's dealing order, 0-11 (the core says when it is not the right one)."""
    value = data.get(name)
    if value in (None, ""):
        return None
    position = whole(value, name)
    if not 0 <= position < len(DEALING_ORDER):
        raise BadRequest(f"{name}: a place in R1's dealing order, 0 to {len(DEALING_ORDER) - 1}", name)
    return position


def _flag(data: Mapping[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise BadRequest(f"{name}: true or false", name)
    return value


@bp.get("/tables")
@operator_required(DEALER, PIT)
def table_list() -> tuple[Response, int]:
    return _json({"tables": live_dealing.live_tables()})


@bp.get("/tables/<int:table_id>")
@operator_required(DEALER, PIT)
def table_state(table_id: int) -> tuple[Response, int]:
    """R1: the next position to deal, the phase, the timers, the bettors' count and the public cards."""
    return _json(live_dealing.dealer_view(table_id))


@bp.post("/tables/<int:table_id>/cards")
@operator_required(DEALER, PIT)
def card(table_id: int) -> tuple[Response, int]:
    """R1: deal the next card (``As``, ``Td``, ``10d`` or a scanner's code); ``position``, when
    sent, must be the next step (a console that missed a card is refused, not dealt past it)."""
    data = body()
    return _json(live_dealing.deal_card(table_id, text(data, "card", limit=MAX_CODE), by=me(),
                                        position=_position(data, "position")))


@bp.post("/tables/<int:table_id>/incidents")
@operator_required(DEALER, PIT)
def incident(table_id: int) -> tuple[Response, int]:
    """R9: report an incident; only *pit* may call the house's voids."""
    data = body()
    return _json(live_dealing.report_incident(
        table_id, text(data, "kind", limit=32), by=me(),
        card=text(data, "card", limit=MAX_CODE, required=False) or None,
        wrong_position=_position(data, "wrong_position"), house_voids=_flag(data, "house_voids")))
