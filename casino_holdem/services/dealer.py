"""The dealer loop, and the demo bots that make a fresh install deal by itself.

The loop waits instead of polling (issue 10): it sleeps until the earliest deadline of any round
that needs a step (:func:`due`, one query) or until the event bus says a table changed, then gives
only the due tables a few :func:`~.dealer_steps.advance` calls, each its own transaction that skips
a table another dealer holds (``FOR NO KEY UPDATE SKIP LOCKED`` on PostgreSQL; SQLite serializes writers).
A change only players' bets and decisions made (most of a busy floor's changes) may make its round
due (a street's last decision, R2.3-R2.5) or give it its first deadline (R2.1): for those the loop
reads only the named tables' rounds (:func:`due` of those, no lock) and locks only a round that
is due, so it never holds a round its players are betting and deciding on to find nothing to do. A
round nobody bet on is not due: its windows reopen lazily (:mod:`.windows`), so idle tables cost no
write and no wake. Each table's next deadline is kept between passes (:class:`Schedule`): a pass
reads the tables the bus named and those whose deadline has passed, and every table only when the
loop starts, after a bus outage and every :data:`IDLE_SECONDS` (a notification lost costs that
much at worst), so a step at one table is never a read of the whole floor by every dealer. Several
dealers may run at once, and a dealer killed at any point resumes every round from its last
committed step.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import random
import threading
import time
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from flask import Flask
from sqlalchemy import BindParameter, Select, bindparam, case, func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import aliased

from ..core.hand_classes import lookup_tables
from ..core.phases import PHASES
from ..core.round import FINISHED, Action, Phase
from ..events import beyond_players, bus_of, tables_named
from ..events.bus import EVERYTHING
from ..extensions import db
from ..models import Bet, DecisionRecord, GameRound, GameTable, Player
from . import table_changes, viewing, wallet
from .dealer_steps import Step, TableBusy, advance
from .errors import ServiceError
from .queries import TAKES_ROUNDS
from .rounds import decide, place_bets
from .tables import list_tables
from .transaction import clock, reading
from .windows import showdown_until

log = logging.getLogger(__name__)
#: at most this many steps per table per tick (open, deal, …, settle is at most six)
STEPS_PER_TICK = 8


#: the longest sleep without a deadline or a notification, and the longest between two reads of
#: every table (a notification lost to a bus outage is caught up this late at worst)
IDLE_SECONDS = 30.0
#: a due table held by a bet or decision in flight is tried again this soon (those take milliseconds)
BUSY_RETRY_SECONDS = 0.05
#: a due table whose step failed (and was rolled back) is tried again this much later
FAILED_RETRY_SECONDS = 1.0
#: how long a wake by players' bets and decisions waits for more of them (a street's last decision
#: is dealt on this much later at most; a deadline is never waited past)
PLAYERS_COALESCE_SECONDS = 0.05


@dataclass(frozen=True, slots=True)
class Due:
    """What :func:`due` found: the tables to advance now, each other table's next deadline
    (``upcoming``) and the deadlines that made tables due (``deadlines``)."""

    tables: list[int]
    upcoming: dict[int, dt.datetime] = field(default_factory=dict)
    deadlines: dict[int, dt.datetime] = field(default_factory=dict)


#: R2.3-R2.5: the street each decision phase asks about, as SQL over the round's phase
_STREET = case({phase.value: rules.street for phase, rules in PHASES.items() if rules.street is not None},
               value=GameRound.phase, else_=None)
#: R2.3: the streets whose decision may be a fold (a fold ends the bettor's main game)
_FOLDING = [rules.street for rules in PHASES.values() if rules.street is not None and Action.FOLD in rules.allowed]


@functools.cache
def _due_query(named: bool) -> Select[tuple[Any, ...]]:
    """The statement of :func:`due`, built once (issue 10: the dealer reads it on every wake, and
    building it cost the interpreter about as much as running it); ``:moment`` and, when
    ``named``, ``:tables`` are its parameters."""
    moment: BindParameter[dt.datetime] = bindparam("moment")
    decided = select(DecisionRecord.id).where(DecisionRecord.bet_id == Bet.id, DecisionRecord.street == _STREET)
    folded = select(DecisionRecord.id).where(DecisionRecord.bet_id == Bet.id, DecisionRecord.street.in_(_FOLDING),
                                             DecisionRecord.action == Action.FOLD.value)  # R2.3: out of the game
    bets = select(func.count(Bet.id)).where(Bet.round_id == GameRound.id)  # per round: never a scan of all bets
    undecided = bets.where(~decided.correlate(Bet, GameRound).exists(),  # the round two levels out
                           ~folded.correlate(Bet).exists())
    live = GameRound.phase.not_in([phase.value for phase in FINISHED])
    finished = aliased(GameRound)
    last_finished = (select(func.max(finished.finished_at)).where(finished.table_id == GameTable.id)
                     .scalar_subquery())
    query = (select(GameTable.id, TAKES_ROUNDS, GameRound.phase, GameRound.deadline, bets.scalar_subquery(),
                    undecided.scalar_subquery(), last_finished,
                    table_changes.due_clause(GameTable.id, moment), table_changes.next_due(GameTable.id, moment))
             .outerjoin(GameRound, (GameRound.table_id == GameTable.id) & live).order_by(GameTable.id))
    return query.where(GameTable.id.in_(bindparam("tables", expanding=True))) if named else query


@reading
def due(now: dt.datetime | None = None, *, showdown_pause: float = 0.0, tables: Collection[int] | None = None) -> Due:
    """One query over the open tables (or only ``tables``: what players' bets and decisions named,
    issue 10) and their unfinished rounds, without a lock: a table is due when it needs a round
    opened (none, or the last one's showdown pause is over: :func:`.windows.showdown_until`,
    R2.7), or its round is due as the core's :meth:`~casino_holdem.core.round.Round.due` says (its
    window is over with bets in it, R2.1 and R8, or every active bettor, not folded, has decided
    the street, R2.3-R2.5), or the round is at the showdown; a betting round nobody bet on is never
    due (:mod:`.windows`) unless a table change is due for it (:func:`.dealer_steps.reopen`). A
    closed or suspended table opens no round. A round's bets are counted through their round's
    key and their decisions through their bet's, one round at a time, so the read costs the same
    however long the floor has run."""
    moment = clock(now)
    parameters: dict[str, Any] = {"moment": moment}
    if tables is not None:
        parameters["tables"] = sorted(tables)
    rows = db.session.execute(_due_query(tables is not None), parameters).all()
    found: list[int] = []
    upcoming: dict[int, dt.datetime] = {}
    passed: dict[int, dt.datetime] = {}

    def soonest(table_id: int, moment: dt.datetime) -> None:
        upcoming[table_id] = min(moment, upcoming.get(table_id, moment))

    for table_id, is_open, phase, deadline, bettors, undecided, ended, changes_due, next_change in rows:
        idle = phase == Phase.BETTING.value and not bettors
        over = deadline is not None and deadline <= moment and not idle
        if phase is None:
            if not is_open:
                continue
            until = showdown_until(ended, showdown_pause, moment)
            if until is None:
                found.append(table_id)
            else:
                soonest(table_id, until)  # R2.7: the showdown stays on the felt until then
        elif phase == Phase.SHOWDOWN.value or over or (
                idle and changes_due) or (  # an idle table's due changes land on its empty round (table_changes)
                bettors and PHASES[Phase(phase)].street is not None and not undecided):
            found.append(table_id)
            if over:
                passed[table_id] = deadline
        elif deadline is not None and not idle:
            soonest(table_id, deadline)
        if idle and next_change is not None:
            soonest(table_id, next_change)
    return Due(found, upcoming, passed)


def tick(*, skip_locked: bool = True, tables: list[int] | None = None, showdown_pause: float = 0.0,
         busy: set[int] | None = None, failed: set[int] | None = None) -> list[Step]:
    """Advance every table (or only ``tables``) as far as it is due now, leaving a just-finished
    round on the felt for ``showdown_pause`` seconds (R2.7); returns the steps taken. The tables
    held by another transaction are left, and added to ``busy``; those whose step failed (rolled
    back) to ``failed``."""
    steps: list[Step] = []
    for table_id in [table.id for table in list_tables()] if tables is None else tables:
        try:
            for _ in range(STEPS_PER_TICK):
                step = advance(table_id, skip_locked=skip_locked, showdown_pause=showdown_pause)
                if step is None:
                    break
                steps.append(step)
                if not step.again:
                    break
        except TableBusy:
            if busy is not None:
                busy.add(table_id)
        except DBAPIError:
            raise  # the database is away: the loop waits it out
        except Exception:  # one table's failure (rolled back) must not stop the others
            log.exception("table %s: advance failed", table_id)
            if failed is not None:
                failed.add(table_id)
    return steps


@dataclass
class Bots:
    """Demo players who bet and decide at random on demo tables (R2), topping themselves up with
    demo money when they run low. Some decisions are left to time out, to show R8 at work."""

    rng: random.Random = field(default_factory=random.Random)
    bet_chance: float = 0.6
    decide_chance: float = 0.7

    def play(self) -> None:
        bots = db.session.scalars(select(Player).where(Player.is_bot.is_(True)).order_by(Player.id)).all()
        tables = db.session.scalars(select(GameTable).where(GameTable.is_demo.is_(True), TAKES_ROUNDS)
                                    .order_by(GameTable.id)).all()
        plan = [(bot.id, bot.currency, table.id, table.ante_min or Decimal(1)) for bot in bots for table in tables]
        db.session.rollback()
        for bot_id, currency, table_id, ante_min in plan:
            try:
                self._play(bot_id, currency, table_id, ante_min)
            except ServiceError as error:  # a lost race with the dealer's clock is normal
                log.debug("bot %s at table %s: %s", bot_id, table_id, error)

    def _play(self, bot_id: int, currency: str, table_id: int, ante_min: Decimal) -> None:
        current = viewing.current_round_view(table_id, bot_id)
        if current is None:
            return
        if current["phase"] == "betting" and not current["you"]["has_bet"] and self.rng.random() < self.bet_chance:
            multiplier = wallet.currency_spec(currency).multiplier
            ante = ante_min * multiplier * self.rng.choice((1, 1, 2, 5))
            if wallet.balance(bot_id).available < ante * 10:
                wallet.deposit(bot_id, ante * 1000, f"bot-topup:{uuid.uuid4()}")
            place_bets(bot_id, table_id, ante, ante if self.rng.random() < 0.3 else Decimal(0),
                       self.rng.random() < 0.5, request_id=str(uuid.uuid4()))
        elif current["you"]["allowed_actions"] and self.rng.random() < self.decide_chance:
            choices = current["you"]["allowed_actions"]
            weights = [1 if action in (Action.FOLD.value, Action.CHECK.value) else 3 for action in choices]
            decide(bot_id, current["round_id"], self.rng.choices(choices, weights)[0], request_id=str(uuid.uuid4()))


@dataclass(frozen=True, slots=True)
class Woken:
    """What the bus said since the last pass: the tables it named, and whether it said that
    everything changed (after an outage)."""

    tables: set[int]
    everything: bool = False


class Waker:
    """The tables the bus named since the last pass, and the event that wakes the loop."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self._lock = threading.Lock()
        self._tables: set[int] = set()
        self._everything = False
        #: a change beyond players' bets and decisions (a step, a deadline, a table) is read at once
        self._beyond_players = False

    def __call__(self, topics: frozenset[str]) -> None:
        named = tables_named(topics)  # a bet or decision too: it may make a round due (R2.1-R2.5)
        if named or EVERYTHING in topics:
            with self._lock:
                self._tables |= named
                self._everything = self._everything or EVERYTHING in topics
                self._beyond_players = self._beyond_players or self._everything or beyond_players(topics)
            self.event.set()

    def again(self, tables: set[int]) -> None:
        """Name ``tables`` again for the next pass, without waking it."""
        with self._lock:
            self._tables |= tables

    def wait(self, seconds: float, stop: threading.Event) -> None:
        """Sleep ``seconds`` or until the bus names a table. Woken by players' bets and decisions
        only, wait a little longer for the others' of the same moment (issue 10: one read for a
        table's twenty bettors, not one each), never past ``seconds``."""
        started = time.monotonic()
        if self.event.wait(seconds) and not self._beyond_players:
            stop.wait(min(PLAYERS_COALESCE_SECONDS, max(0.0, seconds - (time.monotonic() - started))))

    def take(self) -> Woken:
        with self._lock:
            woken = Woken(self._tables, self._everything)
            self._tables, self._everything, self._beyond_players = set(), False, False
        self.event.clear()
        return woken


@dataclass
class Schedule:
    """The loop's memory between passes: each table's next deadline, as :func:`due` last found it
    (issue 10). A pass reads the tables the bus named and those whose deadline has passed; every
    table only the first time, after an outage of the bus or a failed pass (:meth:`read_all`), and
    :data:`IDLE_SECONDS` after the last such read. A deadline that moved without a word is read
    again when it passes, and found gone; a table whose step failed is read again
    :data:`FAILED_RETRY_SECONDS` later."""

    deadlines: dict[int, dt.datetime] = field(default_factory=dict)
    #: when every table is read next (None: at the next pass)
    read_all_at: dt.datetime | None = None

    @property
    def next_wake(self) -> dt.datetime | None:
        """The earliest of the deadlines and the next read of every table."""
        return min((*self.deadlines.values(), *filter(None, [self.read_all_at])), default=None)

    def to_read(self, woken: Woken, moment: dt.datetime) -> set[int] | None:
        """The tables this pass reads: None for every table (module docstring)."""
        if woken.everything or self.read_all_at is None or self.read_all_at <= moment:
            return None
        return woken.tables | {table for table, deadline in self.deadlines.items() if deadline <= moment}

    def read_all(self) -> None:
        """Read every table at the next pass: this one failed, perhaps after it had read a due
        table's deadline and before that table's step was committed."""
        self.read_all_at = None

    def learn(self, found: Due, read: set[int] | None, moment: dt.datetime) -> None:
        """Keep the deadlines of the tables just ``read`` (None: every table) as ``found``."""
        if read is None:
            self.deadlines, self.read_all_at = dict(found.upcoming), moment + dt.timedelta(seconds=IDLE_SECONDS)
            return
        for table in read:
            self.deadlines.pop(table, None)
        self.deadlines.update(found.upcoming)

    def retry(self, failed: set[int], at: dt.datetime) -> None:
        """Read the tables whose step ``failed`` (rolled back) again ``at`` that moment."""
        self.deadlines.update(dict.fromkeys(failed, at))


def run(app: Flask, *, stop: threading.Event, bots: Bots | None = None, tick_seconds: float | None = None,
        observe: Callable[[Step, dt.datetime | None], None] | None = None) -> None:
    """The dealer loop (module docstring) until ``stop`` is set; the step in progress is finished
    first (graceful shutdown). With ``bots`` it also wakes every ``tick_seconds``
    (``CASINO_DEALER_TICK``) to let them play. ``observe`` sees each step with the deadline it was
    due at (metrics). A database outage (a restarted PostgreSQL) is logged and waited out."""
    pause = tick_seconds if tick_seconds is not None else float(app.config["CASINO_DEALER_TICK"])
    showdown_pause = float(app.config["CASINO_SHOWDOWN_PAUSE"])
    lookup_tables()  # the evaluator's tables are built now, not in the first showdown's step (its lag)
    waker, schedule = Waker(), Schedule()
    unsubscribe = bus_of(app).subscribe(waker)

    def wake_when_stopped() -> None:
        stop.wait()
        waker.event.set()

    stopping = threading.Thread(target=wake_when_stopped, daemon=True)
    stopping.start()
    try:
        with app.app_context():
            while not stop.is_set():
                sleep = _pass(waker, bots, observe, showdown_pause, schedule)
                db.session.rollback()  # asleep, the loop holds no transaction (nor a SQLite snapshot)
                if bots is not None:
                    sleep = min(sleep, pause)
                if sleep > 0 and not stop.is_set():
                    waker.wait(sleep, stop)
    finally:
        unsubscribe()


def _pass(waker: Waker, bots: Bots | None, observe: Callable[[Step, dt.datetime | None], None] | None,
          showdown_pause: float = 0.0, schedule: Schedule | None = None) -> float:
    """Advance the due tables (:func:`due`) among those the schedule says to read (every table, or
    the ones the bus named and those whose deadline has passed: :meth:`Schedule.to_read`).
    Returns the seconds until the schedule's next wake."""
    schedule = schedule if schedule is not None else Schedule()
    try:
        woken, moment = waker.take(), clock(None)
        read = schedule.to_read(woken, moment)
        busy, failed = set[int](), set[int]()
        if read is None or read:
            found = due(showdown_pause=showdown_pause, tables=read)
            schedule.learn(found, read, moment)
            for step in tick(tables=found.tables, showdown_pause=showdown_pause, busy=busy, failed=failed):
                log.info("table %s round %s: %s", step.table_id, step.round_number, step.event)
                if observe is not None:
                    observe(step, found.deadlines.pop(step.table_id, None))
        schedule.retry(failed, clock(None) + dt.timedelta(seconds=FAILED_RETRY_SECONDS))
        if bots is not None:
            bots.play()
        if busy:  # due, and a bet or decision holds them now: read them again soon
            waker.again(busy)
            return BUSY_RETRY_SECONDS
        wake = schedule.next_wake
        if wake is None:
            return IDLE_SECONDS
        return min(IDLE_SECONDS, max(0.0, (wake - clock(None)).total_seconds()))
    except DBAPIError as error:
        log.warning("database unavailable, retrying: %s", error.__class__.__name__)
        db.session.remove()
        schedule.read_all()
        return 1.0
    except Exception:  # one table's failure must not stop the others; it was rolled back
        log.exception("dealer pass failed")
        db.session.remove()
        schedule.read_all()
        return 1.0
