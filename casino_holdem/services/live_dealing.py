"""Live dealing (R1, R9): a table's dealing source, cards entered from a dealer's console or a
studio's card-recognition system, and the R9 incidents a dealer or pit supervisor reports.

Each operation is one transaction under the table's lock, like the rest of play: the core round
is loaded from its rows, the core checks the card (:meth:`~casino_holdem.core.round.Round.deal_card`)
or rules on the incident (:func:`~casino_holdem.core.incidents.rule`), and the result is written
back through the same code as an RNG round (:func:`.rounds.save_play`, :func:`.dealer_steps.settle`,
:func:`.voids.void_round`): a live round is settled or voided exactly like any other.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select

from ..core.incidents import Effect, IncidentKind, Report, Ruling, needs_house, rule
from ..core.phases import DEALING_ORDER, FINISHED, Phase, Receiver
from ..core.round import Round
from ..extensions import db
from ..models import GameRound, GameTable, IncidentRecord
from . import audit, queries
from .dealer_steps import settle
from .errors import Conflict, Forbidden, core_refusals, one_of
from .operators import OperatorView, Role
from .round_rows import load_round
from .rounds import save_play
from .transaction import clock, reading, transactional
from .viewing import round_seen_by
from .voids import void_round


def _live_round(table_id: int) -> tuple[GameTable, GameRound]:
    table = queries.lock(GameTable, table_id)
    round_row = queries.latest_round(table.id, for_update=True)
    if round_row is None:
        raise Conflict("R1: no round is open at this table", "table")
    return table, round_row


@transactional
def deal_card(table_id: int, code: str, *, by: OperatorView, position: int | None = None,
              now: dt.datetime | None = None) -> dict[str, Any]:
    """R1: the next card of the table's live round, as typed or scanned (``As``, ``Td``, ``10d``).
    Refused with no change when it is a duplicate, not a card, out of turn (no card due, or not
    ``position``) or the round is over. The card that completes a street starts its decision
    window (R8); the river is settled at once (R2.7). Returns :func:`dealer_view`."""
    moment = clock(now)
    table, round_row = _live_round(table_id)
    core = load_round(round_row)
    with core_refusals("card"):
        step = core.deal_card(code, now=moment, position=position)
    save_play(round_row, core, moment, actor=audit.actor_of(by))
    # R1: the Dealer's cards are named in the audit only by the reveal at the end
    shown = None if step.receiver is Receiver.DEALER else str(core.deck[step.position])
    audit.operator_action(by, "card_entered", reason=None, table_id=table.id, round_id=round_row.id, now=moment,
                          position=step.position, label=step.label, card=shown)
    if core.phase is Phase.SHOWDOWN and not core.awaiting_cards:
        settle(table, round_row, core, moment)
    return dealer_view(table.id)


@transactional
def report_incident(table_id: int, kind: str, *, by: OperatorView, card: str | None = None,
                    wrong_position: int | None = None, house_voids: bool = False,
                    now: dt.datetime | None = None) -> dict[str, Any]:
    """R9: record an incident on the table's live round and apply what R9 says: a void through
    the one void path (:func:`.voids.void_round`); otherwise the round goes on and players see a
    short notice. Returns the recorded incident. A dealer may not call the house's own voids
    (:func:`~casino_holdem.core.incidents.needs_house`; a pit supervisor may): refused, nothing recorded."""
    moment = clock(now)
    report = Report(one_of(IncidentKind, kind, "kind"), card or None, wrong_position, house_voids)
    if by.role is Role.DEALER and needs_house(report):
        field = "house_voids" if report.kind is IncidentKind.MISDEAL else "kind"
        raise Forbidden(f"{field}: R9: only the house (a pit supervisor) may void a round for "
                        f"{report.kind.value}; report it to the pit", field)
    table, round_row = _live_round(table_id)
    with core_refusals("kind"):
        ruling = rule(load_round(round_row), report)
    record = _record(table, round_row, ruling, by, moment)
    if ruling.effect is Effect.VOID:
        assert ruling.void_reason is not None  # a void ruling names its reason
        void_round(round_row.id, ruling.void_reason.value, ruling.stage.value, by=by, now=moment)
    return incident_view(record)


def _record(table: GameTable, round_row: GameRound, ruling: Ruling, by: OperatorView,
            moment: dt.datetime) -> IncidentRecord:
    record = IncidentRecord(table_id=table.id, round_id=round_row.id, kind=ruling.kind.value,
                            effect=ruling.effect.value, stage=ruling.stage.value,
                            card=None if ruling.card is None else str(ruling.card),
                            wrong_position=ruling.wrong_position, corrected_to=ruling.corrected_to,
                            void_reason=None if ruling.void_reason is None else ruling.void_reason.value,
                            notice=ruling.notice, reported_by=by.username, reported_at=moment)
    db.session.add(record)
    db.session.flush()
    audit.operator_action(by, "incident", reason=record.kind, table_id=table.id, round_id=round_row.id, now=moment,
                          incident_id=record.id, kind=record.kind, effect=record.effect, stage=record.stage,
                          card=record.card, wrong_position=record.wrong_position, corrected_to=record.corrected_to,
                          void_reason=record.void_reason, deck_restored=ruling.deck_restored)
    return record


def _label(position: int | None) -> str | None:
    return None if position is None else DEALING_ORDER[position].label


def incident_view(record: IncidentRecord) -> dict[str, Any]:
    """One recorded incident as the house sees it (R9: who, when, which card, stage, what was done)."""
    return {"id": record.id, "round_id": record.round_id, "kind": record.kind, "effect": record.effect,
            "stage": record.stage, "card": record.card, "wrong_position": _label(record.wrong_position),
            "corrected_to": _label(record.corrected_to), "void_reason": record.void_reason,
            "notice": record.notice, "reported_by": record.reported_by,
            "reported_at": record.reported_at.isoformat()}


def _steps(core: Round) -> list[dict[str, Any]]:
    """R1's twelve steps, which are dealt, and the dealt cards the public may see: the Player's
    cards and the board; the Dealer's and the burn cards only once the round is over (R2.7)."""
    finished = core.phase in FINISHED
    return [{"position": step.position, "label": step.label, "receiver": step.receiver.value,
             "dealt": step.position < core.dealt_count,
             "card": (str(core.deck[step.position]) if step.position < core.dealt_count
                      and (finished or step.receiver in (Receiver.PLAYER, Receiver.BOARD)) else None)}
            for step in DEALING_ORDER]


@reading
def dealer_view(table_id: int) -> dict[str, Any]:
    """What the dealer's console shows: the round as the public sees it (:func:`.viewing.round_seen_by`:
    the Dealer's cards stay hidden until showdown, even here), the step the next card goes to, R1's
    steps with the public cards, the timers (``server_time`` beside the round's deadline) and the
    bettors' count, never their bets."""
    table = queries.get(GameTable, table_id)
    round_row = queries.latest_round(table.id)
    view: dict[str, Any] = {"table_id": table.id, "table_name": table.name, "dealing": table.dealing,
                            "is_open": table.is_open, "server_time": clock(None).isoformat(),
                            "round_id": None, "round": None, "next": None, "dealt": 0, "steps": [],
                            "incidents": [kind.value for kind in IncidentKind]}
    if round_row is None:
        return view
    core = load_round(round_row)
    step = core.next_step
    view.update(round_id=round_row.id, round=round_seen_by(round_row, None), dealt=core.dealt_count, steps=_steps(core),
                next=None if step is None else {"position": step.position, "label": step.label,
                                                "receiver": step.receiver.value})
    return view


@reading
def live_tables() -> list[dict[str, Any]]:
    """The live tables a dealer may deal at (R1), each with its round's phase and next step."""
    rows = db.session.scalars(select(GameTable).where(GameTable.dealing == "live").order_by(GameTable.id))
    found = []
    for view in (dealer_view(row.id) for row in rows):
        round_ = view["round"]
        found.append({"table_id": view["table_id"], "table_name": view["table_name"], "is_open": view["is_open"],
                      "round_id": round_ and round_["round_id"], "phase": round_ and round_["phase"],
                      "bettor_count": round_["bettor_count"] if round_ else 0, "next": view["next"]})
    return found
