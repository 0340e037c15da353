"""Issue 10: the production app asks about one answer in ``CASINO_KEEPALIVE_REQUESTS`` to close
its connection, so that kept-alive connections (a browser's, a proxy's pool) spread over the web
workers by their load instead of staying where they first landed; event streams are never asked."""

from __future__ import annotations

import asyncio
import http.client
import socket
from typing import Any

import pytest

from casino_holdem.asgi import CLOSE, Front
from support.streams import asgi_server

START = {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]}
BODY = {"type": "http.response.body", "body": b"ok"}


class _Streams:
    """Stands in for :class:`~casino_holdem.asgi.Streams`: answers a stream's request as the app's own would."""

    async def serve(self, _scope: Any, _receive: Any, send: Any, _table: str | None) -> None:
        await send(START)
        await send(BODY)


async def _answer(_scope: Any, _receive: Any, send: Any) -> None:
    await send(START)
    await send(BODY)


def _sent(front: Front, path: str, kind: str = "http") -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    asyncio.run(front({"type": kind, "path": path}, receive, send))
    return sent


def _closes(sent: list[dict[str, Any]]) -> bool:
    return CLOSE in sent[0]["headers"]


@pytest.mark.parametrize(("keepalive_requests", "draw", "closes"), [
    (20, 0.049, True),     # 1 in 20: a draw under 0.05 closes
    (20, 0.05, False),
    (20, 0.9, False),
    (1, 0.999, True),      # every answer
    (0, 0.0, False),       # never, whatever the draw
])
def test_issue_10_an_answer_closes_its_connection_with_a_chance_of_one_in_keepalive_requests(
        keepalive_requests: int, draw: float, closes: bool) -> None:
    front = Front(_Streams(), _answer, keepalive_requests, chance=lambda: draw)  # type: ignore[arg-type]
    sent = _sent(front, "/api/tables/1/bets")
    assert _closes(sent) is closes
    assert sent[0]["status"] == 200 and sent[0]["headers"][0] == (b"content-type", b"text/plain")
    assert sent[1] == BODY  # the body is the app's, untouched


@pytest.mark.parametrize("path", ["/events/lobby", "/events/tables/7"])
def test_issue_10_an_event_stream_is_never_asked_to_reconnect(path: str) -> None:
    def chance() -> float:
        raise AssertionError("a stream draws no chance")

    front = Front(_Streams(), _answer, 1, chance=chance)  # type: ignore[arg-type]
    assert not _closes(_sent(front, path))


def test_issue_10_the_lifespan_passes_through_untouched() -> None:
    seen: list[str] = []

    async def rest(scope: Any, _receive: Any, _send: Any) -> None:
        seen.append(scope["type"])

    front = Front(_Streams(), rest, 1, chance=lambda: 0.0)  # type: ignore[arg-type]
    assert _sent(front, "", kind="lifespan") == [] and seen == ["lifespan"]


def _get(connection: http.client.HTTPConnection, path: str) -> http.client.HTTPResponse:
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response


def test_issue_10_uvicorn_closes_the_connection_an_answer_asked_to_close(db, app) -> None:
    app.config["CASINO_KEEPALIVE_REQUESTS"] = 1
    with asgi_server(app) as (host, port), socket.create_connection((host, port), timeout=60) as raw:
        raw.sendall(f"GET /api/session HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        received = b""
        while chunk := raw.recv(65536):  # until the server closes its end (a kept connection would time out)
            received += chunk
        head = received.split(b"\r\n\r\n", 1)[0].lower()
        assert head.startswith(b"http/1.1 200") and b"\r\nconnection: close" in head


def test_issue_10_with_zero_a_connection_is_kept_for_every_request(db, app) -> None:
    app.config["CASINO_KEEPALIVE_REQUESTS"] = 0
    with asgi_server(app) as (host, port):
        connection = http.client.HTTPConnection(host, port, timeout=60)
        connection.connect()
        local = connection.sock.getsockname()
        for _ in range(30):
            response = _get(connection, "/api/session")
            assert response.status == 200 and response.getheader("Connection") is None
        assert connection.sock is not None and connection.sock.getsockname() == local  # one connection throughout
        connection.close()
