"""The questions every service asks of the database, each written once: a row by id (or
:class:`~.errors.NotFound` naming the field), a row locked for a change, a table's latest round
with its bets and decisions, a bettor's bet on a round.

Locks follow the one order of :mod:`.transaction`: a round is locked only after its table.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Collection
from decimal import Decimal
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import ColumnElement, Select, bindparam, exists, func, inspect, or_, select, true
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import contains_eager, joinedload, raiseload, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from ..core.round import FINISHED
from ..extensions import db
from ..models import (
    AwardRecord,
    Bet,
    GameRound,
    GameTable,
    JackpotPool,
    PaytableFigures,
    PaytableVersion,
    Player,
    PoolCorrection,
)
from .errors import NotFound
from .kept import kept
from .transaction import locked
from .windows import has_closed

Row = TypeVar("Row", GameTable, GameRound, JackpotPool, Player, PaytableVersion, PoolCorrection)

#: how a refusal names each kind of row: the request's field and what the row is called
NAMES: dict[type, tuple[str, str]] = {GameTable: ("table", "table"), GameRound: ("round", "round"),
                                      JackpotPool: ("pool", "jackpot pool"), Player: ("player", "player"),
                                      PaytableVersion: ("version_id", "paytable version"),
                                      PoolCorrection: ("correction_id", "pool correction")}

#: SQL: a table that opens new rounds and takes bets: open and not suspended (issue 11)
TAKES_ROUNDS: ColumnElement[bool] = GameTable.is_open.is_(True) & GameTable.suspended_reason.is_(None)


def takes_rounds(table: GameTable) -> bool:
    """Issue 11: a closed or suspended table opens no new round and takes no bet; the round in
    play finishes (R2)."""
    return table.is_open and table.suspended_reason is None


#: a round is always used with its bets and their decisions
WITH_BETS = selectinload(GameRound.bets).selectinload(Bet.decisions)


def _missing(model: type[Row], row_id: int) -> NotFound:
    field, noun = NAMES[model]
    return NotFound(f"{field}: no {noun} {row_id}", field)


#: players whose account currency a process keeps (:func:`player_currency`)
KEPT_CURRENCIES = 100_000


def player_currency(player_id: int) -> str:
    """The player's account currency (R6), or :class:`NotFound` naming the player. It is fixed
    when the account opens (no player row is ever changed in it or removed), so each process
    reads it once (:mod:`.kept`; issue 10: a bet and a table's state need only this of the
    player, and reading the player's row was one of their statements)."""
    currency: str = kept("player currencies", KEPT_CURRENCIES).get([player_id], _currencies)[0]
    return currency


def _currencies(player_ids: list[int]) -> dict[int, str]:
    found = {player_id: currency for player_id, currency in
             db.session.execute(select(Player.id, Player.currency).where(Player.id.in_(player_ids)))}
    if missing := [player_id for player_id in player_ids if player_id not in found]:
        raise _missing(Player, missing[0])
    return found


def upsert(model: type[Any]) -> postgresql.Insert | sqlite.Insert:
    """An INSERT into ``model``'s table that can say what to do ``ON CONFLICT`` (SQLite and
    PostgreSQL spell it alike): for a row that two transactions may both be first to write."""
    dialect = db.session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(model)


def get(model: type[Row], row_id: int) -> Row:
    """The row with that id, or :class:`NotFound` naming the field (``table: no table 7``)."""
    row = db.session.get(model, row_id)
    if row is None:
        raise _missing(model, row_id)
    return row


def try_lock(model: type[Row], row_id: int, *, skip_locked: bool = False, shared: bool = False) -> Row | None:
    """The row locked ``FOR NO KEY UPDATE`` (``FOR SHARE`` when ``shared``) with fresh values, or None
    (missing, or held elsewhere with ``skip_locked``)."""
    kind = (model, skip_locked, shared)
    statement = _LOCKS.get(kind)
    if statement is None:  # built once per kind (issue 10: every bet locks its table)
        statement = _LOCKS[kind] = locked(select(model).where(model.id == bindparam("row_id")),
                                          skip_locked=skip_locked, shared=shared)
    row: Row | None = db.session.scalars(statement, {"row_id": row_id}).first()
    return row


#: :func:`try_lock`'s statements by model and kind of lock
_LOCKS: dict[tuple[type, bool, bool], Select[Any]] = {}


def lock(model: type[Row], row_id: int, *, shared: bool = False) -> Row:
    """The row locked ``FOR NO KEY UPDATE`` with fresh values, or :class:`NotFound`. With ``shared`` it
    is locked ``FOR SHARE``: it cannot change until commit, yet other sharers are not kept waiting
    (:func:`.transaction.locked`)."""
    row = try_lock(model, row_id, shared=shared)
    if row is None:
        raise _missing(model, row_id)
    return row


def lock_round(round_id: int) -> tuple[GameTable, GameRound]:
    """A round with its bets and its table, both locked ``FOR NO KEY UPDATE``, the table first (the one
    lock order)."""
    table = lock(GameTable, get(GameRound, round_id).table_id)
    return table, db.session.scalars(locked(select(GameRound).where(GameRound.id == round_id))
                                     .options(WITH_BETS)).one()


#: :func:`bettors_round`'s read, unlocked and locked, built once with its parameters named (issue
#: 10: every decision reads it)
_BETTORS_ROUND = (select(GameRound, Bet).where(GameRound.id == bindparam("round_id"))
                  .outerjoin(Bet, (Bet.round_id == GameRound.id) & (Bet.player_id == bindparam("bettor")))
                  .outerjoin(Bet.decisions)
                  .options(joinedload(GameRound.table), contains_eager(Bet.decisions)))
_BETTORS_ROUND_LOCKED = locked(_BETTORS_ROUND, shared=True, of=GameRound)
#: the same, only while the round's window is open at ``:moment`` (R8: it closes at its end exactly,
#: :func:`.windows.has_closed`); a round whose window is over is not locked, nor waited for
_BETTORS_OPEN_ROUND_LOCKED = _BETTORS_ROUND_LOCKED.where(
    or_(GameRound.deadline.is_(None), GameRound.deadline > bindparam("moment", type_=GameRound.deadline.type)))


def bettors_round(round_id: int, bettor: int, *, shared_lock: bool = False) -> GameRound:
    """The round with its table and only ``bettor``'s bet and its decisions, in one statement, or
    :class:`NotFound`: a bettor's decision is checked against their own bet alone (R2.3-R2.5, R8),
    so its cost does not grow with the table's bettors, and the round's ``bets`` hold that one bet
    until the transaction ends (issue 10). With ``shared_lock`` the round row alone is locked
    ``FOR SHARE``: a decision changes neither the round nor its table, so the decisions of one
    round go side by side; the dealer's step, which locks the round ``FOR NO KEY UPDATE`` (after the
    table), waits for them; and the table row stays free, so the dealer's ``SKIP LOCKED`` never
    passes a table over because a player is deciding (issue 10: one statement where four were).
    The table's settings a decision reads (R8's timers, the limits) change only when a round
    opens (:mod:`.table_changes`), which this round's lock keeps from happening meanwhile.

    The bet is read beside the round, not through the round's ``bets`` with a criterion: a
    relationship loaded with one (``GameRound.bets.and_(…)``) keeps it on the round's state for the
    session's life, so a session that read the round again after this transaction lazily loaded
    this bettor's bets alone (found by the property test: a replay in the same session left the
    other bettors out and disagreed with the settlement)."""
    statement = _BETTORS_ROUND_LOCKED if shared_lock else _BETTORS_ROUND
    row = db.session.execute(statement, {"round_id": round_id, "bettor": bettor}).unique().first()
    if row is None:
        raise _missing(GameRound, round_id)
    return _with_own_bet(row[0], row[1])


def _with_own_bet(round_row: GameRound, bet: Bet | None) -> GameRound:
    set_own_bets(round_row, [] if bet is None else [bet])
    return round_row


def bettors_open_round(round_id: int, bettor: int, moment: dt.datetime) -> GameRound | None:
    """:func:`bettors_round` locked ``FOR SHARE``, in the same one statement, while the round's
    window is open at ``moment``; None when it is over or there is no such round. A decision sent
    in time, nearly every one, takes its lock by its first read (issue 10: a read of the round's
    clock first was a round trip for every decision); one the round has left behind takes no lock,
    so the dealer closing that window never waits for it: in READ COMMITTED a row the condition
    does not match in the statement's snapshot is passed over unlocked."""
    row = db.session.execute(_BETTORS_OPEN_ROUND_LOCKED, {"round_id": round_id, "bettor": bettor,
                                                          "moment": moment}).unique().first()
    return None if row is None else _with_own_bet(row[0], row[1])


class RoundClock(NamedTuple):
    """A round's place in time as read without a lock (issue 10: a request the round has left
    behind is refused without waiting for, or holding up, the dealer)."""

    round_id: int
    table_id: int
    phase: str
    deadline: dt.datetime | None
    has_bets: bool

    def passed(self, now: dt.datetime) -> bool:
        """Whether the deadline in force is over (R8: a window closes at its end exactly)."""
        return has_closed(self.deadline, now)


def _clock(row: Any) -> RoundClock | None:
    return None if row is None else RoundClock(*row)


#: the columns of a :class:`RoundClock`
_CLOCK = select(GameRound.id, GameRound.table_id, GameRound.phase, GameRound.deadline,
                exists().where(Bet.round_id == GameRound.id))
# the read every bet starts with, built once with its parameters named (issue 10: building a
# statement and its cache key per call cost more CPU than its round trip)
_TABLE_CLOCK = _CLOCK.where(GameRound.table_id == bindparam("table_id")).order_by(GameRound.number.desc()).limit(1)


def current_clock(table_id: int) -> RoundClock | None:
    """The :class:`RoundClock` of the table's current round (the highest number), or None."""
    return _clock(db.session.execute(_TABLE_CLOCK, {"table_id": table_id}).first())


def round_with_bets(round_id: int) -> GameRound:
    """The round with its bets and decisions, not locked (or :class:`NotFound`)."""
    round_row = db.session.scalars(select(GameRound).where(GameRound.id == round_id).options(WITH_BETS)).first()
    if round_row is None:
        raise _missing(GameRound, round_id)
    return round_row


def latest_round(table_id: int, *, finished: bool = False, for_update: bool = False,
                 shared: bool = False, bets: bool = True) -> GameRound | None:
    """The table's current round (the highest number), or with ``finished`` its last settled or
    void one, with its bets (:data:`WITH_BETS`; with ``bets=False`` they are not read: the caller
    reads its own and sets them, :func:`set_own_bets`); with ``for_update`` the round row is
    locked (the caller holds the table's lock), ``FOR SHARE`` when ``shared``."""
    round_row: GameRound | None = db.session.scalars(_latest_round_statement(finished, for_update, shared, bets),
                                                     {"table_id": table_id}).first()
    return round_row


@functools.cache
def _latest_round_statement(finished: bool, for_update: bool, shared: bool, bets: bool) -> Select[Any]:
    """:func:`latest_round`'s statement, built once per kind (issue 10: every bet reads it)."""
    statement = select(GameRound).where(GameRound.table_id == bindparam("table_id"))
    if finished:
        statement = statement.where(GameRound.phase.in_(FINISHED))
    statement = (statement.order_by(GameRound.number.desc()).limit(1)
                 .options(WITH_BETS if bets else raiseload(GameRound.bets)))
    return locked(statement, shared=shared) if for_update else statement


def set_own_bets(round_row: GameRound, own: list[Bet]) -> None:
    """A round read without its bets (``latest_round(bets=False)``) holds ``own``, a bettor's
    own bets on it as the caller read them, until the transaction ends, as :func:`bettors_round`
    would have read them (issue 10: a bet reads the player's bets once, not twice). A round
    whose bets were read keeps them."""
    if "bets" in inspect(round_row).unloaded:
        set_committed_value(round_row, "bets", own)


def finished_rounds(table_id: int, limit: int) -> list[int]:
    """The ids of the table's last ``limit`` settled or void rounds, newest first: once finished a
    round never changes (R2.7; R9: no step, bet, decision or incident after it), so what is built
    of it is kept by its id (issue 10, :mod:`.kept`)."""
    return list(db.session.scalars(_FINISHED_ROUNDS, {"table_id": table_id, "limit": limit}))


#: :func:`finished_rounds`' read, built once with its parameters named (issue 10: every state
#: build and table read asks it)
_FINISHED_ROUNDS = (select(GameRound.id).where(GameRound.table_id == bindparam("table_id"),
                                               GameRound.phase.in_(FINISHED))
                    .order_by(GameRound.number.desc()).limit(bindparam("limit")))


class Panels(NamedTuple):
    """What a table's state shows beside its rounds, read in one statement: the pool's amount (R5:
    the meter) and the versions of what changes seldom, by which its built parts are kept
    (:mod:`.kept`): the prize shares of every pool, counted, and the newest (the last wins, R5:
    counted as well, so that two settlements committed out of their ids' order still change the
    version) and the paytable's newest computed figures (issue 13), None while there is none."""

    pool_amount: Decimal
    awards: tuple[int, int | None]
    figures: int | None
    figures_at: dt.datetime | None


def panels(pool_id: int, sha256: str) -> Panels:
    """:class:`Panels` of a table on ``pool_id`` dealing paytable ``sha256`` (issue 10: one read
    where the meter, the last wins and the returns were three, one of them a large JSON document)."""
    amount, shares, newest, figures_id, figures_at = db.session.execute(
        _PANELS, {"pool_id": pool_id, "sha256": sha256}).one()
    return Panels(amount, (shares, newest), figures_id, figures_at)


def _panels() -> Select[Any]:
    """:func:`panels`' read (``pool_id``, ``sha256``), built once (issue 10: every state build asks it)."""
    awards = select(func.count(AwardRecord.id).label("shares"), func.max(AwardRecord.id).label("newest")).subquery()
    figures = (select(PaytableFigures.id, PaytableFigures.computed_at)
               .where(PaytableFigures.sha256 == bindparam("sha256"), PaytableFigures.computed_at.is_not(None))
               .order_by(PaytableFigures.computed_at.desc(), PaytableFigures.id.desc()).limit(1).subquery())
    return (select(JackpotPool.amount, awards.c.shares, awards.c.newest, figures.c.id, figures.c.computed_at)
            .select_from(JackpotPool).join(awards, true()).outerjoin(figures, true())
            .where(JackpotPool.id == bindparam("pool_id")))


_PANELS = _panels()


def rounds_with_bets(round_ids: Collection[int]) -> dict[int, GameRound]:
    """These rounds with their bets and decisions, by id, in one read (two with the bets)."""
    return {row.id: row for row in db.session.scalars(select(GameRound).where(GameRound.id.in_(round_ids))
                                                      .options(WITH_BETS))}


def latest_rounds(table_ids: list[int]) -> dict[int, tuple[GameRound, int]]:
    """The current round of each of these tables (those that have one) and how many bet on it, in
    one read however many tables (issue 10: the lobby lists every open table on each change, with
    its number of bettors, never their bets)."""
    newest = (select(GameRound.table_id, func.max(GameRound.number).label("number"))
              .where(GameRound.table_id.in_(table_ids)).group_by(GameRound.table_id).subquery())
    bettors = select(func.count(Bet.id)).where(Bet.round_id == GameRound.id).scalar_subquery()
    rounds = db.session.execute(select(GameRound, bettors).join(newest, (GameRound.table_id == newest.c.table_id)
                                                                & (GameRound.number == newest.c.number)))
    return {round_row.table_id: (round_row, count) for round_row, count in rounds}


def bet_of(round_row: GameRound, player_id: int) -> Bet | None:
    """The player's bet on the round, if they placed one (R2.1)."""
    return next((bet for bet in round_row.bets if bet.player_id == player_id), None)
