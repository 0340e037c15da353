"""The operators' sign-in and the one guard of every back-office page and endpoint (issue 11).

:func:`operator_required` is the only way an operator route is protected: anonymous visitors get
401 from the API (pages send them to ``/operator/login``), a player's session or an operator of
another role gets 403. It records the roles it allows on the view (``operator_roles``), so a test
can read every route's roles from the app's URL map (``tests/support/operator_routes.py``).

Sign-in uses the players' hashing, CSRF and login limit; the session expires after
``CASINO_OPERATOR_IDLE_SECONDS`` without a request.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import Forbidden, Unauthorized
from werkzeug.wrappers import Response

from ..services import operators
from ..services.errors import BadRequest
from ..services.operators import OperatorView, Role
from .errors import error_response
from .security import (
    csrf_token,
    current_operator,
    current_principal,
    form_login,
    log_in_operator,
    log_out,
    login_form_page,
    next_page,
    wants_json,
)

P = ParamSpec("P")
T = TypeVar("T")
ROLES_ATTRIBUTE = "operator_roles"

bp = Blueprint("operator_auth", __name__)


class NotSignedIn(Unauthorized):
    description = "session: operators sign in first"


class RoleRefused(Forbidden):
    description = "role: this operator's role may not do this"


class NotAnOperator(Forbidden):
    description = "session: this is not an operator's session"


def operator_required(*roles: Role) -> Callable[[Callable[P, T]], Callable[P, T | Any]]:
    """Guard a view for operators of ``roles`` (every role when none is named)."""
    allowed = frozenset(roles) or frozenset(Role)

    def decorate(view: Callable[P, T]) -> Callable[P, T | Any]:
        @functools.wraps(view)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> T | Any:
            operator = current_operator()
            if operator is None:
                if current_principal() is not None:
                    raise NotAnOperator()
                if wants_json():
                    raise NotSignedIn()
                return redirect(url_for("operator_auth.login", next=request.full_path.rstrip("?")))
            if operator.role not in allowed:
                raise RoleRefused()
            return view(*args, **kwargs)

        setattr(wrapper, ROLES_ATTRIBUTE, allowed)
        return wrapper

    return decorate


def _next_page() -> str:
    return next_page("/operator/", url_for("operator_auth.home"))


@bp.route("/operator/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int, dict[str, str]]:
    if request.method == "GET" and current_operator() is not None:
        return redirect(_next_page())
    refusal = None
    if request.method == "POST":
        refusal = form_login(operators.login, log_in_operator)
        if refusal is None:
            return redirect(_next_page())
    return login_form_page("operator_login.html", refusal, next_page=request.values.get("next", ""))


@bp.post("/operator/logout")
def logout() -> Response:
    if current_operator() is not None:
        log_out()
    return redirect(url_for("operator_auth.login"))


@bp.get("/operator/")
@operator_required()
def home() -> str:
    """Who is signed in, with which duties."""
    return render_template("operator_home.html", operator=current_operator())


def _operator_json(operator: OperatorView | None) -> dict[str, Any] | None:
    return None if operator is None else {"id": operator.id, "username": operator.username,
                                          "role": operator.role.value}


def _session_json() -> Response:
    operator = current_operator()
    return jsonify(authenticated=operator is not None, operator=_operator_json(operator), csrf_token=csrf_token())


@bp.get("/api/operator/session")
def session_state() -> Response:
    """Which operator is signed in, and the CSRF token every state-changing request must send."""
    return _session_json()


def _text(data: Any, name: str) -> str:
    value = data.get(name) if isinstance(data, dict) else None
    if not isinstance(value, str) or not value or len(value) > 256:
        raise BadRequest(f"{name}: required, a string of 1 to 256 characters", name)
    return value


@bp.post("/api/operator/session")
def session_login() -> Response | tuple[Any, int]:
    data = request.get_json(silent=True)
    operator = operators.login(_text(data, "username"), _text(data, "password"), request.remote_addr or "")
    if operator is None:
        return error_response(401, "login: wrong username or password", "password")
    log_in_operator(operator)
    return _session_json()


@bp.delete("/api/operator/session")
def session_logout() -> Response:
    if current_operator() is not None:
        log_out()
    return _session_json()
