"""History and game recall pages: the player's finished rounds, 10 a page, and one round."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..services import history
from .api import page_argument
from .security import login_required, player_id

bp = Blueprint("history", __name__)


@bp.get("/history")
@login_required
def rounds() -> str:
    return render_template("history.html", page=history.rounds_of(player_id(), page_argument()))


@bp.get("/history/<int:round_id>")
@login_required
def recall(round_id: int) -> str:
    return render_template("recall.html", round=history.recall(player_id(), round_id))
