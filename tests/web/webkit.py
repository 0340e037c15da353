"""Helpers of the web tests: players and tables made through the services, logged-in test
clients that send the CSRF token, a fixed clock, and a reader of server-sent events."""

from __future__ import annotations

import datetime as dt
import itertools
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from flask import Flask
from werkzeug.test import TestResponse

from casino_holdem.services import dealer_steps, jackpot, tables, wallet

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
BETTING, DECISION = 10, 10
PASSWORD = "correct horse"
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

    def login(self, username: str, password: str = PASSWORD) -> TestResponse:
        self.refresh_token()
        response = self.post("/api/session", {"username": username, "password": password})
        if response.status_code == 200:
            self.token = response.get_json()["csrf_token"]
        return response

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


class Casino:
    """Players, a pool and tables through the services; rounds moved by the dealer's step."""

    def __init__(self, app: Flask, listener: Listener | None = None) -> None:
        self.app = app
        self.listener = listener
        self.names = itertools.count(1)

    def player(self, username: str | None = None, currency: str = "USD", amount: str = "1000") -> int:
        player = wallet.create_player(username or f"player{next(self.names)}", PASSWORD, currency)
        if Decimal(amount):
            wallet.deposit(player.id, amount, f"fund:{player.id}")
        return player.id

    def table(self, *, seed: str = "1000", **settings: Any) -> int:
        pool = jackpot.ensure_pool(f"pool{next(self.names)}")
        jackpot.top_up(pool.id, seed, "test seed", "tester")
        options: dict[str, Any] = {"ante_min": Decimal(1), "ante_max": Decimal(500), "bonus_min": Decimal(1),
                                   "bonus_max": Decimal(100), "betting_seconds": BETTING,
                                   "decision_seconds": DECISION, **settings}
        return tables.create_table(f"table{next(self.names)}", pool.id, **options).id

    def client(self, username: str | None = None) -> Client:
        """A client, logged in as ``username`` when given."""
        client = Client(self.app, self.listener)
        if username is not None:
            assert client.login(username).status_code == 200
        return client

    @staticmethod
    def advance(table_id: int) -> list[str]:
        """Let the dealer take every step due now (the clock is the test's)."""
        events = []
        while (step := dealer_steps.advance(table_id)) is not None:
            events.append(step.event)
        return events
