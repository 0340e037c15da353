"""The public JSON API (``/api/``), described by :mod:`.openapi` at ``/api/openapi.json``.

Thin: each view reads its input, calls one service and returns its result. Rounds are only
ever sent as :func:`~casino_holdem.services.viewing.round_seen_by` builds them. Money travels as
decimal strings; a JSON number with a fraction is refused (floats are not exact).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, jsonify, request

from ..serialize import jsonable
from ..services import accounts, history, player_settings, rounds, viewing
from ..services.errors import BadRequest
from ..services.wallet import PlayerView
from . import openapi
from .errors import error_response
from .i18n import remember_language
from .inputs import MAX_ID
from .security import (
    csrf_token,
    current_player,
    log_in,
    log_out,
    login_required,
    player_id,
)

bp = Blueprint("api", __name__, url_prefix="/api")


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("body: a JSON object is required (Content-Type: application/json)")
    return data


def _text(data: dict[str, Any], name: str, *, limit: int = openapi.MAX_CREDENTIAL) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise BadRequest(f"{name}: required, a string of 1 to {limit} characters", name)
    return value


def _amount(data: dict[str, Any], name: str, default: str | None = None) -> str:
    """An amount as the document's ``AMOUNT`` writes it; its unit and limits are the rules' (R2.1, R6)."""
    value = data.get(name, default)
    if not isinstance(value, str) or not re.fullmatch(openapi.AMOUNT_PATTERN, value):
        raise BadRequest(f"{name}: required, a decimal string such as \"10.50\" "
                         "(up to 13 digits, 8 decimals)", name)
    return value


def _optional_id(data: dict[str, Any], name: str) -> int | None:
    """A database id as the document's ``ID`` writes it (1 to :data:`MAX_ID`), or None when absent."""
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        raise BadRequest(f"{name}: an integer from 1 to {MAX_ID}", name)
    return value


def _player_json(player: PlayerView | None) -> dict[str, Any] | None:
    return None if player is None else {"id": player.id, "username": player.username, "currency": player.currency}


def _session_json() -> Response:
    player = current_player()
    return jsonify(authenticated=player is not None, player=_player_json(player), csrf_token=csrf_token())


@bp.get("/openapi.json")
def openapi_document() -> Response:
    return jsonify(openapi.document())


@bp.get("/session")
def session_state() -> Response:
    """Who is logged in, and the CSRF token every state-changing request must send."""
    return _session_json()


@bp.post("/session")
def session_login() -> Response | tuple[Any, int]:
    data = _body()
    player = accounts.login(_text(data, "username"), _text(data, "password"), request.remote_addr or "")
    if player is None:
        return error_response(401, "login: wrong username or password", "password")
    log_in(player)
    return _session_json()


@bp.delete("/session")
def session_logout() -> Response:
    log_out()
    return _session_json()


@bp.post("/players")
def register() -> tuple[Response, int]:
    """A new account in one of the paytable's currencies (R6); the new player is logged in."""
    data = _body()
    player = accounts.register(_text(data, "username"), _text(data, "password"), _text(data, "currency"))
    log_in(player)
    return _session_json(), 201


@bp.get("/me")
@login_required
def me() -> Response:
    return jsonify(viewing.me_view(player_id()))


@bp.post("/me/password")
@login_required
def change_password() -> Response:
    """A new password (the current one confirms it, under the login limits: 429 with Retry-After
    beyond them). Every session of the player ends, so each copy of a stolen cookie dies with the
    old password; this browser gets a fresh session at once."""
    data = _body()
    player = current_player()
    assert player is not None  # login_required
    accounts.change_password(player.id, _text(data, "current_password"), _text(data, "password"),
                             request.remote_addr or "")
    log_in(player)
    return _session_json()


def _settings_json(settings: player_settings.Settings) -> Response:
    return jsonify(language=settings.language, reality_check_minutes=settings.reality_check_minutes)


@bp.get("/me/settings")
@login_required
def settings() -> Response:
    """Issue 13: the player's language and reality-check interval, the same on every device."""
    return _settings_json(player_settings.settings_of(player_id()))


@bp.put("/me/settings")
@login_required
def change_settings() -> Response:
    """Change the settings given in the body (a missing one is kept); the language chosen is
    also the page's from now on (the ``lang`` cookie follows it)."""
    data = _body()
    changed = player_settings.change(player_id(), language=data.get("language"),
                                     reality_check_minutes=data.get("reality_check_minutes"))
    response = _settings_json(changed)
    if changed.language is not None:
        remember_language(response, changed.language)
    return response


@bp.get("/tables")
@login_required
def lobby() -> Response:
    return jsonify(viewing.lobby_view(player_id()))


@bp.get("/tables/<int:table_id>")
@login_required
def table(table_id: int) -> Response:
    return jsonify(viewing.table_view(table_id, player_id()))


@bp.post("/tables/<int:table_id>/bets")
@login_required
def place_bets(table_id: int) -> tuple[Response, int]:
    """R2.1: Ante, optional Bonus and Progressive; idempotent by ``request_id``."""
    data = _body()
    receipt = rounds.place_bets(player_id(), table_id, _amount(data, "ante"), _amount(data, "bonus", "0"),
                                data.get("progressive", False),
                                request_id=_text(data, "request_id", limit=rounds.MAX_REQUEST_ID),
                                round_id=_optional_id(data, "round_id"))
    return jsonify(jsonable(receipt)), 201


@bp.post("/tables/<int:table_id>/leave")
@login_required
def leave(table_id: int) -> Response:
    """R8: leaving mid-round is a disconnection: the due decision is taken now (fold before the
    flop, check after it) and later ones as they come."""
    return jsonify(decisions=jsonable(rounds.disconnect(player_id(), table_id)))


@bp.post("/tables/<int:table_id>/join")
@login_required
def join(table_id: int) -> Response:
    """R8: back at the table, in the same round."""
    return jsonify(rejoined=rounds.rejoin(player_id(), table_id))


@bp.get("/rounds/<int:round_id>")
@login_required
def round_(round_id: int) -> Response:
    return jsonify(viewing.round_view(round_id, player_id()))


@bp.post("/rounds/<int:round_id>/decisions")
@login_required
def decide(round_id: int) -> tuple[Response, int]:
    """R2.3-R2.5: fold or flop, then bet or check; once per street; idempotent by ``request_id``."""
    data = _body()
    street = data.get("street")
    if street is not None and street not in openapi.STREETS:
        raise BadRequest(f"street: one of {', '.join(openapi.STREETS)}", "street")
    receipt = rounds.decide(player_id(), round_id, _text(data, "action", limit=openapi.MAX_ACTION),
                            request_id=_text(data, "request_id", limit=rounds.MAX_REQUEST_ID), street=street)
    return jsonify(jsonable(receipt)), 201


def page_argument() -> int:
    """The ``page`` query parameter (1 when absent)."""
    raw = request.args.get("page", "1")
    if not re.fullmatch(r"[1-9][0-9]{0,5}", raw):
        raise BadRequest(f"page: {raw[:20]!r} is not a page number (1 to {openapi.MAX_PAGE})", "page")
    return int(raw)


@bp.get("/history")
@login_required
def history_page() -> Response:
    return jsonify(history.rounds_of(player_id(), page_argument()))
