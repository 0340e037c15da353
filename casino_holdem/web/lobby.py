"""The lobby page: every open table with its limits and jackpot meter in the player's currency."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..services import viewing
from .security import login_required, player_id

bp = Blueprint("lobby", __name__)


@bp.get("/")
@login_required
def lobby() -> str:
    return render_template("lobby.html", state=viewing.lobby_view(player_id()))
