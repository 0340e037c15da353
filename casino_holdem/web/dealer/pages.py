"""The dealer's console (``/operator/dealer/``): the live tables, and a page per table built for a
touch screen and a card scanner (which types a code and Enter). The page is static HTML; its
script (``static/dealer.js``, no inline script: CSP) runs on the dealer API and polls the table's
state, so it shows exactly what the API gives (the Dealer's cards only after showdown)."""

from __future__ import annotations

from flask import Blueprint, render_template

from ...core.cards import RANKS
from ...core.incidents import IncidentKind, Report, needs_house
from ...core.phases import DEALING_ORDER
from ...services import live_dealing
from ...services.operators import Role
from ..operator_auth import operator_required
from ..security import current_operator

bp = Blueprint("dealer_pages", __name__, url_prefix="/operator/dealer")
DEALER, PIT = Role.DEALER, Role.PIT
#: R9: the console's button for each incident
INCIDENT_LABELS: dict[IncidentKind, str] = {
    IncidentKind.EXPOSED_WHILE_SHUFFLING: "Exposed while shuffling",
    IncidentKind.CARD_EXPOSED: "Card exposed",
    IncidentKind.DROPPED_IN_SHUFFLE: "Dropped in the shuffle",
    IncidentKind.DROPPED_ON_BURN: "Dropped on a burn",
    IncidentKind.DROPPED_FACE_UNSEEN: "Dropped, face unseen",
    IncidentKind.DROPPED_FACE_SEEN: "Dropped, face seen",
    IncidentKind.DROPPED_IN_VIEW: "Dropped in view",
    IncidentKind.MISDEAL: "Misdeal / wrong position",
    IncidentKind.SHUFFLER_JAM: "Stuck in the shuffler",
    IncidentKind.OTHER_ERROR: "Other error (house void)",
}


@bp.get("/")
@operator_required(DEALER, PIT)
def tables() -> str:
    return render_template("dealer/tables.html", tables=live_dealing.live_tables(), operator=current_operator(),
                           errors={}, done=None)


@bp.get("/<int:table_id>")
@operator_required(DEALER, PIT)
def console(table_id: int) -> str:
    operator = current_operator()
    house = operator is not None and operator.role is PIT
    barred = {kind: needs_house(Report(kind)) and not house for kind in INCIDENT_LABELS}
    return render_template("dealer/console.html", state=live_dealing.dealer_view(table_id), operator=operator,
                           house=house, incidents=[(kind.value, label, barred[kind]) for kind, label in
                                                   INCIDENT_LABELS.items()],
                           steps=DEALING_ORDER, ranks=RANKS, errors={}, done=None)
