"""The production web application (issue 10): an ASGI app that serves the live event streams
natively — an open stream costs a queue, not a thread — and hands every other request to the
Flask app (``a2wsgi``'s thread pool). Run it with ``casino-holdem serve --production`` (uvicorn).

- ``/events/lobby`` and ``/events/tables/{id}``: the same paths and wire format as the Flask
  streams (:mod:`casino_holdem.events.wire`), fed by :class:`~casino_holdem.events.fanout.Fanout`
  and served ahead of every middleware, as bare ASGI responses (:class:`Front`, :class:`_Stream`).
  The session cookie is read with Flask's own session serializer, so the player is the one the
  Flask app sees. Open streams are capped per session and per client address
  (``CASINO_STREAMS_PER_SESSION``, ``CASINO_STREAMS_PER_ADDRESS``; 429 beyond).
- ``/healthz`` (the process answers) and ``/readyz`` (the database and the bus answer);
  ``/metrics`` (Prometheus, :mod:`casino_holdem.metrics`), with each request's latency per endpoint.
- A database outage is 503 with ``Retry-After`` here too (:mod:`casino_holdem.web.errors`).
- Every other request waits for one of the Flask app's threads in arrival order, or newest first
  once the oldest has waited too long (:mod:`casino_holdem.request_queue`).
- Behind ``CASINO_TRUSTED_PROXIES`` reverse proxies, the Flask app reads the client's address,
  scheme and host from their ``X-Forwarded-*`` headers (werkzeug's ProxyFix).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from a2wsgi import WSGIMiddleware
from flask import Flask
from itsdangerous import BadSignature
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from werkzeug.middleware.proxy_fix import ProxyFix

from . import collector, metrics
from .core.hand_classes import lookup_tables
from .events import LOBBY, bus_of, table_topic, wire
from .events.admission import admitter, live_sessions
from .events.fanout import Fanout, Subscriber
from .extensions import db
from .request_queue import Queued, RequestQueue
from .services.errors import NotFound, Unprocessable
from .web.errors import OUTAGE_MESSAGE, OUTAGE_RETRY_AFTER, OUTAGES
from .web.inputs import MAX_ID
from .web.security import TOKEN_FIELD

log = logging.getLogger(__name__)
#: how often the sessions of the open streams are checked (a revoked session's streams end)
SESSION_RECHECK_SECONDS = 30.0
#: a stream lives between this share of ``CASINO_SSE_LIFETIME`` and all of it
LIFETIME_SPREAD = 0.75
#: how often the open streams are looked at for a keep-alive to send or a lifetime that is over
#: (:meth:`Streams.keep_quiet`): a keep-alive goes out up to this late, a stream ends up to this late
TICK_SECONDS = 2.0
#: threads that build and encode the streams' states (see serve_requests_first), taken in
#: :mod:`casino_holdem.events.build_order`'s order. One: at the target size a second build thread
#: took the interpreter from the requests and built no more states (README, *Deploying*)
BUILD_THREADS = 1
#: threads for the loop's other blocking reads (admitting streams, their sessions' recheck,
#: ``/readyz``, ``/metrics``): a probe never waits behind a build
OTHER_THREADS = 1
#: the threads each worker runs the Flask app on; a request beyond them waits in a
#: :class:`~casino_holdem.request_queue.RequestQueue` (newest first once the oldest waited too long)
REQUEST_THREADS = 10
#: the event streams' paths (the lobby's, a table's with its id), served by :class:`Streams`
STREAM_PATH = re.compile(r"/events/(lobby|tables/([0-9]+))")
STREAM_HEADERS = [(b"content-type", f"{wire.MEDIA_TYPE}; charset=utf-8".encode()),
                  *((name.lower().encode(), value.encode()) for name, value in wire.HEADERS.items())]
KEEPALIVE_BODY = {"type": "http.response.body", "body": wire.KEEPALIVE, "more_body": True}
#: seconds a thread runs before the interpreter hands over (Python's default is 0.005)
SWITCH_INTERVAL = 0.001


def _error(status: int, code: str, message: str, field: str | None = None,
           headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "field": field}}, status_code=status,
                        headers=headers)


async def _outage(_request: Request, error: Exception) -> Response:
    """A request the ASGI app serves itself (``/readyz``, ``/metrics``) while the database is away."""
    return _unavailable(error)


def _unavailable(error: Exception) -> Response:
    """A stream asked for while the database is away: 503 and Retry-After, as the Flask app says."""
    log.warning("database unavailable: %s", error.__class__.__name__)
    response = _error(503, "service_unavailable", OUTAGE_MESSAGE, "database")
    response.headers["Retry-After"] = str(OUTAGE_RETRY_AFTER)
    return response


def _release(counter: Counter[str], key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


class _Stream:
    """One open event stream, sent as a bare ASGI response (issue 10): no middleware and no
    response class between its queue and the server, so a stream holds a few objects for the
    collector to walk, not ~190, and a frame is one call to ``send``. The state events from the
    subscriber's queue (a frame the same as the last one sent is skipped) until its session is
    revoked or its lifetime is over (:data:`~.events.wire.END`) or the client goes; then
    ``closed`` gives back what it holds (its subscription, its place under the caps), however it
    ends. A stream waits on its queue alone, with no timer of its own: the process's
    :meth:`Streams.keep_quiet` tells a quiet one to send a keep-alive and an old one to end
    (issue 10: a timer set and cancelled for every frame cost a third more than the frame's wait)."""

    __slots__ = ("subscriber", "first", "ends", "sent_at", "open", "closed")
    status_code = 200

    def __init__(self, subscriber: Subscriber, first: wire.Frame, lifetime: float, open_streams: set[_Stream],
                 closed: Callable[[], None]) -> None:
        self.subscriber = subscriber
        self.first = first
        now = asyncio.get_running_loop().time()
        #: the loop's clock when the stream is to end, and when it last sent anything
        self.ends = now + lifetime
        self.sent_at = now
        self.open = open_streams
        self.closed = closed

    async def __call__(self, _scope: Any, receive: Any, send: Any) -> None:
        gone = asyncio.get_running_loop().create_task(self._until_gone(receive))
        self.open.add(self)
        try:
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            await self._events(send)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.open.discard(self)
            gone.cancel()
            self.closed()

    async def _until_gone(self, receive: Any) -> None:
        """The client went away (the server says so on ``receive``): end the stream at once."""
        while (await receive())["type"] != "http.disconnect":
            pass
        self.subscriber.end()

    async def _events(self, send: Any) -> None:
        sent = self.first
        await send({"type": "http.response.body", "body": wire.RETRY + sent.body, "more_body": True})
        loop = asyncio.get_running_loop()
        while (latest := await self.subscriber.queue.get()) is not wire.END:
            if latest is wire.QUIET:
                await send(KEEPALIVE_BODY)
            elif latest.key != sent.key:
                sent = latest
                await send({"type": "http.response.body", "body": sent.body, "more_body": True})
            else:
                continue
            self.sent_at = loop.time()

    def tick(self, now: float) -> None:
        """:meth:`Streams.keep_quiet`'s look at this stream at the loop's time ``now``."""
        if now >= self.ends:
            self.subscriber.end()
        elif now - self.sent_at >= wire.KEEPALIVE_SECONDS:
            self.subscriber.keep_alive()


class Streams:
    """The event-stream endpoints of one process, with their caps."""

    def __init__(self, app: Flask, fanout: Fanout) -> None:
        self.app = app
        self.fanout = fanout
        self.serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        self.admitter = admitter(app)
        self.per_session: Counter[str] = Counter()
        self.per_address: Counter[str] = Counter()
        self.by_session: dict[str, set[Subscriber]] = defaultdict(set)
        self.open: set[_Stream] = set()

    async def keep_quiet(self) -> None:
        """Every :data:`TICK_SECONDS` (or a quarter of the keep-alive's interval, when shorter),
        each open stream that sent nothing for :data:`~.events.wire.KEEPALIVE_SECONDS` is told to
        send a keep-alive comment, so proxies keep it open, and each whose lifetime is over to end."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(TICK_SECONDS, wire.KEEPALIVE_SECONDS / 4))
            now = loop.time()
            for stream in self.open:
                stream.tick(now)

    async def recheck_sessions(self) -> None:
        """Every :data:`SESSION_RECHECK_SECONDS`, :meth:`recheck` the open streams' sessions: a
        stream lives long, but a revoked cookie's stream does not."""
        while True:
            await asyncio.sleep(SESSION_RECHECK_SECONDS)
            await self.recheck()

    async def recheck(self) -> None:
        """End the open streams whose session is no longer live (logged out, its password changed,
        idle), every session checked in one read; during an outage they go on until the next check."""
        tokens = [token for token, subscribers in self.by_session.items() if subscribers]
        if not tokens:
            return
        try:
            live = await asyncio.to_thread(live_sessions, self.app, tokens)
        except Exception as error:
            log.warning("sessions not rechecked: %s", error.__class__.__name__)
            return
        for token in tokens:
            if token not in live:
                for subscriber in list(self.by_session.get(token, ())):
                    subscriber.end()

    def _token(self, request: Request) -> str | None:
        """The signed cookie's session token, as the Flask app would read it (no database yet)."""
        cookie = request.cookies.get(self.app.config["SESSION_COOKIE_NAME"])
        if not cookie or self.serializer is None:
            return None
        try:
            session = self.serializer.loads(cookie, max_age=int(self.app.permanent_session_lifetime.total_seconds()))
        except BadSignature:
            return None
        token = session.get(TOKEN_FIELD)
        return token if isinstance(token, str) else None

    async def serve(self, scope: Any, receive: Any, send: Any, table: str | None) -> None:
        """The ASGI app of :data:`STREAM_PATH` (``table``: the id in the path, None for the
        lobby's), ahead of every middleware (:class:`Front`): the request's latency (to its first
        frame, or its refusal) is observed as :class:`Timing` would, and a database outage is a
        503 as everywhere else."""
        started = time.perf_counter()
        try:
            answer = await self._answer(Request(scope), table)
        except OUTAGES as error:
            answer = _unavailable(error)
        _observe(scope, answer.status_code, started)
        await answer(scope, receive, send)

    async def _answer(self, request: Request, table: str | None) -> Response | _Stream:
        if request.method != "GET":
            return _error(405, "method", f"method: {request.method} is not allowed here; use GET", "method",
                          {"Allow": "GET"})
        if table is None:
            return await self._stream(request, LOBBY)
        # no int() of thousands of digits (Python refuses it, and that would be a 500): longer than any id is none
        if len(table) > len(str(MAX_ID)) or (table_id := int(table)) > MAX_ID:
            return _error(404, "not_found", f"table {table[:len(str(MAX_ID)) + 1]} not found")
        return await self._stream(request, table_topic(table_id), table_id)

    async def _stream(self, request: Request, topic: str, table_id: int | None = None) -> Response | _Stream:
        token = self._token(request)
        address = request.client.host if request.client else "-"
        if token is None:
            return _error(401, "session", "session: log in first", "session")
        # the caps are taken before anything is awaited, so streams opened at once cannot all pass
        if (self.per_session[token] >= self.app.config["CASINO_STREAMS_PER_SESSION"]
                or self.per_address[address] >= self.app.config["CASINO_STREAMS_PER_ADDRESS"]):
            return _error(429, "streams", "streams: too many open event streams; close one first", "streams")
        self.per_session[token] += 1
        self.per_address[address] += 1
        try:
            return await self._admitted(token, topic, table_id, lambda: self._release(token, address))
        except BaseException:
            self._release(token, address)
            raise

    def _release(self, token: str, address: str) -> None:
        _release(self.per_session, token)
        _release(self.per_address, address)

    async def _admitted(self, token: str, topic: str, table_id: int | None, release: Any) -> Response | _Stream:
        viewer = await self.admitter.get(token)  # a revoked or idle session, or an operator's, is no player
        if viewer is None:
            release()
            return _error(401, "session", "session: log in first", "session")
        subscriber = Subscriber(viewer.player_id, viewer.currency, viewer.balance)
        try:
            first, remove = await self.fanout.join(topic, subscriber)
        except NotFound as error:
            release()
            return _error(404, "not_found", str(error))
        if first is None:
            release()
            refusal = Unprocessable(f"currency: table {table_id} does not take {viewer.currency} (R6)", "currency")
            return _error(422, "currency", str(refusal), "currency")
        metrics.STREAMS.inc()
        self.by_session[token].add(subscriber)
        # streams opened together (a restart, a proxy reconnecting everyone) end apart, not together
        lifetime = float(self.app.config["CASINO_SSE_LIFETIME"]) * random.uniform(LIFETIME_SPREAD, 1.0)

        def closed() -> None:
            remove()
            metrics.STREAMS.dec()
            release()
            self.by_session[token].discard(subscriber)
            if not self.by_session[token]:
                del self.by_session[token]

        return _Stream(subscriber, first, lifetime, self.open, closed)

    def _in_app(self, function: Any, *args: Any) -> Any:
        with self.app.app_context():
            return function(*args)


def _ready(app: Flask) -> None:
    with app.app_context():
        db.session.execute(text("SELECT 1"))
        db.session.rollback()
        bus_of(app).ping()


class Front:
    """The outermost ASGI app: a request for an event stream (:data:`STREAM_PATH`) goes straight
    to :meth:`Streams.serve`, so an open stream holds none of the middleware's and router's frames
    (issue 10: thousands a worker, walked by the garbage collector, and each frame sent through
    every layer); every other request, and the lifespan, to ``rest``."""

    def __init__(self, streams: Streams, rest: Any) -> None:
        self.streams = streams
        self.rest = rest

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and (match := STREAM_PATH.fullmatch(scope["path"])):
            await self.streams.serve(scope, receive, send, match[2])
        else:
            await self.rest(scope, receive, send)


class Timing:
    """ASGI middleware: each HTTP request's latency, labelled by its endpoint (the route, or the
    first path segment for the Flask app's pages, so ids never make new label values)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                _observe(scope, message["status"], started)
            await send(message)

        await self.app(scope, receive, sending)


def _observe(scope: Any, status: int, started: float) -> None:
    """A request's latency to its response's start, labelled by its endpoint (:class:`Timing`)."""
    metrics.REQUESTS.labels(scope["method"], _endpoint(scope["path"]), str(status)).observe(
        time.perf_counter() - started)


def _endpoint(path: str) -> str:
    """``/api/tables/7/bets`` → ``/api/tables/{id}/bets``."""
    return "/".join("{id}" if part.isdigit() else part for part in path.split("/")[:5])


def serve_requests_first() -> None:
    """Keep a request that holds row locks from waiting on the process's own CPU-bound work.

    A bet or a decision holds its table's row lock through some twenty round trips to the
    database, and each one gives up the interpreter lock and waits to take it back. While the
    fan-out encodes states for thousands of streams, a thread waits up to the switch interval (5 ms
    by default) per round trip, so a lock held for milliseconds was held for seconds and the
    table's other bets queued behind it (measured: bets idle in transaction 5 s under 7,000
    streams). Here the states are built by at most :data:`BUILD_THREADS` threads of the loop's
    default executor (:data:`OTHER_THREADS` more for its other reads), and the interpreter
    switches every millisecond."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    asyncio.get_running_loop().set_default_executor(
        ThreadPoolExecutor(max_workers=BUILD_THREADS + OTHER_THREADS, thread_name_prefix="casino-build"))


def production() -> Any:
    """uvicorn's factory in ``casino-holdem serve --production``: :func:`create_asgi` for a web
    worker process, whose garbage collector is tuned once it has loaded what it keeps
    (:func:`casino_holdem.collector.settle`)."""
    return create_asgi(settle=True)


def create_asgi(app: Flask | None = None, *, settle: bool = False) -> Any:
    """The ASGI application around ``app`` (a fresh :func:`casino_holdem.create_app` by default);
    ``settle``: this process is the app's own (a production worker), so its garbage collector is
    tuned at startup (:mod:`casino_holdem.collector`), not in a process that runs it beside others."""
    if app is None:
        from . import create_app

        app = create_app()
    metrics.register()
    proxies = int(app.config.get("CASINO_TRUSTED_PROXIES") or 0)
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
    fanout = Fanout(app, bus_of(app), BUILD_THREADS)
    streams = Streams(app, fanout)

    async def healthz(_request: Request) -> Response:
        return PlainTextResponse("ok")

    async def readyz(_request: Request) -> Response:
        try:
            await asyncio.to_thread(_ready, app)
        except Exception as error:
            log.warning("not ready: %s", error.__class__.__name__)
            return _error(503, "not_ready", f"not ready: {error.__class__.__name__}")
        return PlainTextResponse("ready")

    @contextlib.asynccontextmanager
    async def lifespan(_asgi: Starlette) -> AsyncIterator[None]:
        serve_requests_first()
        await asyncio.to_thread(lookup_tables)  # built before the first request, not inside its build
        if settle:
            collector.settle()  # after the tables: they are kept for the process's life
        fanout.start()
        rechecking = asyncio.create_task(streams.recheck_sessions())
        ticking = asyncio.create_task(streams.keep_quiet())
        try:
            yield
        finally:
            rechecking.cancel()
            ticking.cancel()
            fanout.stop()

    async def prometheus(_request: Request) -> Response:
        body = await asyncio.to_thread(streams._in_app, lambda: metrics.exposition(db.session()))
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    routes = [Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", prometheus),
              # a2wsgi's and starlette's hints describe WSGI and ASGI callables differently from Flask's
              Mount("/", Queued(WSGIMiddleware(app, workers=REQUEST_THREADS),  # type: ignore[arg-type]
                                RequestQueue(REQUEST_THREADS)))]
    asgi = Starlette(routes=routes, lifespan=lifespan, exception_handlers=dict.fromkeys(OUTAGES, _outage))
    asgi.state.fanout = fanout
    asgi.state.streams = streams
    front = Front(streams, Timing(asgi))
    front.state = asgi.state  # type: ignore[attr-defined]
    return front
