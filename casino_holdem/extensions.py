"""The Flask extensions and the database engine setup every process shares.

SQLite gets foreign keys and ``BEGIN IMMEDIATE`` for the transactions that write: the write lock
is taken when a writing service transaction starts, not at its first write, so two writers never
both read a balance and then both try to spend it (on SQLite the whole database is the lock).
Every other transaction (a page, a live-update stream, the dealer looking for due tables) is a
plain deferred ``BEGIN``: in WAL mode it reads a snapshot and never waits for, nor holds up, a
writer — a stream rebuilding a table's state must not queue behind the dealer, or a player's
page would show a street seconds late. PostgreSQL keeps READ
COMMITTED and the services lock rows explicitly (``SELECT … FOR NO KEY UPDATE``) in one fixed order.

On a server database the round trips that did no work are left out (issue 10: a player's decision
made 22, now 18, and on a loaded machine each one waits for the interpreter and for the
database's turn):
- a transaction that only reads runs without ``BEGIN`` and ``COMMIT`` (:func:`read_options`): under
  READ COMMITTED each statement reads its own snapshot whether or not they share a transaction, so
  a read in autocommit sees exactly what it saw inside one;
- a pooled connection is pinged only when it has sat idle in the pool for
  :data:`PING_AFTER_IDLE_SECONDS` (:func:`ping_idle_connections`), not on every checkout. One
  the database dropped while it was in use fails at its next statement, and the service retries
  a transaction that lost its connection before ``COMMIT`` (:mod:`.services.transaction`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Collection
from typing import Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import DeclarativeBase, Session


class Base(DeclarativeBase):
    """Declarative base of the typed models (SQLAlchemy 2.0 style)."""


db = SQLAlchemy(model_class=Base)
migrate = Migrate()

#: seconds a SQLite writer waits for the write lock before giving up
SQLITE_BUSY_SECONDS = 30
#: the execution option a writing service transaction sets on its connection (module docstring)
WRITES = "casino_writes"
#: a server database's pooled connection idle this long is pinged before use (module docstring)
PING_AFTER_IDLE_SECONDS = 10.0
#: where a pooled connection's record keeps when it was last returned to the pool
_IDLE_SINCE = "casino_idle_since"


def read_options(engine: Engine) -> dict[str, Any]:
    """The execution options of a service transaction that only reads (module docstring): none on
    SQLite, where it is a snapshot, autocommit on PostgreSQL."""
    return {"isolation_level": "AUTOCOMMIT"} if engine.dialect.name == "postgresql" else {}


def ping_idle_connections(engine: Engine) -> None:
    """Ping a pooled connection at checkout only when it has been idle for
    :data:`PING_AFTER_IDLE_SECONDS` (module docstring); one that fails the ping is replaced (the
    pool retries the checkout on :class:`~sqlalchemy.exc.DisconnectionError`)."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        if record is not None:
            record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle_since = record.info.get(_IDLE_SINCE)
        if idle_since is None or time.monotonic() - idle_since < PING_AFTER_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            raise DisconnectionError(f"idle connection failed its ping: {error}") from error


def configure_engine(engine: Engine) -> None:
    """Install the per-dialect connection settings described in the module docstring."""
    if engine.dialect.name != "sqlite":
        ping_idle_connections(engine)
        return

    @event.listens_for(engine, "connect")
    def _sqlite_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself instead of pysqlite's deferred BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_SECONDS * 1000}")
        if engine.url.database not in (None, "", ":memory:"):
            cursor.execute("PRAGMA journal_mode = WAL")
            cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _sqlite_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if connection.get_execution_options().get(WRITES) else "BEGIN")


#: what gathers a transaction's rows: ``collect(session, new, changed)``, the rows inserted and
#: those updated or deleted (:func:`after_commit`)
Collect = Callable[[Session, Collection[object], Collection[object]], None]
#: every installed gatherer, which :func:`wrote` also tells of rows written by plain statements
_COLLECTORS: list[Collect] = []


def after_commit(key: str, collect: Collect, commit: Callable[[Any], None]) -> None:
    """Install once, on every ORM session: ``collect`` after each flush, gathering what the
    transaction writes into ``session.info[key]`` (and from :func:`wrote`); ``commit`` with what
    was gathered once the transaction has committed; a rolled-back transaction's gathering is
    dropped. The event bus (:mod:`casino_holdem.events.publish`) and the metrics
    (:mod:`casino_holdem.metrics`) act only on what was committed."""
    if collect in _COLLECTORS:
        return
    _COLLECTORS.append(collect)

    def flushed(session: Session, _context: Any) -> None:
        collect(session, session.new, (*session.dirty, *session.deleted))

    def committed(session: Session) -> None:
        gathered = session.info.pop(key, None)
        if gathered:
            commit(gathered)

    def rolled_back(session: Session) -> None:
        session.info.pop(key, None)

    event.listen(Session, "after_flush", flushed)
    event.listen(Session, "after_commit", committed)
    event.listen(Session, "after_rollback", rolled_back)


def wrote(session: Session, rows: Collection[object]) -> None:
    """Rows a service inserted by a plain statement rather than the unit of work (issue 10: a
    decision's row, :func:`~casino_holdem.services.round_rows.save_round`), gathered by every
    :func:`after_commit` as a flush's new rows are."""
    for collect in _COLLECTORS:
        collect(session, rows, ())
