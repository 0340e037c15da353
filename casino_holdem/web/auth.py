"""Login, registration, logout and the player's account page (forms posting with the session's CSRF token)."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..services import accounts
from ..services.accounts import TooManyAttempts
from ..services.errors import ServiceError
from .security import (
    current_player,
    form_login,
    log_in,
    log_out,
    login_form_page,
    login_required,
    next_page,
    retry_after_header,
)

bp = Blueprint("auth", __name__)


def _next_page() -> str:
    return next_page("/", url_for("lobby.lobby"))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int, dict[str, str]]:
    if request.method == "GET" and current_player() is not None:
        return redirect(_next_page())
    refusal = None
    if request.method == "POST":
        refusal = form_login(accounts.login, log_in)
        if refusal is None:
            return redirect(_next_page())
    return login_form_page("login.html", refusal, demo=accounts.demo_logins(), next_page=request.values.get("next", ""))


@bp.route("/register", methods=["GET", "POST"])
def register() -> Response | str | tuple[str, int]:
    error: ServiceError | None = None
    if request.method == "POST":
        try:
            player = accounts.register(request.form.get("username", ""), request.form.get("password", ""),
                                       request.form.get("currency", ""))
        except ServiceError as refused:
            error = refused
        else:
            log_in(player)
            return redirect(url_for("lobby.lobby"))
    return render_template("register.html", error=error, currencies=accounts.currencies(), form=request.form,
                           min_password=accounts.MIN_PASSWORD), (error.status if error else 200)


@bp.post("/logout")
def logout() -> Response:
    log_out()
    return redirect(url_for("auth.login"))


@bp.get("/account")
@login_required
def account() -> str:
    """The player's account: changing the password (the same service as ``POST /api/me/password``)."""
    return render_template("account.html", error=None, changed=request.args.get("changed") == "password",
                           min_password=accounts.MIN_PASSWORD)


@bp.post("/account/password")
@login_required
def change_password() -> Response | tuple[str, int, dict[str, str]]:
    """A new password, the current one confirming it and the new one typed twice. Every session of
    the player ends (a copy of a stolen cookie dies with the old password); this browser goes on
    with a fresh session at once. A refusal names the field: ``current_password`` (401),
    ``password`` (422, too short), ``password_again`` (422, the two differ); beyond the login
    limits, ``attempts`` (429 with Retry-After: the current password is not checked)."""
    player = current_player()
    assert player is not None  # login_required
    current, new, again = (request.form.get(name, "") for name in ("current_password", "password", "password_again"))
    field, status, headers = "password_again", 422, {}
    if new == again:
        try:
            accounts.change_password(player.id, current, new, request.remote_addr or "")
        except TooManyAttempts as refused:
            field, status, headers = "attempts", refused.status, retry_after_header(refused.retry_after)
        except ServiceError as refused:
            field, status = refused.field or "password", refused.status
        else:
            log_in(player)
            return redirect(url_for("auth.account", changed="password"))
    page = render_template("account.html", error=field, changed=False, min_password=accounts.MIN_PASSWORD)
    return page, status, headers
