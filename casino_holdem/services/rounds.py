"""Playing a round: placing bets (R2.1), the decisions on each street (R2.3-R2.5), leaving and
coming back (R8).

Every transaction locks the round's row (a bet, leaving and coming back: the table's row first),
loads the core round from its rows (:func:`.round_rows.load_round`), applies one operation through
the core (which checks R1, R2, R8), and writes the result back with its ledger postings and audit
entries (:func:`save_play`). Bets and decisions share their locks (issue 10: the twenty bettors of
a table act in the same seconds); a player's two requests queue on their wallet's lock, and the unique keys
refuse a second bet on a round or a second decision on a street, which the retry then reports.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import bindparam, or_, select
from sqlalchemy.orm import contains_eager, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from ..core.cards import format_cards
from ..core.money import ZERO, format_amount
from ..core.progressive import contribution
from ..core.round import BETTING_CLOSED, FINISHED, Action, Phase, Round
from ..extensions import db
from ..models import Bet, DecisionRecord, GameRound, GameTable, MovementKind
from . import audit, queries
from .errors import BadRequest, Conflict, InsufficientFunds, core_refusals, one_of
from .inserted import insert_rows
from .jackpot import Movement, move, pool_legs
from .round_postings import STREET_BET, post_street_bets
from .round_rows import load_round, save_round
from .transaction import clock, transactional
from .wallet import (
    UNFINISHED_BET,
    Balance,
    Entry,
    amount_of,
    exposure,
    in_play_account,
    lock_accounts,
    player_wallet,
    post,
    read_stake_accounts,
)
from .wallet import balance as wallet_balance
from .windows import has_closed, window_end

MAX_REQUEST_ID = 128
CLOSED_AT_TABLE = "R2.1: betting is closed at this table"


@dataclass(frozen=True, slots=True)
class BetReceipt:
    """A placed bet as first recorded (a retry with the same request id returns the same)."""

    bet_id: int
    round_id: int
    round_number: int
    table_id: int
    player_id: int
    currency: str
    ante: Decimal
    bonus: Decimal
    progressive: Decimal
    request_id: str
    balance: Balance


@dataclass(frozen=True, slots=True)
class DecisionReceipt:
    round_id: int
    player_id: int
    street: str
    action: str
    automatic: str | None
    decided_at: dt.datetime
    amount: Decimal


def save_play(round_row: GameRound, core: Round, now: dt.datetime, *, actor: str,
              request_ids: Mapping[int, str] | None = None) -> list[DecisionRecord]:
    """Write the core round back (:func:`.round_rows.save_round`), audit every new decision (R8
    automatic ones under the dealer's name), move the Flop/Turn/River bets just made by them from
    wallet to play (R2.3-R2.5) and audit the cards just dealt. Returns the new decision rows."""
    saved = save_round(round_row, core, now, request_ids)
    decided = [audit.entry(actor if row.automatic is None else audit.DEALER, "decision", table_id=round_row.table_id,
                           round_id=round_row.id, player_id=bet.player_id, now=now, street=row.street,
                           decision=row.action, automatic=row.automatic) for bet, row in saved.decisions]
    # only a decision makes a street bet (R2.3-R2.5): the bets of other bettors, who may decide in
    # the same instant (their rows read a statement apart), are left to their own transactions;
    # the decisions' audit entries go in with the first street bet's posting, if any
    post_street_bets([(bet, core.bettors[str(bet.player_id)].stake())
                      for bet in {bet.id: bet for bet, _ in saved.decisions}.values()], also=decided)
    if saved.dealt:
        cards = core.cards  # R1: the Player's cards and the board are public, the Dealer's are not
        audit.record(audit.DEALER, "dealt", table_id=round_row.table_id, round_id=round_row.id, now=now,
                     street=core.stage.value, player=format_cards(cards.player),
                     board=format_cards(cards.board))
    db.session.flush()
    return [row for _, row in saved.decisions]


# --- bets (R2.1) ------------------------------------------------------------------------------------

def _receipt(bet: Bet, round_row: GameRound, balance: Balance | None = None) -> BetReceipt:
    """The receipt with the player's balance after the bet: as just posted, or read (a retry)."""
    return BetReceipt(bet.id, round_row.id, round_row.number, round_row.table_id, bet.player_id, bet.currency,
                      bet.ante, bet.bonus, bet.progressive, bet.request_id, balance or wallet_balance(bet.player_id))


#: :func:`place_bets`'s read of the player's bets: a retry's (``request_id``), any on the round
#: taking bets (``round_id``) and those of unfinished rounds (:data:`.wallet.UNFINISHED_BET`),
#: built once with its parameters named (issue 10)
PLAYERS_BETS_FOR_A_BET = (
    select(Bet).join(GameRound).options(contains_eager(Bet.round), selectinload(Bet.decisions))
    .where(Bet.player_id == bindparam("player_id"),
           or_(Bet.request_id == bindparam("request_id"), Bet.round_id == bindparam("round_id"), UNFINISHED_BET)))


@transactional
def place_bets(player_id: int, table_id: int, ante: Decimal | str | int, bonus: Decimal | str | int = ZERO,
               progressive: bool = False, *, request_id: str, round_id: int | None = None,
               now: dt.datetime | None = None) -> BetReceipt:
    """R2.1: an Ante with an optional Bonus and Progressive bet on the table's current round.

    Idempotent by ``request_id``: a retry returns the first receipt and never debits twice; the
    same id with different content is a conflict. ``round_id`` names the round the player saw
    taking bets: bets that arrive once that round's betting is over are refused, never placed on
    the next round (R2.1, R8; a player bets on the round in front of them). The balance must
    cover the bets *and* the Flop bet and later bets (4 × Ante in all, R2.3-R2.5) on top of what
    the player's other open rounds reserve, so a player never goes negative mid-round. The Progressive contribution
    goes into the pool at once (R5: contribution × 1 base unit, whatever the currency, R6)."""
    moment = clock(now)
    if not request_id or len(request_id) > MAX_REQUEST_ID:
        raise BadRequest(f"request_id: required, at most {MAX_REQUEST_ID} characters", "request_id")
    ante_value, bonus_value = amount_of(ante, "ante"), amount_of(bonus, "bonus")
    if not isinstance(progressive, bool):
        raise BadRequest("progressive: must be true or false", "progressive")
    currency = queries.player_currency(player_id)
    fingerprint = hashlib.sha256(
        f"{table_id}|{ante_value.normalize()}|{bonus_value.normalize()}|{progressive}".encode()).hexdigest()
    seen = queries.current_clock(table_id)
    if seen is not None and (seen.phase != Phase.BETTING.value or (seen.has_bets and seen.passed(moment))
                             or _another_round(round_id, seen.round_id)):
        return _late_bet(player_id, request_id, fingerprint, seen, round_id)
    table = queries.lock(GameTable, table_id, shared=True)
    round_row, moves_deadline = _betting_round(table, seen, moment)
    if round_row is not None:
        read_stake_accounts(player_id, currency, round_row.id, table.pool_id if progressive else None)
    wallet = player_wallet(player_id, currency)
    lock_accounts([wallet])  # the player's own requests, on any table, are taken one at a time from here
    # one read (issue 10) of the player's bets that matter here: a retry's (this request id), any on
    # this round, and those of unfinished rounds, whose later bets this wallet must still cover
    this_round = round_row and round_row.id
    mine = db.session.scalars(PLAYERS_BETS_FOR_A_BET, {"player_id": player_id, "request_id": request_id,
                                                        "round_id": this_round}).all()
    earlier = {bet.request_id == request_id: bet for bet in mine
               if bet.request_id == request_id or bet.round_id == this_round}
    if (first := earlier.get(True)) is not None:  # a retry, whatever round it was for
        return _retried(first, request_id, fingerprint)
    if round_row is not None and _another_round(round_id, round_row.id):
        raise Conflict(_over(round_id), "round_id")
    if earlier:
        raise Conflict(f"R2.1: {player_id} has already placed bets on this round", "table")
    if table.suspended_reason is not None:
        raise Conflict(f"table: suspended ({table.suspended_reason}); no bets until it is resumed", "table")
    if round_row is None or round_row.phase != Phase.BETTING.value or not table.is_open:
        raise Conflict(CLOSED_AT_TABLE, "table")
    queries.set_own_bets(round_row, [])  # ``earlier`` found none of theirs on this round
    core = load_round(round_row)
    if core.deadline is not None and moves_deadline:
        core.deadline = round_row.deadline = window_end(core.deadline, table.betting_seconds, moment)  # windows.py
    with core_refusals("table"):
        bettor = core.place_bets(str(player_id), currency, ante_value, bonus_value, progressive, now=moment)
    stake = bettor.stake()
    held = exposure(bet for bet in mine if bet.round.phase not in FINISHED)
    available = wallet.balance - held
    if available < stake.staked + bettor.exposure:
        raise InsufficientFunds(
            f"balance: {format_amount(available)} {currency} available; these bets take "
            f"{format_amount(stake.staked)} now and keep {format_amount(bettor.exposure)} for the Flop bet "
            "and later bets (R2.3-R2.5)")
    (bet,) = insert_rows(Bet, [{  # one statement, no flush (:mod:`.inserted`)
        "round_id": round_row.id, "player_id": player_id, "currency": currency, "ante": stake.ante,
        "bonus": stake.bonus, "progressive": stake.progressive, "flop": ZERO, "turn": ZERO, "river": ZERO,
        "contribution": contribution([stake], core.paytable) if progressive else ZERO, "request_id": request_id,
        "request_fingerprint": fingerprint, "connected": True, "placed_at": moment, "returned": None,
        "outcome": None}])
    set_committed_value(bet, "round", round_row)
    set_committed_value(bet, "decisions", [])
    set_committed_value(round_row, "bets", [*round_row.bets, bet])
    placed = audit.entry(audit.player_actor(player_id), "bets_placed", table_id=table.id, round_id=round_row.id,
                         player_id=player_id, now=moment, ante=bet.ante, bonus=bet.bonus,
                         progressive=bet.progressive, contribution=bet.contribution, currency=bet.currency,
                         request_id=request_id)
    # the round's in-play account is shared by the table's bettors: locked by the statement that adds
    # to it, held to commit; with a Progressive bet that is the contribution's posting, next to the
    # pool's row (wallet.post's ``defer``); the audit entry goes in with the posting (``also``)
    in_play = in_play_account(round_row.id, currency)
    post("bets", [leg for name in ("ante", "bonus", "progressive") if stake.amount(name)
                  for leg in (Entry(wallet, -stake.amount(name), name, player_id),
                              Entry(in_play, stake.amount(name), name, player_id))], round_id=round_row.id,
         defer=progressive, also=[placed])
    held += bettor.exposure
    receipt = _receipt(bet, round_row, Balance(player_id, currency, wallet.balance, held, wallet.balance - held))
    if progressive:  # R5: the pool row, shared by every linked table, is locked last (never read
        # first) and held only until commit
        multiplier = core.paytable.currency(currency).multiplier
        move(table.pool_id, "contribution",
             pool_legs(table.pool_id, bet.contribution, in_play, multiplier, "contribution", player_id),
             [Movement(MovementKind.CONTRIBUTION, bet.contribution, bet.id)], actor=audit.player_actor(player_id),
             round_id=round_row.id)
    return receipt


def _retried(first: Bet, request_id: str, fingerprint: str) -> BetReceipt:
    """A retry's answer: the first receipt, or a conflict when the same id carried other bets."""
    if first.request_fingerprint != fingerprint:
        raise Conflict(f"request_id: {request_id!r} was already used for different bets", "request_id")
    return _receipt(first, first.round)


def _another_round(wanted: int | None, betting: int) -> bool:
    """Whether bets meant for round ``wanted`` came when round ``betting`` takes them (R2.1)."""
    return wanted is not None and wanted != betting


def _over(round_id: int | None) -> str:
    return (f"R2.1: round {round_id} is not the round taking bets at this table (its betting is over); "
            "nothing was placed")


def _late_bet(player_id: int, request_id: str, fingerprint: str, seen: queries.RoundClock,
              round_id: int | None) -> BetReceipt:
    """R2.1, R8: betting on the table's current round is over (the round has moved on, or its
    window closed with bets in it, which it never reopens), or the bets name a round other than
    the one taking bets. The answer comes from reads without a lock, so the dealer closing that
    window never waits for a late request (issue 10); a retry of bets placed in time still gets
    its receipt."""
    first = db.session.scalars(select(Bet).where(Bet.player_id == player_id, Bet.request_id == request_id)).first()
    if first is not None:
        return _retried(first, request_id, fingerprint)
    if _another_round(round_id, seen.round_id):
        raise Conflict(_over(round_id), "round_id")
    if seen.phase != Phase.BETTING.value:
        raise Conflict(CLOSED_AT_TABLE, "table")
    raise Conflict(f"R2.1: {BETTING_CLOSED}", "table")


def _betting_round(table: GameTable, seen: queries.RoundClock | None,
                   moment: dt.datetime) -> tuple[GameRound | None, bool]:
    """The table's current round, locked for a bet (issue 10), and whether this bet, the first of
    a round whose first window went by empty, moves its deadline to the window in force (R8,
    :func:`.windows.window_end`). Its bettors share the lock, each reading only their own bets
    (:func:`place_bets` sets them, :func:`.queries.set_own_bets`): a bet changes no round row and
    is checked against no other bet (R2.1), and what two bets must not both do is kept apart by
    the unique keys and the wallet lock. A table with a cap on bettors
    (R1) counts them, and a bet that moves the deadline changes the round, so those take the lock
    alone with every bet; a round whose state changed between the read (``seen``) and the lock is
    locked again, alone, when its window may have gone by empty."""
    alone = table.max_bettors is not None or seen is None or _moves_deadline(seen.has_bets, seen.deadline, moment)
    round_row = queries.latest_round(table.id, for_update=True, shared=not alone, bets=alone)
    if not alone and round_row is not None:
        seen_bets = seen is not None and seen.has_bets and seen.round_id == round_row.id  # never taken back
        if _moves_deadline(seen_bets, round_row.deadline, moment):
            round_row, alone = queries.latest_round(table.id, for_update=True), True
    moves = alone and round_row is not None and _moves_deadline(bool(round_row.bets), round_row.deadline, moment)
    return round_row, moves


def _moves_deadline(has_bets: bool, deadline: dt.datetime | None, moment: dt.datetime) -> bool:
    """Whether a bet at ``moment`` would be the first of a round whose stored window is over."""
    return not has_bets and has_closed(deadline, moment)


# --- decisions (R2.3-R2.5, R8) ---------------------------------------------------------------------

def _decision_receipt(bet: Bet, row: DecisionRecord) -> DecisionReceipt:
    made = getattr(bet, STREET_BET[row.street]) if row.action in (Action.FLOP.value, Action.BET.value) else ZERO
    return DecisionReceipt(bet.round_id, bet.player_id, row.street, row.action, row.automatic, row.decided_at, made)


def _bet_and_retry(round_row: GameRound, player_id: int, wanted: Action,
                   request_id: str) -> tuple[Bet, DecisionReceipt | None]:
    """The player's bet on the round, and the first decision's receipt when this is a retry (the
    same request id); a conflict when there is no bet, or the id was used for another action."""
    bet = queries.bet_of(round_row, player_id)
    if bet is None:
        raise Conflict(f"R2.1: player {player_id} has no bets on this round", "round")
    first = next((d for d in bet.decisions if request_id and d.request_id == request_id), None)
    if first is None:
        return bet, None
    if first.action != wanted.value:
        raise Conflict(f"request_id: {request_id!r} was already used for {first.action}", "request_id")
    return bet, _decision_receipt(bet, first)


@transactional
def decide(player_id: int, round_id: int, action: str, *, request_id: str, street: str | None = None,
           now: dt.datetime | None = None) -> DecisionReceipt:
    """One decision on the current street, only as R2 allows it now and only once: ``fold`` or
    ``flop`` (2 × Ante) before the flop, ``bet`` (1 × Ante) or ``check`` on the flop and turn.
    A retry with the same ``request_id`` returns the first decision. After the decision window
    the house decides instead (R8). Only the player's own bet is loaded: no other bettor's
    decision changes what this one may do (issue 10)."""
    moment = clock(now)
    wanted = one_of(Action, action, "action")
    round_row = queries.bettors_open_round(round_id, player_id, moment)
    if round_row is None:  # R8: its window is over (or no such round): the core refuses it (below)
        # with no lock taken, so the dealer closing the window never waits (issue 10)
        round_row = queries.bettors_round(round_id, player_id)
        _, earlier = _bet_and_retry(round_row, player_id, wanted, request_id)
        if earlier is not None:
            return earlier
        with core_refusals("action"):
            load_round(round_row).verify_decision(str(player_id), wanted, now=moment, street=street)
        round_row = queries.bettors_round(round_id, player_id, shared_lock=True)
    bet, earlier = _bet_and_retry(round_row, player_id, wanted, request_id)
    if earlier is not None:
        return earlier
    core = load_round(round_row)
    with core_refusals("action"):  # R2.3-R2.5: allowed now; R8: inside the decision window
        core.act(str(player_id), wanted, now=moment, street=street)
    (row,) = save_play(round_row, core, moment, actor=audit.player_actor(player_id),
                       request_ids={player_id: request_id})
    return _decision_receipt(bet, row)


# --- leaving and coming back (R8) ----------------------------------------------------------------

def _connection(player_id: int, table_id: int, now: dt.datetime | None, connected: bool) -> list[DecisionReceipt]:
    moment = clock(now)
    table = queries.lock(GameTable, table_id)
    round_row = queries.latest_round(table.id, for_update=True)
    bet = None if round_row is None else queries.bet_of(round_row, player_id)
    if round_row is None or bet is None or round_row.phase in FINISHED:
        return []
    core = load_round(round_row)
    if connected:
        core.reconnect(str(player_id))
    else:
        core.disconnect(str(player_id), now=moment)
    audit.record(audit.player_actor(player_id), "reconnected" if connected else "disconnected", table_id=table.id,
                 round_id=round_row.id, player_id=player_id, now=moment)
    return [_decision_receipt(bet, row) for row in save_play(round_row, core, moment, actor=audit.DEALER)]


@transactional
def disconnect(player_id: int, table_id: int, *, now: dt.datetime | None = None) -> list[DecisionReceipt]:
    """R8: a disconnected player's due decision is taken for them now (fold before the flop,
    check after it) and later ones as they come. Returns the decisions taken now."""
    return _connection(player_id, table_id, now, connected=False)


@transactional
def reconnect(player_id: int, table_id: int, *, now: dt.datetime | None = None) -> list[DecisionReceipt]:
    """R8: the player rejoins the same round, which has gone on without them."""
    return _connection(player_id, table_id, now, connected=True)


@transactional
def rejoin(player_id: int, table_id: int) -> bool:
    """R8: a player whose connection was lost (or who left) comes back to the same round, which
    has gone on without them. Returns whether they had been away."""
    queries.get(GameTable, table_id)
    away = db.session.scalars(
        select(Bet.id).join(GameRound).where(GameRound.table_id == table_id, Bet.player_id == player_id,
                                             Bet.connected.is_(False), GameRound.phase.notin_(FINISHED))
    ).first()
    if away is not None:
        reconnect(player_id, table_id)
    return away is not None
