"""A service's transaction on PostgreSQL (issue 10): a read runs without BEGIN and COMMIT, a pooled
connection is pinged only after it sat idle, and a transaction that lost its connection is retried
only when the database has surely rolled it back (before COMMIT)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.exc import OperationalError

from casino_holdem import extensions
from casino_holdem.extensions import db
from casino_holdem.models import Player
from casino_holdem.services import wallet
from casino_holdem.services.transaction import reading, transactional
from support.server import wait_until

pytestmark = pytest.mark.postgres


def _terminate(url: str, pid: int) -> None:
    """End one server process from another connection, as a database restart would, and wait
    until it is gone."""
    other = create_engine(url, isolation_level="AUTOCOMMIT")
    with other.connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        wait_until(lambda: not connection.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                                                  {"pid": pid}).scalar_one(), seconds=30, what=f"the end of {pid}")
    other.dispose()


def _backend() -> int:
    return int(db.session.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _counting(function: Callable[[int], Any]) -> tuple[Callable[[], Any], list[int]]:
    attempts: list[int] = []

    def counted() -> Any:
        attempts.append(len(attempts) + 1)
        return function(len(attempts))

    return counted, attempts


def test_issue_10_a_read_runs_each_statement_on_its_own_without_begin_and_commit(postgres_app) -> None:
    """Under READ COMMITTED each statement reads its own snapshot either way; what shows there is
    no transaction is the transaction's start moving with each statement."""
    @reading
    def two_reads() -> tuple[Any, Any]:
        first = db.session.execute(text("SELECT now()")).scalar_one()
        db.session.execute(text("SELECT pg_sleep(0.02)"))
        return first, db.session.execute(text("SELECT now()")).scalar_one()

    @transactional
    def two_reads_in_a_transaction() -> tuple[Any, Any]:
        return two_reads.__wrapped__()  # type: ignore[attr-defined,no-any-return]

    first, second = two_reads()
    assert second > first
    first, second = two_reads_in_a_transaction()
    assert second == first


def test_issue_10_a_transaction_that_lost_its_connection_before_commit_is_retried(postgres_app) -> None:
    """The database rolled it back: the retry runs once more on a new connection and commits."""
    url = postgres_app.config["SQLALCHEMY_DATABASE_URI"]
    player = wallet.create_player("kept", "a password of twelve", "USD")

    def rename(attempt: int) -> str:
        row = db.session.get(Player, player.id)
        if attempt == 1:
            _terminate(url, _backend())
        row.username = f"renamed{attempt}"
        db.session.flush()
        return row.username

    counted, attempts = _counting(rename)
    assert transactional(counted)() == "renamed2"
    assert attempts == [1, 2]
    assert db.session.get(Player, player.id).username == "renamed2"


def test_issue_10_a_transaction_that_lost_its_connection_during_commit_is_not_retried(postgres_app) -> None:
    """Whether it committed is unknown, so the error reaches the caller and nothing runs twice."""
    url = postgres_app.config["SQLALCHEMY_DATABASE_URI"]
    player = wallet.create_player("kept", "a password of twelve", "USD")

    def rename(attempt: int) -> None:
        db.session.get(Player, player.id).username = f"renamed{attempt}"
        pid = _backend()
        event.listen(db.session(), "before_commit", lambda _session: _terminate(url, pid), once=True)

    counted, attempts = _counting(rename)
    with pytest.raises(OperationalError):
        transactional(counted)()
    assert attempts == [1]


def test_issue_10_a_pooled_connection_is_pinged_only_after_it_sat_idle(postgres_app, monkeypatch) -> None:
    """A busy server's connections are not pinged at each checkout; one that sat idle past
    PING_AFTER_IDLE_SECONDS is, and one the database dropped meanwhile is replaced before use."""
    url = postgres_app.config["SQLALCHEMY_DATABASE_URI"]
    pings: list[int] = []
    dialect = db.engine.dialect
    real_ping = dialect.do_ping
    monkeypatch.setattr(dialect, "do_ping", lambda connection: pings.append(1) or real_ping(connection))
    db.session.remove()

    @reading
    def backend() -> int:
        return _backend()

    first = backend()
    assert backend() == first and pings == []  # used a moment ago: no ping
    _terminate(url, first)
    monkeypatch.setattr(extensions, "PING_AFTER_IDLE_SECONDS", 0.0)
    assert backend() != first  # idle long enough: pinged, found dropped, replaced
    assert pings
