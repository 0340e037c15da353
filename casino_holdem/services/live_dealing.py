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
from typing import TYPE_CHECKING, Any

from ..core.incidents import Effect, IncidentKind, Report, Ruling, rule
from ..core.phases import DEALING_ORDER, Phase, Receiver
from ..extensions import db
from ..models import GameRound, GameTable, IncidentRecord
from . import audit, queries
from .dealer_steps import settle
from .errors import Conflict, core_refusals, one_of
from .round_rows import load_round
from .rounds import save_play
from .transaction import clock, transactional
from .viewing import round_seen_by
from .voids import void_round

if TYPE_CHECKING:
    from .operators import OperatorView


def _live_round(table_id: int) -> tuple[GameTable, GameRound]:
    table = queries.lock(GameTable, table_id)
    round_row = queries.latest_round(table.id, for_update=True)
    if round_row is None:
        raise Conflict("R1: no round is open at this table", "table")
    return table, round_row


@transactional
def deal_card(table_id: int, code: str, *, operator: str, position: int | None = None,
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
    actor = audit.operator_actor(operator)
    save_play(round_row, core, moment, actor=actor)
    # R1: the Dealer's cards are named in the audit only by the reveal at the end
    shown = None if step.receiver is Receiver.DEALER else str(core.deck[step.position])
    audit.record(actor, "card_entered", table_id=table.id, round_id=round_row.id, now=moment, position=step.position,
                 label=step.label, card=shown)
    if core.phase is Phase.SHOWDOWN and not core.awaiting_cards:
        settle(table, round_row, core, moment)
    return dealer_view(table.id)


@transactional
def report_incident(table_id: int, kind: str, *, by: OperatorView, card: str | None = None,
                    wrong_position: int | None = None, house_voids: bool = False,
                    now: dt.datetime | None = None) -> dict[str, Any]:
    """R9: record an incident on the table's live round and apply what R9 says: a void through
    the one void path (:func:`.voids.void_round`); otherwise the round goes on and players see a
    short notice. Returns the recorded incident."""
    moment = clock(now)
    table, round_row = _live_round(table_id)
    report = Report(one_of(IncidentKind, kind, "kind"), card or None, wrong_position, house_voids)
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


def dealer_view(table_id: int) -> dict[str, Any]:
    """What the dealer's console shows: the round as the public sees it (:func:`.viewing.round_seen_by`:
    the Dealer's cards stay hidden until showdown, even here), the step the next card goes to, the
    timers and the bettors' count, never their bets."""
    table = queries.get(GameTable, table_id)
    round_row = queries.latest_round(table.id)
    view: dict[str, Any] = {"table_id": table.id, "table_name": table.name, "dealing": table.dealing,
                            "round": None, "next": None, "dealt": 0,
                            "incidents": [kind.value for kind in IncidentKind]}
    if round_row is None:
        return view
    core = load_round(round_row)
    step = core.next_step
    view.update(round=round_seen_by(round_row, None), dealt=core.dealt_count,
                next=None if step is None else {"position": step.position, "label": step.label,
                                                "receiver": step.receiver.value})
    return view
