"""Sessions, CSRF and who is asking.

- The session is Flask's signed cookie, HttpOnly, ``SameSite=Lax`` and ``Secure`` outside
  debugging and testing (``CASINO_SECURE_COOKIES`` overrides). It carries a server-side session
  token (:mod:`casino_holdem.services.sessions`) and the CSRF token, nothing else: logging out or
  changing the password revokes the token, ending every copy of the cookie (issue 10). Logging
  in starts a fresh session.
- A session is a player's or an operator's, never both: player views refuse an operator's
  session (403) and :func:`casino_holdem.web.operator_auth.operator_required` a player's.
- CSRF: a synchronizer token per session, in a ``<meta name="csrf-token">`` for scripts (sent as
  the ``X-CSRF-Token`` header) and a hidden ``csrf_token`` field in forms. Every POST, PUT, PATCH
  and DELETE must carry it, the login included (``GET /api/session`` hands it to API clients).
"""

from __future__ import annotations

import functools
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, ParamSpec, TypeVar

from flask import Flask, g, redirect, render_template, request, session, url_for
from werkzeug.exceptions import Forbidden, Unauthorized

from ..services import accounts, operators, sessions
from ..services.errors import NotFound
from ..services.logins import TooManyAttempts
from ..services.operators import OperatorView
from ..services.wallet import PlayerView

P = ParamSpec("P")
T = TypeVar("T")
A = TypeVar("A")
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"
TOKEN_FIELD = "session_token"
SESSION_HOURS = 12


class CsrfFailure(Forbidden):
    description = "csrf: the request's CSRF token is missing or wrong; reload the page and try again"


class NotLoggedIn(Unauthorized):
    description = "session: log in first"


class OtherKindOfSession(Forbidden):
    description = "session: signed in as another kind of account; sign out first"


def configure(app: Flask) -> None:
    """Cookie settings and the CSRF check for every request."""
    secure = app.config.get("CASINO_SECURE_COOKIES")
    if secure is None:
        secure = not (app.debug or app.testing)
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_SECURE=bool(secure),
                      PERMANENT_SESSION_LIFETIME=timedelta(hours=SESSION_HOURS))
    app.before_request(_forget_who)
    app.before_request(check_csrf)
    app.context_processor(lambda: {"csrf_token": csrf_token, "current_player": current_player,
                                   "current_operator": current_operator})


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


def _start(kind: str, principal_id: int) -> None:
    """A fresh session (no fixation) with a fresh CSRF token; the previous one is revoked."""
    log_out()
    session.permanent = True
    session[TOKEN_FIELD] = sessions.start(kind, principal_id)
    csrf_token()


def log_in(player: PlayerView) -> None:
    _start(sessions.PLAYER, player.id)


def log_in_operator(operator: OperatorView) -> None:
    _start(sessions.OPERATOR, operator.id)


def log_out() -> None:
    """End this session on the server too, so a copy of the cookie is worth nothing."""
    token = session.get(TOKEN_FIELD)
    if isinstance(token, str):
        sessions.revoke(token)
    session.clear()
    csrf_token()


WHO = ("principal", "player", "operator")


def _forget_who() -> None:
    """Each request looks its session up afresh (an app context may outlive one request)."""
    for name in WHO:
        g.pop(name, None)


def _cached(name: str, find: Callable[[], T]) -> T:
    """``find()`` once per session token and request: logging in or out mid-request is seen at once."""
    token = session.get(TOKEN_FIELD)
    cached = g.get(name)
    if cached is None or cached[0] != token:
        cached = (token, find())
        setattr(g, name, cached)
    return cached[1]  # type: ignore[no-any-return]


def forget_session_for_this_request() -> None:
    """The rest of this request sees nobody logged in (an error page rendered while the database
    that knows the session is away)."""
    token = session.get(TOKEN_FIELD)
    for name in WHO:
        setattr(g, name, (token, None))


def current_principal() -> sessions.Principal | None:
    """Whoever this request's live session belongs to, or None."""
    token = session.get(TOKEN_FIELD)
    return _cached("principal", lambda: sessions.resolve(token) if isinstance(token, str) else None)


def _player() -> PlayerView | None:
    token = session.get(TOKEN_FIELD)
    if not isinstance(token, str):
        return None
    known = g.get("principal")
    if known is not None and known[0] == token:  # the session is already resolved: only the player to read
        principal = known[1]
        if principal is None or principal.kind != sessions.PLAYER:
            return None
        try:
            return accounts.player(principal.id)
        except NotFound:
            return None  # a session of a removed player counts as logged out
    principal, player = accounts.session_player(token)
    g.principal = (token, principal)
    return player


def current_player() -> PlayerView | None:
    """The logged-in player, or None (no session, an operator's session, a removed player)."""
    return _cached("player", _player)


def _operator() -> OperatorView | None:
    principal = current_principal()
    if principal is None or principal.kind != sessions.OPERATOR:
        return None
    return operators.signed_in(principal.id)


def current_operator() -> OperatorView | None:
    """The signed-in, active operator, or None."""
    return _cached("operator", _operator)


def player_id() -> int:
    """The logged-in player's id (only inside :func:`login_required` views)."""
    player = current_player()
    if player is None:
        raise NotLoggedIn()
    return player.id


def next_page(prefix: str, default: str) -> str:
    """Where to go after logging in: ``next`` when it is a path on this site under ``prefix``
    (no open redirect), else ``default``."""
    target = request.values.get("next", "")
    # Browsers drop tabs and newlines from URLs, so "/<TAB>/evil.com" would become "//evil.com".
    clean = not any(ord(char) < 0x20 or char == "\\" for char in target)
    local = clean and target.startswith(prefix) and not target.startswith("//")
    return target if local else default


def retry_after_header(seconds: int | None) -> dict[str, str]:
    """The ``Retry-After`` header of a refusal a later try may pass (none when no wait is known)."""
    return {} if seconds is None else {"Retry-After": str(seconds)}


@dataclass(frozen=True, slots=True)
class FormRefusal:
    """Why a login form's POST was refused, for its page to word in its own language: ``problem``
    is "wrong" (401) or "attempts" (429, ``retry_after`` seconds, also sent as Retry-After)."""

    problem: str
    status: int
    retry_after: int | None = None


def login_form_page(template: str, refusal: FormRefusal | None, **context: Any) -> tuple[str, int, dict[str, str]]:
    """A login form's page, with why its POST was refused (the refusal's status and Retry-After)."""
    page = render_template(template, refusal=refusal, **context)
    return (page, 200, {}) if refusal is None else (page, refusal.status, retry_after_header(refusal.retry_after))


def form_login(check: Callable[[str, str, str], A | None], start: Callable[[A], None]) -> FormRefusal | None:
    """A login form's POST, for players and operators alike: None once signed in, else why not."""
    try:
        account = check(request.form.get("username", ""), request.form.get("password", ""), request.remote_addr or "")
    except TooManyAttempts as error:
        return FormRefusal("attempts", error.status, error.retry_after)
    if account is None:
        return FormRefusal("wrong", 401)
    start(account)
    return None


def wants_json() -> bool:
    """API and event-stream clients get JSON errors; pages get HTML."""
    return request.path.startswith(("/api/", "/events/"))


def login_required(view: Callable[P, T]) -> Callable[P, T | Any]:
    """Pages redirect to the login page; the API and event streams answer 401; an operator's
    session is refused (403)."""

    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T | Any:
        if current_player() is None:
            if current_principal() is not None:
                raise OtherKindOfSession()
            if wants_json():
                raise NotLoggedIn()
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapper
