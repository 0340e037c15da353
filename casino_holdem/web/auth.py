"""Login, registration and logout pages (forms posting with the session's CSRF token)."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..services import accounts
from ..services.errors import ServiceError
from .security import current_player, form_login, log_in, log_out, next_page

bp = Blueprint("auth", __name__)


def _next_page() -> str:
    return next_page("/", url_for("lobby.lobby"))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    if request.method == "GET" and current_player() is not None:
        return redirect(_next_page())
    message, status = None, 200
    if request.method == "POST":
        signed_in, message, status = form_login(accounts.login, log_in)
        if signed_in:
            return redirect(_next_page())
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
