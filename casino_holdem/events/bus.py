"""The bus: topics ("table:7", "lobby") published after a commit and delivered to every process.

One interface, three backends, chosen by :func:`install` from the settings:

- :class:`RedisBus` when ``CASINO_REDIS_URL`` is set (several hosts, any database);
- :class:`PostgresBus` (LISTEN/NOTIFY) when the database is PostgreSQL;
- :class:`LocalBus` otherwise: the SQLite demo runs the web app and the dealer in one process.

Each process keeps ONE listening connection (a daemon thread, started by the first
:meth:`Bus.subscribe`) and hands every message to the process's subscribers. When the listening
connection is lost and comes back, subscribers get :data:`EVERYTHING`: whatever changed meanwhile
is rebuilt, so nothing is missed for good.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, current_app

from .. import settings

log = logging.getLogger(__name__)
CHANNEL = "casino_events"
#: the topic delivered after a reconnection: every subscriber rebuilds
EVERYTHING = "*"
RECONNECT_SECONDS = 1.0
EXTENSION = "casino_bus"
#: the longest NOTIFY payload sent (PostgreSQL refuses 8,000 bytes and more; topics are ASCII)
NOTIFY_LIMIT = 7900

Deliver = Callable[[frozenset[str]], None]


class Bus:
    """Publish topics; subscribe a callback that receives each published set of topics (called on
    the listener's thread: keep it short and thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Deliver] = []
        self._listener: threading.Thread | None = None
        self.stop = threading.Event()

    def publish(self, topics: Iterable[str]) -> None:
        raise NotImplementedError

    def ping(self) -> None:
        """Raise when the bus cannot be reached (``/readyz``)."""

    def subscribe(self, deliver: Deliver) -> Callable[[], None]:
        """Add ``deliver``; returns the function that removes it."""
        with self._lock:
            self._subscribers.append(deliver)
            if self._listener is None and self._needs_listener():
                self._listener = threading.Thread(target=self._listen_forever, name="casino-bus", daemon=True)
                self._listener.start()
        return lambda: self._unsubscribe(deliver)

    def close(self) -> None:
        self.stop.set()

    def deliver(self, topics: frozenset[str]) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            try:
                subscriber(topics)
            except Exception:  # one broken subscriber must not starve the others
                log.exception("event subscriber failed")

    def _unsubscribe(self, deliver: Deliver) -> None:
        with self._lock:
            if deliver in self._subscribers:
                self._subscribers.remove(deliver)

    def _needs_listener(self) -> bool:
        return True

    def _listen(self) -> None:
        raise NotImplementedError

    def _listen_forever(self) -> None:
        first = True
        while not self.stop.is_set():
            try:
                if not first:
                    self.deliver(frozenset({EVERYTHING}))
                first = False
                self._listen()
            except Exception as error:  # the server went away: wait, reconnect, rebuild everything
                log.warning("event bus listener lost its connection (%s); reconnecting", error.__class__.__name__)
                self.stop.wait(RECONNECT_SECONDS)


def encode(topics: Iterable[str]) -> str:
    return " ".join(sorted(set(topics)))


def messages(topics: Iterable[str], limit: int) -> list[str]:
    """``topics`` encoded as messages of at most ``limit`` characters each (a settlement of a
    full table names every bettor's wallet; PostgreSQL's NOTIFY takes under 8,000 bytes)."""
    chunks: list[list[str]] = [[]]
    size = 0
    for topic in sorted(set(topics)):
        if chunks[-1] and size + 1 + len(topic) > limit:
            chunks.append([])
            size = 0
        size += len(topic) + (1 if chunks[-1] else 0)
        chunks[-1].append(topic)
    return [" ".join(chunk) for chunk in chunks if chunk]


def decode(message: str | bytes) -> frozenset[str]:
    text = message.decode() if isinstance(message, bytes) else message
    return frozenset(text.split())


class LocalBus(Bus):
    """One process: publishing delivers at once, on the publishing thread."""

    def publish(self, topics: Iterable[str]) -> None:
        self.deliver(frozenset(topics))

    def _needs_listener(self) -> bool:
        return False


class RedisBus(Bus):
    """Redis pub/sub on one channel."""

    def __init__(self, url: str) -> None:
        import redis

        super().__init__()
        self._redis = redis.Redis.from_url(url, socket_connect_timeout=5, health_check_interval=30)

    def publish(self, topics: Iterable[str]) -> None:
        self._redis.publish(CHANNEL, encode(topics))

    def ping(self) -> None:
        self._redis.ping()

    def _listen(self) -> None:
        pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(CHANNEL)
            while not self.stop.is_set():
                message = pubsub.get_message(timeout=1.0)
                if message is not None and message["type"] == "message":
                    self.deliver(decode(message["data"]))
        finally:
            pubsub.close()


class PostgresBus(Bus):
    """PostgreSQL LISTEN/NOTIFY on one channel; ``url`` is a libpq URL (no ``+psycopg``)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self._url = url
        self._publisher: Any = None
        self._publish_lock = threading.Lock()

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(self._url, autocommit=True, connect_timeout=5)

    def publish(self, topics: Iterable[str]) -> None:
        with self._publish_lock:
            for attempt in (1, 2):  # a publisher connection cut by a restart is opened again once
                try:
                    if self._publisher is None or self._publisher.closed:
                        self._publisher = self._connect()
                    for message in messages(topics, NOTIFY_LIMIT):
                        self._publisher.execute("SELECT pg_notify(%s, %s)", (CHANNEL, message))
                    return
                except Exception:
                    self._publisher = None
                    if attempt == 2:
                        raise

    def ping(self) -> None:
        with self._connect() as connection:
            connection.execute("SELECT 1")

    def _listen(self) -> None:
        with self._connect() as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            while not self.stop.is_set():
                for notify in connection.notifies(timeout=1.0):
                    self.deliver(decode(notify.payload))


def make_bus(database_url: str) -> Bus:
    """The backend the settings and the database call for (module docstring)."""
    redis_url: str | None = settings.value("CASINO_REDIS_URL")
    if redis_url:
        return RedisBus(redis_url)
    if database_url.startswith("postgresql"):
        return PostgresBus(database_url.replace("postgresql+psycopg://", "postgresql://", 1))
    return LocalBus()


def install(app: Flask, bus: Bus | None = None) -> Bus:
    """Give ``app`` its bus (one per app; made from the settings unless given)."""
    chosen = bus or make_bus(app.config["SQLALCHEMY_DATABASE_URI"])
    app.extensions[EXTENSION] = chosen
    return chosen


def bus_of(app: Flask | None = None) -> Bus:
    """The app's bus (the current app's by default)."""
    return (app or current_app).extensions[EXTENSION]  # type: ignore[no-any-return]
