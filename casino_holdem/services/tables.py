"""Tables and their rounds: bets, decisions, the dealer's steps, disconnections and voids.

The database is the source of truth, never process memory: every transaction locks the table row,
rebuilds the core :class:`~casino_holdem.core.round.Round` from the stored round, bets and
decisions, applies one operation through the core (which checks R1, R2, R8, R9), and writes the
result back with its ledger postings and audit entries. A dealer killed between two steps
resumes from the last committed one; two dealers never apply a step twice because the step is
re-checked under the table lock.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import paytable_files
from ..core.cards import format_cards
from ..core.money import POOL_QUANTUM, ZERO, format_amount, is_multiple_of
from ..core.paytable import InvalidPaytable, Paytable
from ..core.round import (
    FINISHED,
    Action,
    InvalidBet,
    Limits,
    Phase,
    Round,
    RuleViolation,
    Timers,
)
from ..core.rules import Settlement, Stage, Stake, Void, VoidReason, contribution
from ..core.shuffle import commit, deck_text, new_nonce, parse_deck, secure_shuffle
from ..extensions import db
from ..models import (
    Award,
    Bet,
    Decision,
    GameRound,
    GameTable,
    JackpotPool,
    MovementKind,
    Player,
)
from . import audit, settlement
from .errors import BadRequest, Conflict, InsufficientFunds, NotFound, Unprocessable
from .jackpot import Movement, exchange_accounts, house_move, lock_pool, move, pool_legs
from .unit import clock, locked, transactional
from .wallet import (
    Balance,
    Entry,
    amount_of,
    bettor_of,
    in_play_account,
    lock_accounts,
    player_row,
    post,
    reserved,
    wallet_account,
)
from .wallet import balance as wallet_balance

#: R2: the bet column each street's decision adds to
STREET_BET = {"preflop": "flop", "flop": "turn", "turn": "river"}


@dataclass(frozen=True, slots=True)
class TableView:
    id: int
    name: str
    paytable: str
    paytable_sha256: str
    pool_id: int
    ante_min: Decimal | None
    ante_max: Decimal | None
    bonus_min: Decimal | None
    bonus_max: Decimal | None
    max_bettors: int | None
    betting_seconds: int
    decision_seconds: int
    is_open: bool
    is_demo: bool


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


@dataclass(frozen=True, slots=True)
class Step:
    """What one :func:`advance` did: ``opened``, ``betting_extended``, ``hole_cards``, ``flop``,
    ``turn``, ``river`` (the street dealt) or ``settled``; ``automatic`` counts R8 decisions taken."""

    table_id: int
    round_id: int
    round_number: int
    event: str
    automatic: int = 0


# --- rows ↔ core ----------------------------------------------------------------------------------

def table_paytable(table: GameTable | GameRound) -> Paytable:
    """The exact paytable file a table (or a round) names, refused if its bytes changed."""
    return paytable_files.by_version(table.paytable_id, table.paytable_version, table.paytable_sha256)


def _limits(table: GameTable) -> Limits:
    return Limits(table.ante_min, table.ante_max, table.bonus_min, table.bonus_max, table.max_bettors)


def _timers(table: GameTable) -> Timers:
    return Timers(dt.timedelta(seconds=table.betting_seconds), dt.timedelta(seconds=table.decision_seconds))


def load_round(round_row: GameRound) -> Round:
    """The core state machine of a stored round: its deck, bets, decisions, phase and deadline."""
    void = (Void(VoidReason(round_row.void_reason), Stage(round_row.void_stage))
            if round_row.void_reason and round_row.void_stage else None)
    return Round(table_paytable(round_row), parse_deck(round_row.deck), _limits(round_row.table),
                 _timers(round_row.table), Phase(round_row.phase), round_row.deadline,
                 {str(bet.player_id): bettor_of(bet) for bet in round_row.bets}, round_row.dealt_count, void)


def _save(round_row: GameRound, core: Round, now: dt.datetime, *, actor: str,
          request_ids: Mapping[int, str] | None = None) -> list[Decision]:
    """Write the core round back: phase, deadline, cards dealt, connection states and every new
    decision, moving the Flop/Turn/River bets (R2.3-R2.5) from wallet to play. Returns the new
    decision rows."""
    dealt_before = round_row.dealt_count
    round_row.phase, round_row.deadline, round_row.dealt_count = core.phase.value, core.deadline, core.dealt_count
    added: list[Decision] = []
    for bet in round_row.bets:
        bettor = core.bettors[str(bet.player_id)]
        bet.connected = bettor.connected
        known = {decision.street for decision in bet.decisions}
        for street, decision in bettor.decisions.items():
            if street in known:
                continue
            row = Decision(street=street, action=decision.action.value, decided_at=decision.at or now,
                           automatic=None if decision.automatic is None else decision.automatic.value,
                           request_id=(request_ids or {}).get(bet.player_id))
            bet.decisions.append(row)
            added.append(row)
            audit.record(actor if row.automatic is None else audit.DEALER, "decision", table_id=round_row.table_id,
                         round_id=round_row.id, player_id=bet.player_id, now=now, street=street,
                         decision=row.action, automatic=row.automatic)
        _move_street_bets(bet, bettor.stake())
    if core.dealt_count != dealt_before:
        cards = core.cards  # R1: the Player's cards and the board are public, the Dealer's are not
        audit.record(audit.DEALER, "dealt", table_id=round_row.table_id, round_id=round_row.id, now=now,
                     street=core.stage.value, player=format_cards(cards.player),
                     board=format_cards(cards.board))
    db.session.flush()
    return added


def _move_street_bets(bet: Bet, stake: Stake) -> None:
    """R2.3-R2.5: a Flop (2 × Ante), Turn or River (1 × Ante) bet leaves the wallet when made;
    the amount was reserved when the Ante was placed, so the wallet cannot go negative."""
    player = db.session.get(Player, bet.player_id)
    assert player is not None
    for column in STREET_BET.values():
        added = getattr(stake, column) - getattr(bet, column)
        if added:
            post(f"{column}_bet", [Entry(wallet_account(player), -added, column, bet.player_id),
                                   Entry(in_play_account(bet.round_id, bet.currency), added, column, bet.player_id)],
                 round_id=bet.round_id)
            setattr(bet, column, getattr(stake, column))


def _lock_table(table_id: int, *, skip_locked: bool = False) -> GameTable | None:
    return db.session.scalars(locked(select(GameTable).where(GameTable.id == table_id),
                                     skip_locked=skip_locked)).first()


def _table(table_id: int) -> GameTable:
    table = _lock_table(table_id)
    if table is None:
        raise NotFound(f"table: no table {table_id}", "table")
    return table


#: a round is always used with its bets and their decisions
WITH_BETS = selectinload(GameRound.bets).selectinload(Bet.decisions)


def _current_round(table_id: int) -> GameRound | None:
    return db.session.scalars(locked(select(GameRound).where(GameRound.table_id == table_id)
                                     .order_by(GameRound.number.desc()).limit(1)).options(WITH_BETS)).first()


def bet_of(round_row: GameRound, player_id: int) -> Bet | None:
    return next((bet for bet in round_row.bets if bet.player_id == player_id), None)


# --- tables -----------------------------------------------------------------------------------------

def _table_view(table: GameTable) -> TableView:
    return TableView(table.id, table.name, f"{table.paytable_id}@{table.paytable_version}", table.paytable_sha256,
                     table.pool_id, table.ante_min, table.ante_max, table.bonus_min, table.bonus_max,
                     table.max_bettors, table.betting_seconds, table.decision_seconds, table.is_open, table.is_demo)


@transactional
def create_table(name: str, pool_id: int, *, paytable: str = paytable_files.DEFAULT_REFERENCE,
                 ante_min: Decimal | None = None, ante_max: Decimal | None = None,
                 bonus_min: Decimal | None = None, bonus_max: Decimal | None = None,
                 max_bettors: int | None = None, betting_seconds: int = 15, decision_seconds: int = 15,
                 is_demo: bool = False, operator: str = "system") -> TableView:
    """A new open table on a paytable file (recorded by id, version and SHA-256) and a pool;
    limits are base units (R6 scales them per currency)."""
    if db.session.scalars(select(GameTable).where(GameTable.name == name)).first() is not None:
        raise Conflict(f"name: a table {name!r} exists", "name")
    if db.session.get(JackpotPool, pool_id) is None:
        raise NotFound(f"pool: no jackpot pool {pool_id}", "pool")
    try:
        table_file = paytable_files.resolve(paytable)
    except InvalidPaytable as error:
        raise Unprocessable(f"paytable: {error}", "paytable") from None
    if betting_seconds < 1 or decision_seconds < 1:
        raise Unprocessable("betting_seconds: timers are at least 1 second (R8)", "betting_seconds")
    for bet, low, high in (("ante", ante_min, ante_max), ("bonus", bonus_min, bonus_max)):
        for setting, limit in ((f"{bet}_min", low), (f"{bet}_max", high)):
            if limit is not None and (limit <= 0 or not is_multiple_of(limit, POOL_QUANTUM)):
                raise Unprocessable(f"{setting}: {limit} must be positive with at most 5 decimal places", setting)
        if low is not None and high is not None and low > high:
            raise Unprocessable(f"{bet}_min: {low} is above {bet}_max {high}", f"{bet}_min")
    if max_bettors is not None and max_bettors < 1:
        raise Unprocessable(f"max_bettors: {max_bettors} must be at least 1 (R1)", "max_bettors")
    table = GameTable(name=name, paytable_id=table_file.id, paytable_version=table_file.version,
                      paytable_sha256=table_file.sha256, ante_min=ante_min, ante_max=ante_max, bonus_min=bonus_min,
                      bonus_max=bonus_max, max_bettors=max_bettors, betting_seconds=betting_seconds,
                      decision_seconds=decision_seconds, pool_id=pool_id, is_open=True, is_demo=is_demo)
    db.session.add(table)
    db.session.flush()
    audit.record(audit.operator_actor(operator), "table_created", table_id=table.id, name=name,
                 paytable=table_file.ref, sha256=table_file.sha256, pool_id=pool_id)
    return _table_view(table)


@transactional
def list_tables(*, open_only: bool = False) -> list[TableView]:
    statement = select(GameTable).order_by(GameTable.id)
    if open_only:
        statement = statement.where(GameTable.is_open.is_(True))
    return [_table_view(table) for table in db.session.scalars(statement)]


@transactional
def set_table_open(table_id: int, is_open: bool, operator: str, *, now: dt.datetime | None = None) -> TableView:
    """Open or close a table: a closed table finishes the round in play and opens no new one."""
    table = _table(table_id)
    table.is_open = is_open
    audit.record(audit.operator_actor(operator), "table_opened" if is_open else "table_closed", table_id=table.id,
                 now=now)
    return _table_view(table)


# --- bets (R2.1) ------------------------------------------------------------------------------------

def _receipt(bet: Bet, round_row: GameRound) -> BetReceipt:
    return BetReceipt(bet.id, round_row.id, round_row.number, round_row.table_id, bet.player_id, bet.currency,
                      bet.ante, bet.bonus, bet.progressive, bet.request_id, wallet_balance(bet.player_id))


@transactional
def place_bets(player_id: int, table_id: int, ante: Decimal | str | int, bonus: Decimal | str | int = ZERO,
               progressive: bool = False, *, request_id: str, now: dt.datetime | None = None) -> BetReceipt:
    """R2.1: an Ante with an optional Bonus and Progressive bet on the table's current round.

    Idempotent by ``request_id``: a retry returns the first receipt and never debits twice; the
    same id with different content is a conflict. The balance must cover the bets *and* the
    Flop bet and later bets (4 × Ante in all, R2.3-R2.5) on top of what the player's other open
    rounds reserve, so a player never goes negative mid-round. The Progressive contribution
    goes into the pool at once (R5: contribution × 1 base unit, whatever the currency, R6)."""
    moment = clock(now)
    if not request_id or len(request_id) > 128:
        raise BadRequest("request_id: required, at most 128 characters", "request_id")
    ante_value, bonus_value = amount_of(ante, "ante"), amount_of(bonus, "bonus")
    if not isinstance(progressive, bool):
        raise BadRequest("progressive: must be true or false", "progressive")
    player = player_row(player_id)
    fingerprint = hashlib.sha256(
        f"{table_id}|{ante_value.normalize()}|{bonus_value.normalize()}|{progressive}".encode()).hexdigest()
    table = _table(table_id)
    first = db.session.scalars(select(Bet).where(Bet.player_id == player_id, Bet.request_id == request_id)).first()
    if first is not None:
        if first.request_fingerprint != fingerprint:
            raise Conflict(f"request_id: {request_id!r} was already used for different bets", "request_id")
        return _receipt(first, first.round)
    round_row = _current_round(table.id)
    if round_row is None or round_row.phase != Phase.BETTING.value or not table.is_open:
        raise Conflict("R2.1: betting is closed at this table", "table")
    core = load_round(round_row)
    try:
        bettor = core.place_bets(str(player.id), player.currency, ante_value, bonus_value, progressive, now=moment)
    except InvalidBet as error:
        raise Unprocessable(str(error), error.field) from None
    except RuleViolation as error:
        raise Conflict(str(error), "table") from None
    stake = bettor.stake()
    wallet, in_play = wallet_account(player), in_play_account(round_row.id, player.currency)
    pool = lock_pool(table.pool_id) if progressive else None
    # Every account the posting will touch, locked at once in id order (no lock taken later).
    lock_accounts([wallet, in_play] + ([] if pool is None else exchange_accounts(pool, player.currency)))
    available = wallet.balance - reserved(player.id)
    if available < stake.staked + bettor.exposure:
        raise InsufficientFunds(
            f"balance: {format_amount(available)} {player.currency} available; these bets take "
            f"{format_amount(stake.staked)} now and keep {format_amount(bettor.exposure)} for the Flop bet "
            "and later bets (R2.3-R2.5)")
    bet = Bet(round_id=round_row.id, player_id=player.id, currency=player.currency, ante=stake.ante,
              bonus=stake.bonus, progressive=stake.progressive, contribution=ZERO, request_id=request_id,
              request_fingerprint=fingerprint, connected=True, placed_at=moment)
    round_row.bets.append(bet)
    db.session.flush()
    entries = [leg for name in ("ante", "bonus", "progressive") if stake.amount(name)
               for leg in (Entry(wallet, -stake.amount(name), name, player.id),
                           Entry(in_play, stake.amount(name), name, player.id))]
    if pool is None:
        post("bets", entries, round_id=round_row.id)
    else:
        bet.contribution = contribution([stake], core.paytable)
        multiplier = core.paytable.currency(player.currency).multiplier
        move(pool, "bets", entries + pool_legs(pool, bet.contribution, in_play, multiplier, "contribution", player.id),
             [Movement(MovementKind.CONTRIBUTION, bet.contribution, bet.id)], actor=audit.player_actor(player.id),
             round_id=round_row.id)
    audit.record(audit.player_actor(player.id), "bets_placed", table_id=table.id, round_id=round_row.id,
                 player_id=player.id, now=moment, ante=bet.ante, bonus=bet.bonus, progressive=bet.progressive,
                 contribution=bet.contribution, currency=bet.currency, request_id=request_id)
    return _receipt(bet, round_row)


# --- decisions (R2.3-R2.5, R8) ---------------------------------------------------------------------

def _decision_receipt(bet: Bet, row: Decision) -> DecisionReceipt:
    made = getattr(bet, STREET_BET[row.street]) if row.action in (Action.FLOP.value, Action.BET.value) else ZERO
    return DecisionReceipt(bet.round_id, bet.player_id, row.street, row.action, row.automatic, row.decided_at, made)


@transactional
def decide(player_id: int, round_id: int, action: str, *, request_id: str,
           now: dt.datetime | None = None) -> DecisionReceipt:
    """One decision on the current street, only as R2 allows it now and only once: ``fold`` or
    ``flop`` (2 × Ante) before the flop, ``bet`` (1 × Ante) or ``check`` on the flop and turn.
    A retry with the same ``request_id`` returns the first decision. After the decision window
    the house decides instead (R8)."""
    moment = clock(now)
    try:
        wanted = Action(action)
    except ValueError:
        raise BadRequest(f"action: {action!r} must be one of {', '.join(a.value for a in Action)}", "action") from None
    found = db.session.get(GameRound, round_id)
    if found is None:
        raise NotFound(f"round: no round {round_id}", "round")
    _table(found.table_id)
    round_row = db.session.scalars(locked(select(GameRound).where(GameRound.id == round_id))).one()
    bet = bet_of(round_row, player_id)
    if bet is None:
        raise Conflict(f"R2.1: player {player_id} has no bets on this round", "round")
    first = next((d for d in bet.decisions if request_id and d.request_id == request_id), None)
    if first is not None:
        if first.action != wanted.value:
            raise Conflict(f"request_id: {request_id!r} was already used for {first.action}", "request_id")
        return _decision_receipt(bet, first)
    core = load_round(round_row)
    try:
        core.act(str(player_id), wanted, now=moment)
    except RuleViolation as error:
        raise Conflict(str(error), "action") from None
    (row,) = _save(round_row, core, moment, actor=audit.player_actor(player_id), request_ids={player_id: request_id})
    return _decision_receipt(bet, row)


def _connection(player_id: int, table_id: int, now: dt.datetime | None, connected: bool) -> list[DecisionReceipt]:
    moment = clock(now)
    table = _table(table_id)
    round_row = _current_round(table.id)
    bet = None if round_row is None else bet_of(round_row, player_id)
    if round_row is None or bet is None or round_row.phase in FINISHED:
        return []
    core = load_round(round_row)
    if connected:
        core.reconnect(str(player_id))
    else:
        core.disconnect(str(player_id), now=moment)
    audit.record(audit.player_actor(player_id), "reconnected" if connected else "disconnected", table_id=table.id,
                 round_id=round_row.id, player_id=player_id, now=moment)
    return [_decision_receipt(bet, row) for row in _save(round_row, core, moment, actor=audit.DEALER)]


@transactional
def disconnect(player_id: int, table_id: int, *, now: dt.datetime | None = None) -> list[DecisionReceipt]:
    """R8: a disconnected player's due decision is taken for them now (fold before the flop,
    check after it) and later ones as they come. Returns the decisions taken now."""
    return _connection(player_id, table_id, now, connected=False)


@transactional
def reconnect(player_id: int, table_id: int, *, now: dt.datetime | None = None) -> list[DecisionReceipt]:
    """R8: the player rejoins the same round, which has gone on without them."""
    return _connection(player_id, table_id, now, connected=True)


# --- the dealer's steps -----------------------------------------------------------------------------

def _open_round(table: GameTable, number: int, now: dt.datetime) -> Step:
    """R1: a fresh CSPRNG shuffle; its commitment is published now, the deck and nonce after the end."""
    core = Round.open(table_paytable(table), secure_shuffle(), _limits(table), _timers(table), now)
    nonce = new_nonce()
    round_row = GameRound(table_id=table.id, number=number, phase=core.phase.value, commitment=commit(core.deck, nonce),
                          deck=deck_text(core.deck), nonce=nonce, dealt_count=0, opened_at=now, deadline=core.deadline,
                          paytable_id=table.paytable_id, paytable_version=table.paytable_version,
                          paytable_sha256=table.paytable_sha256)
    db.session.add(round_row)
    db.session.flush()
    audit.record(audit.DEALER, "round_opened", table_id=table.id, round_id=round_row.id, now=now, number=number,
                 commitment=round_row.commitment, deadline=core.deadline)
    return Step(table.id, round_row.id, number, "opened")


def _pool_before(pool: JackpotPool, round_row: GameRound) -> Decimal:
    """The pool without this round's contributions (what the core's settlement takes, R5)."""
    return pool.amount - sum((bet.contribution for bet in round_row.bets), ZERO)


def _finish(round_row: GameRound, result: Settlement, pool_before: Decimal, now: dt.datetime) -> None:
    """Record each bettor's outcome and publish the deck and nonce (R1 commitment)."""
    bets = {str(bet.player_id): bet for bet in round_row.bets}
    for bettor in result.bettors:
        bet = bets[bettor.bettor_id]
        bet.returned = bettor.returned
        bet.outcome = {name: {"stake": format_amount(r.stake), "outcome": r.outcome.value,
                              "returned": format_amount(r.returned)} for name, r in bettor.bets.items()}
        db.session.add_all(Award(round_id=round_row.id, bet_id=bet.id, prize_table=a.table, hand=a.hand.slug,
                                 street=a.street, share_of=a.share_of, amount=a.amount, base_amount=a.base_amount)
                           for a in bettor.awards)
    round_row.pool_before, round_row.result, round_row.finished_at = pool_before, result.result.value, now
    round_row.player_hand = None if result.player_hand is None else result.player_hand.category.slug
    round_row.dealer_hand = None if result.dealer_hand is None else result.dealer_hand.category.slug
    db.session.flush()


def _reveal(round_row: GameRound, result: Settlement) -> dict[str, Any]:
    cards = result.cards
    return {"deck": round_row.deck, "nonce": round_row.nonce, "player": format_cards(cards.player),
            "dealer": format_cards(cards.dealer), "board": format_cards(cards.board), "result": result.result.value}


def _settle(table: GameTable, round_row: GameRound, core: Round, now: dt.datetime) -> Step:
    """R2.7, R3-R6: settle against the locked pool, pay awards, refill the pool to its seed."""
    pool = lock_pool(table.pool_id)
    pool_before = _pool_before(pool, round_row)
    result = core.settle(pool_before)
    end = settlement.settled(round_row, result, pool, core.paytable)
    move(pool, "settlement", end.entries, end.movements, actor=audit.DEALER, round_id=round_row.id)
    if result.pool.top_up > 0:
        house_move(pool, MovementKind.SEED_TOP_UP, result.pool.top_up, actor=audit.DEALER, round_id=round_row.id,
                   reason="R5: seed after a hit")
    round_row.phase, round_row.deadline = core.phase.value, None
    _finish(round_row, result, pool_before, now)
    audit.record(audit.DEALER, "round_settled", table_id=table.id, round_id=round_row.id, now=now,
                 pool_before=pool_before, pool_after=pool.amount, top_up=result.pool.top_up,
                 awards={t: amount for t, amount in result.awards_by_table.items()}, **_reveal(round_row, result))
    return Step(table.id, round_row.id, round_row.number, "settled")


@transactional
def advance(table_id: int, now: dt.datetime | None = None, *, skip_locked: bool = False) -> Step | None:
    """Move the table one step when it is due, or return None: open a round (R1), extend an empty
    betting window, close betting and deal, close a decision window when it expires or when every
    bettor has decided (R8: automatic fold before the flop, check after, recorded with the
    reason), or settle at showdown. With ``skip_locked`` (the dealer loop) a table another
    process is working on is skipped."""
    moment = clock(now)
    table = _lock_table(table_id, skip_locked=skip_locked)
    if table is None:
        if skip_locked:
            return None
        raise NotFound(f"table: no table {table_id}", "table")
    round_row = _current_round(table.id)
    if round_row is None or round_row.phase in FINISHED:
        return _open_round(table, (round_row.number + 1) if round_row else 1, moment) if table.is_open else None
    core = load_round(round_row)
    if core.phase is Phase.SHOWDOWN:
        return _settle(table, round_row, core, moment)
    if core.phase is Phase.BETTING and not core.bettors:
        if core.deadline is None or moment < core.deadline or not table.is_open:
            return None  # a closed table's empty round just waits (no audit entry every window)
        core.advance(moment)
        round_row.deadline = core.deadline
        audit.record(audit.DEALER, "betting_extended", table_id=table.id, round_id=round_row.id, now=moment,
                     deadline=core.deadline)
        return Step(table.id, round_row.id, round_row.number, "betting_extended")
    if not core.due(moment):
        return None
    automatic = core.advance(moment)
    _save(round_row, core, moment, actor=audit.DEALER)
    return Step(table.id, round_row.id, round_row.number, core.stage.value, len(automatic))


# --- R9: voids ------------------------------------------------------------------------------------

@transactional
def void_round(round_id: int, reason: str, stage: str | None = None, *, operator: str,
               now: dt.datetime | None = None) -> dict[str, Any]:
    """R9: void a round in play: every stake still in play is refunded (a fold made before stands;
    after a shuffler jam once the Player's hole cards were dealt, the Bonus stands and is paid),
    the Progressive contributions come back out of the pool, and the reason and stage are audited.
    ``stage`` defaults to the step under way and cannot be a later one."""
    moment = clock(now)
    try:
        why = VoidReason(reason)
    except ValueError:
        raise BadRequest(f"reason: {reason!r} must be one of {', '.join(r.value for r in VoidReason)}",
                         "reason") from None
    found = db.session.get(GameRound, round_id)
    if found is None:
        raise NotFound(f"round: no round {round_id}", "round")
    table = _table(found.table_id)
    round_row = db.session.scalars(locked(select(GameRound).where(GameRound.id == round_id))).one()
    core = load_round(round_row)
    stages = list(Stage)
    try:
        at = Stage(stage) if stage else core.stage
    except ValueError:
        raise BadRequest(f"stage: {stage!r} must be one of {', '.join(s.value for s in Stage)}", "stage") from None
    if round_row.phase not in FINISHED and stages.index(at) > stages.index(core.stage):
        raise Unprocessable(f"stage: {at.value} has not been reached (the round is at {core.stage.value})", "stage")
    pool = lock_pool(table.pool_id)
    owed = sum((bet.contribution for bet in round_row.bets), ZERO)
    if owed > pool.amount:  # the pool paid out since (R5 never below zero): the house refunds the rest
        house_move(pool, MovementKind.SEED_TOP_UP, owed - pool.amount, actor=audit.operator_actor(operator),
                   reason=f"R9: void of round {round_row.id} after the pool paid out its contributions")
    pool_before = _pool_before(pool, round_row)
    try:
        result = core.void(why, pool_before, at)
    except RuleViolation as error:
        raise Conflict(str(error), "round") from None
    end = settlement.voided(round_row, result, pool, core.paytable)
    move(pool, "void", end.entries, end.movements, actor=audit.operator_actor(operator), round_id=round_row.id,
         reason=why.value)
    round_row.phase, round_row.deadline = core.phase.value, None
    round_row.void_reason, round_row.void_stage, round_row.voided_by = why.value, at.value, operator
    _finish(round_row, result, pool_before, moment)
    audit.record(audit.operator_actor(operator), "round_void", table_id=table.id, round_id=round_row.id, now=moment,
                 reason=why.value, stage=at.value, **_reveal(round_row, result))
    return round_view_of(round_row)


# --- what a viewer may see --------------------------------------------------------------------------

def round_view_of(round_row: GameRound, viewer: int | None = None) -> dict[str, Any]:
    """The round as ``viewer`` (a player id, or None for the public) may see it: the Player's
    cards and the board as dealt; the Dealer's cards, the deck and the nonce only once the round
    is settled or void (R1, R2.7). Every API response about a round is built here."""
    core = load_round(round_row)
    finished = round_row.phase in FINISHED
    cards = core.cards
    awards = db.session.scalars(select(Award).where(Award.round_id == round_row.id).order_by(Award.id)).all()
    view: dict[str, Any] = {
        "round_id": round_row.id, "table_id": round_row.table_id, "number": round_row.number,
        "phase": round_row.phase, "commitment": round_row.commitment,
        "deadline": None if round_row.deadline is None else round_row.deadline.isoformat(),
        "paytable": {"id": round_row.paytable_id, "version": round_row.paytable_version,
                     "sha256": round_row.paytable_sha256},
        "cards": {"player": format_cards(cards.player), "board": format_cards(cards.board),
                  "dealer": format_cards(cards.dealer) if finished else []},
        "bettors": [{"player_id": bet.player_id, "currency": bet.currency,
                     **{name: format_amount(getattr(bet, name))
                        for name in ("ante", "bonus", "progressive", "flop", "turn", "river")},
                     "folded": core.bettors[str(bet.player_id)].folded, "connected": bet.connected,
                     "decisions": {d.street: {"action": d.action, "automatic": d.automatic} for d in bet.decisions},
                     "returned": None if bet.returned is None else format_amount(bet.returned),
                     "outcome": bet.outcome} for bet in round_row.bets],
    }
    if finished:
        view["reveal"] = {"deck": round_row.deck, "nonce": round_row.nonce}
        view["result"] = {"result": round_row.result, "player_hand": round_row.player_hand,
                          "dealer_hand": round_row.dealer_hand,
                          "void": ({"reason": round_row.void_reason, "stage": round_row.void_stage}
                                   if round_row.void_reason else None),
                          "awards": [{"bet_id": a.bet_id, "table": a.prize_table, "hand": a.hand, "street": a.street,
                                      "share_of": a.share_of, "amount": format_amount(a.amount)} for a in awards]}
    if viewer is not None:
        open_window = round_row.deadline is None or clock(None) < round_row.deadline
        view["you"] = {"player_id": viewer, "has_bet": str(viewer) in core.bettors,
                       "allowed_actions": ([a.value for a in core.allowed_actions(str(viewer))]
                                           if str(viewer) in core.bettors and open_window else [])}
    return view


@transactional
def round_view(round_id: int, viewer: int | None = None) -> dict[str, Any]:
    """:func:`round_view_of` for a round id."""
    round_row = db.session.get(GameRound, round_id)
    if round_row is None:
        raise NotFound(f"round: no round {round_id}", "round")
    return round_view_of(round_row, viewer)


@transactional
def table_state(table_id: int, viewer: int | None = None) -> dict[str, Any]:
    """The table and its current round as ``viewer`` may see it."""
    table = db.session.get(GameTable, table_id)
    if table is None:
        raise NotFound(f"table: no table {table_id}", "table")
    round_row = db.session.scalars(select(GameRound).where(GameRound.table_id == table_id)
                                   .order_by(GameRound.number.desc()).limit(1).options(WITH_BETS)).first()
    return {"table": asdict(_table_view(table)),
            "round": None if round_row is None else round_view_of(round_row, viewer)}
