"""The asynchronous fan-out (issue 10): an open stream is a queue, not a thread, and no stream
reads the database.

The process's one bus listener hands each published set of topics to :meth:`Fanout.notify` on the
event loop. A topic with subscribers is then rebuilt ONCE, in a worker thread (one transaction:
:func:`~casino_holdem.services.viewing.table_views` reads the table once and adds each
subscriber's own part, so the Dealer's cards stay hidden until showdown, R1), each distinct
payload is encoded once (:mod:`.wire`), and every subscriber's queue gets its own frame. A burst of
changes while a build runs is coalesced into one more build after it. A change only players' bets
and decisions made (:func:`~.publish.players_only`) waits up to :data:`PLAYERS_ONLY_SECONDS` for
the table's other bettors, who act in the same seconds: one build shows them all, and anything
else (the dealer's step, a stream joining) builds at once. When every build thread is busy, the
builds wait in :mod:`.build_order`'s order: the dealer's step and a stream joining first.

A new stream joins its topic (:meth:`~Fanout.join`) the same way: streams opened while a build runs
get their first state together from the next one (only theirs when nothing changed), so a
thousand pages opened at once cost a few reads, not a thousand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Flask

from .. import metrics
from ..services import viewing
from . import wire
from .build_order import FIRST, LATER, BuildOrder
from .bus import EVERYTHING, Bus
from .publish import LOBBY, players_named, players_only

log = logging.getLogger(__name__)
#: a subscriber this many states behind gets only the latest (a slow reader never grows memory)
QUEUE_SIZE = 4
#: the lobby changes with every table: it is rebuilt at most this often (issue 10: every player
#: holds a lobby stream, and at four frames a second their sends cost a web worker more than the
#: tables' own streams did)
LOBBY_COALESCE_SECONDS = 1.0
#: a table changes with each bet and decision, often several at once: rebuilt at most this often
TABLE_COALESCE_SECONDS = 0.1
#: how long a change only players' bets and decisions made waits for the others' (R2.1-R2.5; issue
#: 10: a table's twenty bettors each acting in a window cost a build each, twice the requests' CPU)
PLAYERS_ONLY_SECONDS = 1.0

Build = Callable[[viewing.Watchers], viewing.Views]
#: what one build gives: each viewer's frame, and the balances it read afresh
Built = tuple[dict[int, wire.Frame], dict[int, dict[str, str]]]


@dataclass(eq=False)
class Subscriber:
    """One open stream: whose it is, their currency and the newest balance read for them (by any
    of their streams' builds, :meth:`Fanout._share_balances`, with the event loop's time its build
    began), its queue, and (while it joins) the future of its first frame."""

    viewer: int
    currency: str
    balance: dict[str, str]
    balance_read_at: float = float("-inf")
    queue: asyncio.Queue[wire.Frame] = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    first: asyncio.Future[wire.Frame | None] | None = None

    def end(self) -> None:
        """End this stream at its next read (its session was revoked: the page reconnects and is
        refused; or its lifetime is over: the page reconnects)."""
        self._offer(wire.END)

    def keep_alive(self) -> None:
        """Have a quiet stream send a keep-alive comment, unless it already has something to send."""
        if self.queue.empty():
            self.queue.put_nowait(wire.QUIET)

    def push(self, frame: wire.Frame) -> None:
        if self.first is not None and not self.first.done():
            self.first.set_result(frame)
            return
        self._offer(frame)

    def _offer(self, frame: wire.Frame) -> None:
        """Queue ``frame``; a reader this far behind loses its oldest frame (memory stays bounded)."""
        if self.queue.full():
            self.queue.get_nowait()
        self.queue.put_nowait(frame)


@dataclass(eq=False)
class Topic:
    build: Build
    pause: float = 0.0
    subscribers: set[Subscriber] = field(default_factory=set)
    joining: set[Subscriber] = field(default_factory=set)
    dirty: bool = False
    #: viewers whose wallet moved since this topic's last build for them: it reads their balance
    moved: set[int] = field(default_factory=set)
    #: a change to show at once is waiting (not only players' bets and decisions), or a stream joins
    urgent: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    async def players_only_wait(self) -> None:
        """Wait for the other players' bets and decisions (module docstring), unless a change to
        show at once or a stream joining ends the wait."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(PLAYERS_ONLY_SECONDS):
                await self.urgent.wait()


def build_rank(name: str, topic: Topic) -> int:
    """How soon ``topic`` is built when the build threads are busy (:mod:`.build_order`): first
    for a stream opening (whose page waits for its first state) and for a table's change shown at
    once (the dealer's step: R2.2-R2.5 the cards that open a window, R8); later for other players'
    bets and decisions and for the lobby's changes."""
    return FIRST if topic.joining or (topic.urgent.is_set() and name != LOBBY) else LATER


class Fanout:
    """The streams of one process, by topic (module docstring)."""

    def __init__(self, app: Flask, bus: Bus, build_threads: int) -> None:
        self.app = app
        self.bus = bus
        self.order = BuildOrder(build_threads)
        self.topics: dict[str, Topic] = {}
        #: each viewer's open streams in this process and their topics: the balance a build read
        #: afresh for one of them (a table's build reads its bettors') is the one the others show
        #: next, the lobby's among them (its builds read only moved wallets: thousands of viewers
        #: each second), and a posting on their wallet has each of their topics read it
        self.viewers: dict[int, dict[Subscriber, str]] = {}
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
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop the streams of this process run on (once started)."""
        return self._loop

    @property
    def open_streams(self) -> int:
        return sum(len(topic.subscribers) for topic in self.topics.values())

    def _from_bus(self, topics: frozenset[str]) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.notify, topics)

    def notify(self, topics: frozenset[str]) -> None:
        """Schedule one build of each subscribed topic among ``topics`` (all of them for EVERYTHING),
        at once or, for a change only players made, after their wait; and of each topic a player
        whose wallet moved watches, which reads their balance (:func:`.publish.players_named`)."""
        for viewer in players_named(topics):
            for name in set(self.viewers.get(viewer, {}).values()):
                topic = self.topics.get(name)
                if topic is None:
                    continue
                topic.moved.add(viewer)
                topic.dirty = True
                self._schedule(name, topic)
        for name, topic in self.topics.items():
            if not topic.subscribers:
                continue
            if name in topics or EVERYTHING in topics:
                topic.urgent.set()
            elif players_only(name) not in topics:
                continue
            topic.dirty = True
            self._schedule(name, topic)

    def _schedule(self, name: str, topic: Topic) -> None:
        if topic.task is None:
            topic.task = asyncio.get_running_loop().create_task(self._rebuild(name, topic))

    async def _rebuild(self, name: str, topic: Topic) -> None:
        try:
            while (topic.dirty or topic.joining) and topic.subscribers:
                if not topic.urgent.is_set():
                    await topic.players_only_wait()
                    if not topic.subscribers:
                        break
                async with self.order.slot(lambda: build_rank(name, topic)):
                    topic.urgent.clear()
                    everyone, topic.dirty = topic.dirty, False
                    joining, topic.joining = topic.joining, set()
                    targets = list(topic.subscribers) if everyone else [s for s in joining if s in topic.subscribers]
                    moved = topic.moved & {s.viewer for s in targets}
                    topic.moved -= moved
                    watchers: viewing.Watchers = {
                        s.viewer: (s.currency, None if s.viewer in moved else s.balance) for s in targets}
                    began = asyncio.get_running_loop().time()
                    try:
                        frames, read = await asyncio.to_thread(self._in_app, topic.build, watchers)
                    except Exception as error:
                        self._refuse(name, joining, error)
                        topic.moved |= moved
                        frames, read = {}, {}
                metrics.STATE_BUILDS.labels(LOBBY if name == LOBBY else "table").inc()
                self._share_balances(read, began)
                for subscriber in targets:
                    if subscriber.viewer in frames:
                        subscriber.push(frames[subscriber.viewer])
                    elif subscriber.first is not None and not subscriber.first.done():
                        subscriber.first.set_result(None)  # the build left them out: not theirs to see
                if topic.pause:
                    await asyncio.sleep(topic.pause)
        finally:
            topic.task = None
            if not topic.subscribers and self.topics.get(name) is topic:
                del self.topics[name]

    def _share_balances(self, read: dict[int, dict[str, str]], began: float) -> None:
        """Each viewer's streams take the balance this build read for them, unless a build that
        began later read theirs already (two builds may run at once)."""
        for viewer, balance in read.items():
            for subscriber in self.viewers.get(viewer, ()):
                if subscriber.balance_read_at < began:
                    subscriber.balance, subscriber.balance_read_at = balance, began

    @staticmethod
    def _refuse(name: str, joining: set[Subscriber], error: Exception) -> None:
        """A failed build: joining streams are answered with the error; the open ones keep their state."""
        waiting = [s.first for s in joining if s.first is not None and not s.first.done()]
        if not waiting:
            log.error("building %s failed", name, exc_info=error)
        for first in waiting:
            first.set_exception(error)

    def _in_app(self, build: Build, watchers: viewing.Watchers) -> Built:
        with self.app.app_context():
            views = build(watchers)
        memo = wire.Memo()
        return {viewer: wire.frame(view, memo) for viewer, view in views.by_viewer.items()}, views.read

    def subscribe(self, name: str, subscriber: Subscriber) -> Callable[[], None]:
        """Add a stream to ``name`` ("lobby" or "table:N"); returns the function that removes it."""
        topic = self.topics.get(name)
        if topic is None:
            topic = self.topics[name] = self._topic(name)
        topic.subscribers.add(subscriber)
        self.viewers.setdefault(subscriber.viewer, {})[subscriber] = name

        def remove() -> None:
            topic.subscribers.discard(subscriber)
            topic.joining.discard(subscriber)
            streams = self.viewers.get(subscriber.viewer)
            if streams is not None:
                streams.pop(subscriber, None)
                if not streams:
                    del self.viewers[subscriber.viewer]
            if not topic.subscribers and topic.task is None:
                self.topics.pop(name, None)

        return remove

    async def join(self, name: str, subscriber: Subscriber) -> tuple[wire.Frame | None, Callable[[], None]]:
        """Subscribe to ``name`` and wait for the first frame, built with the other streams joining
        meanwhile; None when the build leaves this viewer out (a currency the table does not take).
        The second value removes the subscription; a failed build's error is raised, unsubscribed."""
        subscriber.first = asyncio.get_running_loop().create_future()
        remove = self.subscribe(name, subscriber)
        self.topics[name].joining.add(subscriber)
        self.topics[name].urgent.set()
        self._schedule(name, self.topics[name])
        try:
            first = await subscriber.first
        except BaseException:
            remove()
            raise
        subscriber.first = None
        if first is None:
            remove()
        return first, remove

    @staticmethod
    def _topic(name: str) -> Topic:
        if name == LOBBY:
            return Topic(viewing.lobby_views, LOBBY_COALESCE_SECONDS)
        table_id = int(name.split(":", 1)[1])
        return Topic(lambda watchers: viewing.table_views(table_id, watchers), TABLE_COALESCE_SECONDS)
