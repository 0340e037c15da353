"""One logged-in account speaking the public API: session login with the CSRF token, requests
retried on network errors with the same body (so the same ``request_id``: placing a bet and
deciding are idempotent by it), and server-sent event streams that reconnect as a browser's
EventSource does.

The session cookie is carried by hand, one per account, over one shared connection pool: the
pool serves thousands of accounts, and the cookie's ``Secure`` flag must not stop a loopback run.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import orjson

from .stats import Recorder

#: waits between retries of a request that met a network error (a restarting server)
BACKOFF = (0.2, 0.5, 1.0, 2.0, 2.0, 3.0)
REQUEST_TIMEOUT = aiohttp.ClientTimeout(total=60, sock_connect=10)
#: the server sends a keep-alive comment every 15 s; silence for longer means a dead stream
STREAM_TIMEOUT = aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=45)
NETWORK_ERRORS = (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError, asyncio.TimeoutError)


def connection_pool(size_hint: int) -> aiohttp.ClientSession:
    """One pool for every account; no shared cookie jar (each account carries its own cookie)."""
    connector = aiohttp.TCPConnector(limit=0, limit_per_host=0, ttl_dns_cache=None)
    return aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar(),
                                 read_bufsize=max(2 ** 20, size_hint))


def json_or_none(text: str) -> Any:
    try:
        return orjson.loads(text) if text else None
    except ValueError:
        return None


def classify(rec: Recorder, label: str, status: int, payload: Any) -> None:
    """Count a refused request under ``label``: a rule's refusal of a request that came after its
    window (409, R2/R8) as late, anything else of 4xx/5xx as an error by kind."""
    if status < 400:
        return
    message = ""
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict):
        # ids and amounts vary; the kind of refusal does not ("R2.3: N folded …")
        message = re.sub(r"(?<=\s)\d+(?:\.\d+)?", "N", str(payload["error"].get("message", "")))
    if status == 409 and message[:1] == "R":  # refused by a rule (R2, R8): the round had moved on
        rec.late[f"{label}: {message.split(';')[0][:70]}"] += 1
        return
    rec.errors[f"{status} {label}: {message[:70]}"] += 1


class ApiError(Exception):
    """A request that ended without a usable answer; ``status`` is None for a network failure."""

    def __init__(self, status: int | None, message: str) -> None:
        super().__init__(message)
        self.status = status


class Account:
    """A player's (or a watcher's) session with the server."""

    def __init__(self, pool: aiohttp.ClientSession, base_url: str, recorder: Recorder, username: str,
                 password: str, stream_url: str | None = None) -> None:
        self.pool, self.base, self.rec = pool, base_url.rstrip("/"), recorder
        #: where its event streams are opened (a server whose streams have workers of their own)
        self.stream_base = (stream_url or base_url).rstrip("/")
        self.username, self.password = username, password
        self.cookie = ""
        self.csrf = ""

    def _headers(self, state_changing: bool) -> dict[str, str]:
        headers = {"Accept": "application/json"}
        if self.cookie:
            headers["Cookie"] = f"session={self.cookie}"
        if state_changing and self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        return headers

    def _keep_cookie(self, response: aiohttp.ClientResponse) -> None:
        morsel = response.cookies.get("session")
        if morsel is not None:
            self.cookie = morsel.value

    async def call(self, method: str, path: str, label: str, body: dict[str, Any] | None = None, *,
                   until: float | None = None, record: bool = True,
                   expected: tuple[int, ...] = ()) -> tuple[int, Any]:
        """``(status, JSON body)``; network errors are retried with the same body while ``until``
        (wall clock) has not passed, then raise :class:`ApiError`. Every answer is timed under
        ``label``; 5xx and 4xx answers not in ``expected`` are counted as errors by kind."""
        for attempt, pause in enumerate((0.0, *BACKOFF)):
            if attempt and (until is not None and time.time() + pause >= until):
                break
            await asyncio.sleep(pause)
            started = time.time()
            try:
                async with self.pool.request(method, self.base + path, json=body, timeout=REQUEST_TIMEOUT,
                                             headers=self._headers(method != "GET")) as response:
                    payload = json_or_none(await response.text(errors="replace"))
                    self._keep_cookie(response)
                    if record:
                        self.rec.request(label, started, time.time() - started)
                    if response.status not in expected:
                        classify(self.rec, label, response.status, payload)
                    return response.status, payload
            except NETWORK_ERRORS as error:
                if record:
                    self.rec.retries[f"{label}: {type(error).__name__}"] += 1
        if record:
            self.rec.errors[f"{label}: no answer after retries (network)"] += 1
        raise ApiError(None, f"{label}: no answer")

    async def login(self) -> bool:
        """GET the CSRF token, then POST the credentials with it; False on a wrong password."""
        status, session = await self.call("GET", "/api/session", "GET /api/session")
        if status != 200:
            raise ApiError(status, "GET /api/session failed")
        self.csrf = session["csrf_token"]
        status, session = await self.call("POST", "/api/session", "POST /api/session",
                                          {"username": self.username, "password": self.password}, expected=(401,))
        if status == 401:
            return False
        if status != 200:
            raise ApiError(status, f"login of {self.username} refused")
        self.csrf = session["csrf_token"]
        return True

    async def stream(self, path: str, label: str, on_state: Callable[[dict[str, Any]], None],
                     stop: asyncio.Event) -> None:
        """Read ``event: state`` payloads from ``path`` until ``stop``; reconnect after the
        server's ``retry`` delay when the stream ends (it has a lifetime) or breaks. (The streams
        nobody reads are held by :mod:`.holders`, as bytes.)"""
        retry = 1.0
        while not stop.is_set():
            started = time.time()
            try:
                async with self.pool.get(self.stream_base + path, timeout=STREAM_TIMEOUT,
                                         headers={**self._headers(False), "Accept": "text/event-stream"}) as response:
                    if response.status != 200:
                        self.rec.request(label, started, time.time() - started)
                        classify(self.rec, label, response.status, json_or_none(await response.text(errors="replace")))
                    else:
                        retry = await self._read_events(response, label, started, on_state, stop) or retry
            except NETWORK_ERRORS as error:
                if not stop.is_set():
                    self.rec.retries[f"{label}: stream broke ({type(error).__name__})"] += 1
            if not stop.is_set():
                self.rec.stream_reconnects += 1
                try:
                    await asyncio.wait_for(stop.wait(), retry)
                except TimeoutError:
                    pass

    async def _read_events(self, response: aiohttp.ClientResponse, label: str, started: float,
                           on_state: Callable[[dict[str, Any]], None], stop: asyncio.Event) -> float | None:
        """Read one connection's events (``text/event-stream``), an event (its lines up to the
        blank one) at a time; returns the ``retry`` it set."""
        self.rec.streams_open += 1
        first, retry = True, None
        try:
            while not stop.is_set():
                block = await response.content.readuntil(b"\n\n")
                if not block.endswith(b"\n\n"):
                    return retry  # the stream ended
                event, data = "message", []
                for line in block.decode("utf-8").splitlines():
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "event":
                        event = value
                    elif name == "data":
                        data.append(value)
                    elif name == "retry" and value.isdigit():
                        retry = int(value) / 1000
                if event == "state" and data:
                    if first:
                        self.rec.request(label + " (first event)", started, time.time() - started)
                        self.rec.streams_live += 1
                        first = False
                    on_state(orjson.loads("\n".join(data)))
            return retry
        finally:
            self.rec.streams_open -= 1
            self.rec.streams_live -= not first
