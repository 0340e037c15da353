"""The web tests' side of the casino: a browser-like test client that keeps the session and sends
the CSRF token, a reader of server-sent events, and :class:`WebCasino`, whose players log in
through such clients while the dealer's steps move at the test's frozen clock."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from flask import Flask
from werkzeug.test import TestResponse

from casino_holdem.services import dealer_steps

from .casino import OPERATOR_PASSWORD, PASSWORD, Casino
from .operator_routes import ANONYMOUS, PLAYER

Listener = Callable[[str, TestResponse], None]


class Client:
    """A browser-like test client: it keeps the session cookie and sends the CSRF token."""

    def __init__(self, app: Flask, listener: Listener | None = None) -> None:
        self.http = app.test_client()
        self.listener = listener
        self.token = ""

    def _seen(self, path: str, response: TestResponse) -> TestResponse:
        if self.listener is not None:
            self.listener(path, response)
        return response

    def refresh_token(self) -> str:
        self.token = self.get("/api/session").get_json()["csrf_token"]
        return self.token

    def get(self, path: str, **options: Any) -> TestResponse:
        return self._seen(path, self.http.get(path, **options))

    def send(self, method: str, path: str, body: Any = None, *, token: str | None = None) -> TestResponse:
        """A state-changing request with this session's CSRF token (or ``token`` when given)."""
        headers = {"X-CSRF-Token": self.token if token is None else token}
        return self._seen(path, self.http.open(path, method=method, json=body, headers=headers))

    def post(self, path: str, body: Any = None, **options: Any) -> TestResponse:
        return self.send("POST", path, body, **options)

    def _sign_in(self, path: str, username: str, password: str) -> TestResponse:
        """Sign in at ``path`` and keep the new session's CSRF token."""
        self.refresh_token()
        response = self.post(path, {"username": username, "password": password})
        if response.status_code == 200:
            self.token = response.get_json()["csrf_token"]
        return response

    def login(self, username: str, password: str = PASSWORD) -> TestResponse:
        return self._sign_in("/api/session", username, password)

    def operator_login(self, username: str, password: str = OPERATOR_PASSWORD) -> TestResponse:
        """Sign in to the back office (issue 11)."""
        return self._sign_in("/api/operator/session", username, password)

    def events(self, path: str, count: int) -> list[dict[str, Any]]:
        """Read ``count`` ``state`` events of a stream (fewer if it ends first), then close it."""
        response = self.http.get(path, buffered=False)
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
        found: list[dict[str, Any]] = []
        buffer = ""
        try:
            for chunk in response.response:
                buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
                while "\n\n" in buffer and len(found) < count:
                    block, buffer = buffer.split("\n\n", 1)
                    self._seen(path, TestResponse(block.encode(), 200, {"Content-Type": "text/event-stream"},
                                                  request=response.request))
                    lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
                    if lines.get("event") == "state":
                        found.append(json.loads(lines["data"]))
                if len(found) >= count:
                    break
        finally:
            response.close()
        return found


class WebCasino(Casino):
    """Players, a pool and tables through the services; rounds moved by the dealer's step."""

    def __init__(self, app: Flask, listener: Listener | None = None) -> None:
        super().__init__()
        self.app = app
        self.listener = listener

    def player(self, username: str | None = None, currency: str = "USD", amount: str = "1000") -> int:
        return self.funded_player(username or f"player{next(self.names)}", currency, amount)

    def table(self, *, seed: str = "1000", **settings: Any) -> int:
        return self.linked_table(f"table{next(self.names)}", self.seeded_pool(seed), **settings)

    def client(self, username: str | None = None) -> Client:
        """A client, logged in as ``username`` when given."""
        client = Client(self.app, self.listener)
        if username is not None:
            assert client.login(username).status_code == 200
        return client

    def folded_round(self, client: Client, table_id: int, clock: Any) -> None:
        """A finished round in ``client``'s history: an Ante on the open round, then no decision,
        so the dealer folds for them when time runs out (R8); ``clock`` is the frozen clock."""
        client.post(f"/api/tables/{table_id}/bets", {"ante": "10", "request_id": "folded"})
        for _ in range(2):
            clock.tick(dt.timedelta(seconds=11))
            self.advance(table_id)

    def operator_client(self, username: str, role: str | None = None, password: str = OPERATOR_PASSWORD) -> Client:
        """A client signed in to the back office as ``username`` (created with ``role`` first when given)."""
        if role is not None:
            self.operator(username, role)
        client = Client(self.app, self.listener)
        response = client.operator_login(username, password)
        assert response.status_code == 200, response.get_json()
        return client

    def visitor(self, who: str) -> Client:
        """The authorization matrix's visitors: :data:`ANONYMOUS`, a :data:`PLAYER` or an operator of role ``who``."""
        if who == ANONYMOUS:
            client = self.client()
            client.refresh_token()
            return client
        if who == PLAYER:
            name = f"punter{next(self.names)}"
            self.player(name)
            return self.client(name)
        return self.operator_client(f"{who}{next(self.names)}", who)

    @staticmethod
    def advance(table_id: int) -> list[str]:
        """Let the dealer take every step due now (the clock is the test's)."""
        events = []
        while (step := dealer_steps.advance(table_id)) is not None:
            events.append(step.event)
        return events
