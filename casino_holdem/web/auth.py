"""Login, registration and logout pages (forms posting with the session's CSRF token)."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..services import accounts
from ..services.errors import ServiceError
from .security import current_player, log_in, log_out

bp = Blueprint("auth", __name__)


def _next_page() -> str:
    """Where to go after logging in: a path on this site only (no open redirect)."""
    target = request.values.get("next", "")
    # Browsers drop tabs and newlines from URLs, so "/<TAB>/evil.com" would become "//evil.com".
    clean = not any(ord(char) < 0x20 or char == "\\" for char in target)
    local = clean and target.startswith("/") and not target.startswith("//")
    return target if local else url_for("lobby.lobby")


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    if request.method == "GET" and current_player() is not None:
        return redirect(_next_page())
    message, status = None, 200
    if request.method == "POST":
        username = request.form.get("username", "")
        try:
            player = accounts.login(username, request.form.get("password", ""), request.remote_addr or "")
        except accounts.TooManyAttempts as error:
            message, status = error.message, error.status
        else:
            if player is not None:
                log_in(player)
                return redirect(_next_page())
            message, status = "Wrong username or password.", 401
    return render_template("login.html", message=message, demo=accounts.demo_logins(),
                           next_page=request.values.get("next", "")), status


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
    return render_template("register.html", error=error, currencies=accounts.currencies(),
                           form=request.form), (error.status if error else 200)


@bp.post("/logout")
def logout() -> Response:
    log_out()
    return redirect(url_for("auth.login"))
