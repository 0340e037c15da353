"""R9: voiding a round the house declares void (a card exposed during betting, a misdeal, a card
seen when dropped during the deal, a card stuck in the shuffler, or the house's own decision).

The core decides what each stake becomes (:meth:`~casino_holdem.core.round.Round.void`);
this module moves the money accordingly, reverses the pool contributions and audits the reason
and the stage, in one transaction.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from ..core.money import ZERO
from ..core.round import FINISHED
from ..core.rules import Stage, VoidReason, void_out_of_place
from ..models import JackpotPool, MovementKind
from . import audit, queries, round_postings
from .errors import Unprocessable, core_refusals, one_of
from .jackpot import house_move, move
from .round_rows import load_round, reveal, save_result
from .transaction import clock, transactional
from .viewing import house_round

if TYPE_CHECKING:
    from .operators import OperatorView


@transactional
def void_round(round_id: int, reason: str, stage: str | None = None, *, by: OperatorView,
               now: dt.datetime | None = None) -> dict[str, Any]:
    """R9: void a round in play: every stake still in play is refunded (a fold made before stands;
    after a shuffler jam once the Player's hole cards were dealt, the Bonus stands and is paid),
    the Progressive contributions come back out of the pool, and the reason and stage are audited.
    ``stage`` defaults to the step under way and cannot be a later one. Returns the round as the
    house sees it (:func:`.viewing.house_round`)."""
    moment, actor = clock(now), audit.actor_of(by)
    why = one_of(VoidReason, reason, "reason")
    table, round_row = queries.lock_round(round_id)
    core = load_round(round_row)
    stages = list(Stage)
    at = one_of(Stage, stage, "stage") if stage else core.stage
    if round_row.phase not in FINISHED and stages.index(at) > stages.index(core.stage):
        raise Unprocessable(f"stage: {at.value} has not been reached (the round is at {core.stage.value})", "stage")
    refused = void_out_of_place(why, at, core.dealt_count)  # R9 [reading]: as a scenario's void is judged
    if refused:
        raise Unprocessable(f"reason: {refused}", "reason")
    round_postings.lock_players_side(round_row)
    pool = queries.lock(JackpotPool, table.pool_id)
    owed = sum((bet.contribution for bet in round_row.bets), ZERO)
    if owed > pool.amount:  # the pool paid out since (R5 never below zero): the house refunds the rest
        house_move(pool.id, MovementKind.SEED_TOP_UP, owed - pool.amount, actor=actor,
                   reason=f"R9: void of round {round_row.id} after the pool paid out its contributions")
    pool_before = round_postings.pool_before(pool, round_row)
    with core_refusals("round"):
        result = core.void(why, pool_before, at)
    end = round_postings.voided(round_row, result, pool.id, core.paytable)
    phase_before = round_row.phase
    move(pool.id, "void", end.entries, end.movements, actor=actor, round_id=round_row.id, reason=why.value)
    round_row.void_reason, round_row.void_stage, round_row.voided_by = why.value, at.value, by.username
    save_result(round_row, core, result, pool_before, moment)
    audit.operator_action(by, "round_void", reason=why.value, table_id=table.id, round_id=round_row.id, now=moment,
                          before={"phase": phase_before}, after={"phase": round_row.phase}, stage=at.value,
                          **reveal(round_row, result))
    return house_round(round_row)
