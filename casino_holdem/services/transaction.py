"""One public service function = one database transaction, and the row-locking helpers.

:func:`transactional` commits when the function returns and rolls everything back when it raises,
so a refused request or a crash mid-way leaves no partial money movement. Calls between services
join the caller's transaction. Lost races the database reports (a deadlock, a serialization
failure, a unique key inserted by a concurrent twin) are retried from the start: the retry sees
what the winner committed, which is what makes client retries and duplicate dealers safe. So is
a transaction whose connection the database dropped (a restart) before ``COMMIT`` was sent: the
database rolled it back, and the retry runs on a new connection. One that lost its connection
during ``COMMIT`` is not retried: whether it committed is unknown, and the error says so. A
transaction that only reads runs on PostgreSQL without ``BEGIN``/``COMMIT``
(:func:`~casino_holdem.extensions.read_options`).

Locks are always taken in one order: table row, round row, the players' and rounds' ledger
accounts by id, then the pool row, then the house's shared accounts by id. The rows every table
shares (a linked pool, the house's and exchange accounts) come last, so a transaction holds them
only from its pool or house posting to its commit, never for the whole bet or settlement (issue
10: a Progressive bet must not serialise every linked table); a round's in-play account, the pool
row and the shared accounts are each taken by the one statement that adds to them, in that order
(:func:`.wallet.post`, :func:`.jackpot.move`). Bets take their table and round rows ``FOR
SHARE`` (:func:`locked`), decisions their round row alone (a round's settings change only when
the next one opens): they change neither, so the bettors of one table do not queue behind each
other, while the dealer's and the operators' ``FOR NO KEY UPDATE`` waits for them; what two bettors
must not both do is kept apart by the player's own wallet lock and the
unique keys (one bet per player and round, one decision per bet and street).
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, TypeVarTuple

from sqlalchemy import Select
from sqlalchemy.exc import DBAPIError

from ..extensions import WRITES, db, read_options
from ..models import utcnow

P = ParamSpec("P")
T = TypeVar("T")
Ts = TypeVarTuple("Ts")
IN_SERVICE = "casino_in_service"
ATTEMPTS = 5
#: PostgreSQL SQLSTATEs of races a retry resolves: serialization failure, deadlock, unique violation
RETRYABLE_SQLSTATES = {"40001", "40P01", "23505"}


def _retryable(error: DBAPIError, committing: bool) -> bool:
    if error.connection_invalidated:  # rolled back when lost before COMMIT; unknown during it
        return not committing
    sqlstate = getattr(error.orig, "sqlstate", None)
    if sqlstate in RETRYABLE_SQLSTATES:
        return True
    return "database is locked" in str(error.orig)


def transactional(function: Callable[P, T]) -> Callable[P, T]:
    """Run ``function`` as one writing transaction (see the module docstring); on SQLite it holds
    the write lock from its start (:mod:`casino_holdem.extensions`)."""
    return _service(function, writes=True)


def reading(function: Callable[P, T]) -> Callable[P, T]:
    """Run ``function`` as one transaction that only reads: on SQLite a snapshot that neither waits
    for the write lock nor holds it, so pages and live-update streams never queue behind the
    dealer. A write inside it is still safe: SQLite refuses it if another writer committed since
    the snapshot, and the refusal is retried like any lost race. On PostgreSQL each statement runs
    on its own (autocommit, :func:`~casino_holdem.extensions.read_options`): a read sees what it
    would inside a transaction under READ COMMITTED, and a write commits by itself, so a reading
    service writes at most one statement that needs nothing else with it."""
    return _service(function, writes=False)


def _service(function: Callable[P, T], *, writes: bool) -> Callable[P, T]:
    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        session = db.session
        if session.info.get(IN_SERVICE):
            return function(*args, **kwargs)
        if session.new or session.dirty or session.deleted:
            raise RuntimeError(f"{function.__name__}: services own the transaction; the caller has unsaved changes")
        session.rollback()  # end the caller's read-only transaction so ours starts fresh
        for attempt in range(1, ATTEMPTS + 1):
            session.info[IN_SERVICE] = True
            committing = False
            try:
                session.connection(execution_options={WRITES: True} if writes else read_options(db.engine))
                result = function(*args, **kwargs)
                session.flush()  # the last statements before COMMIT: a connection lost here is retried
                committing = True
                session.commit()
                return result
            except DBAPIError as error:
                session.rollback()
                if attempt == ATTEMPTS or not _retryable(error, committing):
                    raise
            except BaseException:
                session.rollback()
                raise
            finally:
                session.info[IN_SERVICE] = False
        raise AssertionError("unreachable")

    return wrapper


def locked(statement: Select[*Ts], *, skip_locked: bool = False, shared: bool = False,
           of: Any = None) -> Select[*Ts]:
    """``SELECT … FOR NO KEY UPDATE`` (PostgreSQL; SQLite already holds the database write lock),
    with freshly read values even for rows the session has already loaded. ``shared`` takes ``FOR
    SHARE`` instead: the row cannot change until commit, yet other sharers go on (issue 10: the
    bets and decisions of one table run side by side, and the dealer's step waits for them).
    ``of`` names the one table whose rows are locked when the statement joins others.

    No key is ever changed, so the exclusive lock is ``NO KEY UPDATE``: it keeps every other
    locker and writer of the row waiting, as ``FOR UPDATE`` does, but not a row written elsewhere
    that only refers to it. With ``FOR UPDATE``, a decision holding its round ``FOR SHARE`` waited
    to write its audit entry (whose foreign key names the table) for the dealer holding that
    table, while the dealer waited for the round: a deadlock, seen in ``bench/load.py``, which
    PostgreSQL broke after a second by failing one of them (issue 10)."""
    return (statement.with_for_update(read=shared, key_share=not shared, skip_locked=skip_locked, of=of)
            .execution_options(populate_existing=True))


def clock(now: dt.datetime | None) -> dt.datetime:
    """The service's notion of now: the caller's clock (tests, replays) or the wall clock in UTC."""
    if now is None:
        return utcnow()
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware (UTC)")
    return now
