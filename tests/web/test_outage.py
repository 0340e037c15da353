"""Issue 10: while the database cannot be reached (PostgreSQL restarting, a full connection pool),
every request is 503 with ``Retry-After`` and the usual error body — JSON for the API, a page for a
browser — never a 500 with a traceback; the production app's event streams say the same."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from casino_holdem.extensions import db
from support.streams import Stream, asgi_server
from support.web import WebCasino

#: what the driver raises for a server that refuses connections, and a connection pool that is full
OUTAGES = [OperationalError("connect", {}, ConnectionRefusedError("connection refused")),
           PoolTimeout("QueuePool limit of size 5 overflow 10 reached")]


@contextmanager
def database_down(monkeypatch: pytest.MonkeyPatch, error: Exception) -> Iterator[None]:
    """Every new database connection of the app fails with ``error`` until the block ends."""
    def refused(*_: object, **__: object) -> None:
        raise error

    db.session.remove()
    with monkeypatch.context() as patch:
        patch.setattr(db.engine, "connect", refused)
        yield
    db.session.remove()


@pytest.fixture
def table(casino: WebCasino) -> int:
    table_id = casino.table()
    casino.advance(table_id)
    casino.player("alice")
    return table_id


def _is_outage(response_status: int, retry_after: str | None) -> None:
    assert response_status == 503 and retry_after is not None and int(retry_after) > 0


@pytest.mark.parametrize("error", OUTAGES, ids=["connection_refused", "pool_exhausted"])
@pytest.mark.parametrize(("method", "path"), [("GET", "/api/me"), ("GET", "/api/tables"),
                                              ("GET", "/api/tables/{table}"), ("POST", "/api/tables/{table}/bets")])
def test_the_api_answers_503_with_retry_after_while_the_database_is_away(
        casino: WebCasino, table: int, monkeypatch: pytest.MonkeyPatch, error: Exception, method: str,
        path: str) -> None:
    alice = casino.client("alice")
    with database_down(monkeypatch, error):
        response = alice.send(method, path.format(table=table), {"ante": "10", "request_id": "r1"})
    _is_outage(response.status_code, response.headers.get("Retry-After"))
    assert response.get_json()["error"]["code"] == "service_unavailable"
    assert response.get_json()["error"]["field"] == "database"
    assert alice.get("/api/me").status_code == 200  # back: nothing was left half done
    assert alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "r1"}).status_code == 201


def test_a_page_is_a_503_page_while_the_database_is_away(casino: WebCasino, table: int,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    alice = casino.client("alice")
    with database_down(monkeypatch, OUTAGES[0]):
        response = alice.get(f"/tables/{table}", headers={"Accept": "text/html"})
    _is_outage(response.status_code, response.headers.get("Retry-After"))
    assert response.mimetype == "text/html" and b"Traceback" not in response.data


def test_a_stream_of_the_production_app_is_503_while_the_database_is_away(
        casino: WebCasino, table: int, app, monkeypatch: pytest.MonkeyPatch) -> None:
    cookie = casino.client("alice").http.get_cookie("session").value
    with asgi_server(app) as address, database_down(monkeypatch, OUTAGES[0]):
        stream = Stream(address, f"/events/tables/{table}", cookie)
        try:
            _is_outage(stream.status, stream.response.getheader("Retry-After"))
            assert stream.body()["error"]["code"] == "service_unavailable"
        finally:
            stream.close()
