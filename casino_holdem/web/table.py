"""The table page: the round as it happens, live from ``/events/tables/<id>``."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..services import player_settings, rounds, viewing
from .security import login_required, player_id

bp = Blueprint("table", __name__)


@bp.get("/tables/<int:table_id>")
@login_required
def table(table_id: int) -> str:
    """R8: opening the page brings a player who was away back into the same round."""
    rounds.rejoin(player_id(), table_id)
    return render_template("table.html", state=viewing.table_view(table_id, player_id()),
                           settings=player_settings.settings_of(player_id()),
                           settings_choices=player_settings.REALITY_CHECK_MINUTES)
