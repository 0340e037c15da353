"""Sessions, CSRF and who is asking.

- The session is Flask's signed cookie, HttpOnly, ``SameSite=Lax`` and ``Secure`` outside
  debugging and testing (``CASINO_SECURE_COOKIES`` overrides). Logging in starts a fresh session.
- CSRF: a synchronizer token per session, in a ``<meta name="csrf-token">`` for scripts (sent as
  the ``X-CSRF-Token`` header) and a hidden ``csrf_token`` field in forms. Every POST, PUT, PATCH
  and DELETE must carry it, the login included (``GET /api/session`` hands it to API clients).
"""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any, ParamSpec, TypeVar

from flask import Flask, g, redirect, request, session, url_for
from werkzeug.exceptions import Forbidden, Unauthorized

from ..services import accounts
from ..services.errors import NotFound
from ..services.wallet import PlayerView

P = ParamSpec("P")
T = TypeVar("T")
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"
SESSION_HOURS = 12


class CsrfFailure(Forbidden):
    description = "csrf: the request's CSRF token is missing or wrong; reload the page and try again"


class NotLoggedIn(Unauthorized):
    description = "session: log in first"


def configure(app: Flask) -> None:
    """Cookie settings and the CSRF check for every request."""
    secure = app.config.get("CASINO_SECURE_COOKIES")
    if secure is None:
        secure = not (app.debug or app.testing)
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_SECURE=bool(secure),
                      PERMANENT_SESSION_LIFETIME=timedelta(hours=SESSION_HOURS))
    app.before_request(check_csrf)
    app.context_processor(lambda: {"csrf_token": csrf_token, "current_player": current_player})


def csrf_token() -> str:
    """This session's CSRF token, created on first use."""
    if CSRF_FIELD not in session:
        session[CSRF_FIELD] = secrets.token_urlsafe(32)
    return str(session[CSRF_FIELD])


def check_csrf() -> None:
    """Refuse a state-changing request without this session's token (403)."""
    if request.method not in STATE_CHANGING:
        return
    expected = session.get(CSRF_FIELD)
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    if not expected or not sent or not hmac.compare_digest(str(expected).encode(), sent.encode()):
        raise CsrfFailure()


def log_in(player: PlayerView) -> None:
    """A fresh session (no fixation) with a fresh CSRF token."""
    session.clear()
    session.permanent = True
    session["player_id"] = player.id
    csrf_token()


def log_out() -> None:
    session.clear()
    csrf_token()


def current_player() -> PlayerView | None:
    """The logged-in player, or None (a session of a removed player counts as logged out). Looked
    up once per session identity: logging in or out mid-request is seen at once."""
    player_id = session.get("player_id")
    cached = g.get("player")
    if cached is None or cached[0] != player_id:
        try:
            cached = (player_id, None if player_id is None else accounts.player(int(player_id)))
        except NotFound:
            cached = (player_id, None)
        g.player = cached
    return cached[1]


def player_id() -> int:
    """The logged-in player's id (only inside :func:`login_required` views)."""
    player = current_player()
    if player is None:
        raise NotLoggedIn()
    return player.id


def wants_json() -> bool:
    """API and event-stream clients get JSON errors; pages get HTML."""
    return request.path.startswith(("/api/", "/events/"))


def login_required(view: Callable[P, T]) -> Callable[P, T | Any]:
    """Pages redirect to the login page; the API and event streams answer 401."""

    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T | Any:
        if current_player() is None:
            if wants_json():
                raise NotLoggedIn()
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapper
