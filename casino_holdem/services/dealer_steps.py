"""The dealer's steps: what moves a table on when the clock says so, one step per transaction.

A round goes through these named steps, in this order (:func:`advance` takes the one that is due):

1. :func:`open_round` — R1: a fresh shuffle; betting opens (R2.1) and the deck's commitment is published,
   once the last round's showdown pause is over (R2.7, :func:`.windows.showdown_until`).
2. :func:`extend_betting` — a betting window nobody bet in is opened again; a round nobody bet on
   is never dealt.
3. :func:`deal_next` — close the betting or decision window and deal the next street (R1 order):
   the hole cards (R2.2), the flop (R2.4), the turn (R2.5), the river (R2.6). A decision window
   closes when it expires or when every bettor has decided; R8 decides for whoever has not
   (fold before the flop, check after it), recorded with the reason.
4. :func:`settle` — R2.7, R3-R6: the showdown, settled against the locked pool.

A dealer killed between two steps resumes from the last committed one; two dealers never take a
step twice, because each step is chosen again under the table's lock.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from ..core.round import FINISHED, Phase, Round
from ..core.shuffle import commit, deck_text, new_nonce, secure_shuffle
from ..extensions import db
from ..models import GameRound, GameTable, JackpotPool, MovementKind
from . import audit, queries, round_postings, table_changes
from .jackpot import house_move, move
from .round_rows import load_round, reveal, save_result, table_limits, table_paytable, table_timers
from .rounds import save_play
from .transaction import clock, transactional
from .wallet import post
from .windows import showdown_until


@dataclass(frozen=True, slots=True)
class Step:
    """What one :func:`advance` did: ``opened``, ``betting_extended``, ``hole_cards``, ``flop``,
    ``turn``, ``river`` (the street dealt) or ``settled``; ``automatic`` counts R8 decisions taken.
    ``again``: whether the table may have another step due at once (a round everyone has decided,
    R2.3-R2.5; a showdown to settle, R2.7; the next round when there is no showdown pause), so
    that the dealer's pass asks :func:`advance` again; otherwise the next step waits for a
    deadline or a player (issue 10: asking again locked and read the table's round after every
    step, to find nothing due, while its players decided)."""

    table_id: int
    round_id: int
    round_number: int
    event: str
    automatic: int = 0
    again: bool = True


class TableBusy(Exception):
    """The table's row is held by another transaction (a bet, a decision, another dealer): its
    step is tried again as soon as that one commits (issue 10: dealer lag)."""


def _deal_afresh(table: GameTable, round_row: GameRound, now: dt.datetime) -> Round:
    """R1: the round's deck under the table's settings, paytable and dealing source: a fresh CSPRNG
    shuffle whose commitment is published now (the deck and nonce after the end), or, at a live
    table, no deck and no commitment (its cards come from the dealer's console); betting opens."""
    live = table.dealing == "live"
    paytable, limits, timers = table_paytable(table), table_limits(table), table_timers(table)
    core = (Round.open_live(paytable, limits, timers, now) if live
            else Round.open(paytable, secure_shuffle(), limits, timers, now))
    nonce = None if live else new_nonce()
    round_row.commitment = None if nonce is None else commit(core.deck, nonce)
    round_row.deck, round_row.nonce, round_row.dealing = deck_text(core.deck), nonce, table.dealing
    round_row.phase, round_row.deadline, round_row.dealt_count = core.phase.value, core.deadline, 0
    round_row.paytable_id, round_row.paytable_version = table.paytable_id, table.paytable_version
    round_row.paytable_sha256 = table.paytable_sha256
    return core


def open_round(table: GameTable, number: int, now: dt.datetime) -> Step:
    """R1: the table's next round (:func:`_deal_afresh`). The operators' due table changes land
    first, between two rounds (:mod:`.table_changes`)."""
    changes = table_changes.apply_due(table, now)
    round_row = GameRound(table_id=table.id, number=number, opened_at=now)
    core = _deal_afresh(table, round_row, now)
    db.session.add(round_row)
    db.session.flush()
    for change in changes:
        change.applied_round_id = round_row.id
    audit.record(audit.DEALER, "round_opened", table_id=table.id, round_id=round_row.id, now=now, number=number,
                 commitment=round_row.commitment, deadline=core.deadline)
    return Step(table.id, round_row.id, number, "opened", again=False)  # R2.1: nobody has bet yet


def reopen(table: GameTable, round_row: GameRound, now: dt.datetime) -> Step | None:
    """The due table changes of an idle table (:mod:`.table_changes`): its empty round, under which
    no stake was placed (R2.1), is dealt afresh under the new settings, paytable and dealing source
    (a new commitment, published now) and its betting window starts again; nothing due: None.
    The deck and nonce given up are published with it, so its first commitment can be checked."""
    changes = table_changes.apply_due(table, now)
    if not changes:
        return None
    given_up = {"commitment": round_row.commitment, "deck": round_row.deck, "nonce": round_row.nonce}
    core = _deal_afresh(table, round_row, now)
    for change in changes:
        change.applied_round_id = round_row.id
    audit.record(audit.DEALER, "round_reopened", table_id=table.id, round_id=round_row.id, now=now,
                 changes=[change.id for change in changes], commitment=round_row.commitment, deadline=core.deadline,
                 given_up=given_up)
    return Step(table.id, round_row.id, round_row.number, "reopened", again=False)


def extend_betting(table: GameTable, round_row: GameRound, core: Round, now: dt.datetime) -> Step | None:
    """A betting window that closed with no bets opens again. A closed table's empty round just
    waits (no audit entry every window)."""
    if core.deadline is None or now < core.deadline or not queries.takes_rounds(table):
        return None
    core.advance(now)
    round_row.deadline = core.deadline
    audit.record(audit.DEALER, "betting_extended", table_id=table.id, round_id=round_row.id, now=now,
                 deadline=core.deadline)
    return Step(table.id, round_row.id, round_row.number, "betting_extended", again=False)


def deal_next(round_row: GameRound, core: Round, now: dt.datetime) -> Step | None:
    """Close the window when it is due (R8: automatic fold before the flop, check after) and
    deal the next street (R1)."""
    if not core.due(now):
        return None
    automatic = core.advance(now)
    save_play(round_row, core, now, actor=audit.DEALER)
    return Step(round_row.table_id, round_row.id, round_row.number, core.stage.value, len(automatic),
                again=core.due(now) or (core.phase is Phase.SHOWDOWN and not core.awaiting_cards))


def settle(table: GameTable, round_row: GameRound, core: Round, now: dt.datetime) -> Step:
    """R2.7, R3-R6: settle against the locked pool, pay awards, refill the pool to its seed. The
    pool row is locked after the players' accounts, and only when a bettor made the Progressive
    bet: a round without one neither moves nor reads the pool for its money (its ``pool_before``
    is the meter as read, which nothing is paid from), so it never waits on the linked tables."""
    round_postings.lock_players_side(round_row)
    progressive = any(bet.progressive for bet in round_row.bets)
    pool = queries.lock(JackpotPool, table.pool_id) if progressive else queries.get(JackpotPool, table.pool_id)
    pool_before = round_postings.pool_before(pool, round_row)
    result = core.settle(pool_before)
    end = round_postings.settled(round_row, result, pool.id, core.paytable)
    save_result(round_row, core, result, pool_before, now)
    audit.record(audit.DEALER, "round_settled", table_id=table.id, round_id=round_row.id, now=now,
                 pool_before=pool_before, pool_after=result.pool.after + result.pool.top_up, top_up=result.pool.top_up,
                 awards={t: amount for t, amount in result.awards_by_table.items()}, **reveal(round_row, result))
    if not progressive:
        post("settlement", end.entries, round_id=round_row.id)
        return Step(table.id, round_row.id, round_row.number, "settled")
    move(pool.id, "settlement", end.entries, end.movements, actor=audit.DEALER, round_id=round_row.id)
    if result.pool.top_up > 0:
        house_move(pool.id, MovementKind.SEED_TOP_UP, result.pool.top_up, actor=audit.DEALER, round_id=round_row.id,
                   reason="R5: seed after a hit")
    return Step(table.id, round_row.id, round_row.number, "settled")


@transactional
def advance(table_id: int, now: dt.datetime | None = None, *, skip_locked: bool = False,
            showdown_pause: float = 0.0) -> Step | None:
    """Take the table's next step when it is due (see the module docstring), or return None.
    With ``skip_locked`` (the dealer loop) a table another transaction holds raises
    :class:`TableBusy` instead of waiting; a finished round stays on the felt ``showdown_pause``
    seconds before the next one opens (R2.7)."""
    moment = clock(now)
    if skip_locked:
        table = queries.try_lock(GameTable, table_id, skip_locked=True)
        if table is None:
            raise TableBusy(f"table {table_id} is held by another transaction")
    else:
        table = queries.lock(GameTable, table_id)
    round_row = queries.latest_round(table.id, for_update=True)
    if round_row is None or round_row.phase in FINISHED:
        finished_at = None if round_row is None else round_row.finished_at
        if not queries.takes_rounds(table) or showdown_until(finished_at, showdown_pause, moment) is not None:
            return None
        return open_round(table, (round_row.number + 1) if round_row else 1, moment)
    core = load_round(round_row)
    if core.phase is Phase.SHOWDOWN and not core.awaiting_cards:  # R2.7: the next round after the pause
        return replace(settle(table, round_row, core, moment),
                       again=showdown_until(moment, showdown_pause, moment) is None)
    if core.phase is Phase.BETTING and not core.bettors:
        return reopen(table, round_row, moment) or extend_betting(table, round_row, core, moment)
    return deal_next(round_row, core, moment)
