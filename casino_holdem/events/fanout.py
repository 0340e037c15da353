"""The asynchronous fan-out (issue 10): an open stream is a queue, not a thread, and no stream
reads the database.

The process's one bus listener hands each published set of topics to :meth:`Fanout.notify` on the
event loop. A topic with subscribers is then rebuilt ONCE, in a worker thread (one transaction:
:func:`~casino_holdem.services.viewing.table_views` reads the table once and adds each
subscriber's own part, so the Dealer's cards stay hidden until showdown, R1), and every
subscriber's queue gets its own payload. A burst of changes while a build runs is coalesced into
one more build after it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask

from ..services import viewing
from .bus import EVERYTHING, Bus
from .publish import LOBBY

log = logging.getLogger(__name__)
#: a subscriber this many states behind gets only the latest (a slow reader never grows memory)
QUEUE_SIZE = 4
#: the lobby changes with every table: it is rebuilt at most this often
LOBBY_COALESCE_SECONDS = 0.25

Build = Callable[[viewing.Watchers], dict[int, dict[str, Any]]]


@dataclass(eq=False)
class Subscriber:
    """One open stream: whose it is, their currency and last balance sent, and its queue."""

    viewer: int
    currency: str
    balance: dict[str, str]
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))

    def push(self, payload: dict[str, Any]) -> None:
        self.balance = payload.get("balance", self.balance)
        if self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(payload)


@dataclass(eq=False)
class Topic:
    build: Build
    pause: float = 0.0
    subscribers: set[Subscriber] = field(default_factory=set)
    dirty: bool = False
    task: asyncio.Task[None] | None = None


class Fanout:
    """The streams of one process, by topic (module docstring)."""

    def __init__(self, app: Flask, bus: Bus) -> None:
        self.app = app
        self.bus = bus
        self.topics: dict[str, Topic] = {}
        self.builds = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        """Listen on the bus (call from the event loop)."""
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = self.bus.subscribe(self._from_bus)

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for topic in self.topics.values():
            if topic.task is not None:
                topic.task.cancel()

    @property
    def open_streams(self) -> int:
        return sum(len(topic.subscribers) for topic in self.topics.values())

    def _from_bus(self, topics: frozenset[str]) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.notify, topics)

    def notify(self, topics: frozenset[str]) -> None:
        """Schedule one build of each subscribed topic among ``topics`` (all of them for EVERYTHING)."""
        for name, topic in self.topics.items():
            if (name in topics or EVERYTHING in topics) and topic.subscribers:
                topic.dirty = True
                if topic.task is None:
                    topic.task = asyncio.get_running_loop().create_task(self._rebuild(name, topic))

    async def _rebuild(self, name: str, topic: Topic) -> None:
        try:
            while topic.dirty and topic.subscribers:
                topic.dirty = False
                subscribers = list(topic.subscribers)
                watchers = {s.viewer: (s.currency, s.balance) for s in subscribers}
                try:
                    views = await asyncio.to_thread(self._in_app, topic.build, watchers)
                except Exception:
                    log.exception("building %s failed", name)
                    views = {}
                self.builds += 1
                for subscriber in subscribers:
                    if subscriber.viewer in views:
                        subscriber.push(views[subscriber.viewer])
                if topic.pause:
                    await asyncio.sleep(topic.pause)
        finally:
            topic.task = None

    def _in_app(self, build: Build, watchers: viewing.Watchers) -> dict[int, dict[str, Any]]:
        with self.app.app_context():
            return build(watchers)

    def subscribe(self, name: str, subscriber: Subscriber) -> Callable[[], None]:
        """Add a stream to ``name`` ("lobby" or "table:N"); returns the function that removes it."""
        topic = self.topics.get(name)
        if topic is None:
            topic = self.topics[name] = self._topic(name)
        topic.subscribers.add(subscriber)

        def remove() -> None:
            topic.subscribers.discard(subscriber)
            if not topic.subscribers and topic.task is None:
                self.topics.pop(name, None)

        return remove

    @staticmethod
    def _topic(name: str) -> Topic:
        if name == LOBBY:
            return Topic(viewing.lobby_views, LOBBY_COALESCE_SECONDS)
        table_id = int(name.split(":", 1)[1])
        return Topic(lambda watchers: viewing.table_views(table_id, watchers))
