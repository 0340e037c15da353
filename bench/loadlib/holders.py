"""The streams nobody in the run reads, held in a process of their own.

The idle watchers' streams and the players' lobby streams are only held open and counted (issue 10:
"5,000 open event streams held during that load"); the players' table streams drive their bets and
decisions and stay with them. Held in the players' process, those thousands of streams took its
event loop for a burst after every lobby frame (measured at the target size: the loop lag p95
73 ms, p99 379 ms), and every request answered during a burst was timed that much late: the
client's own lag, not the server's. In their own process, as in a casino where each browser is its
own, they cost the machine the same, and the players' timings are the server's.

:class:`Holders` is the players' side: it starts the process (``spawn``: no copy of the players'
event loop or connections), reads the counts it publishes while it runs, and at the end merges what
it recorded (the streams' first events, errors, retries, its own loop lag) into the run's
:class:`~.stats.Recorder`.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import queue
import re
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

from .client import classify, json_or_none
from .stats import Recorder

#: the counts the holders publish, by index
OPEN, LIVE, RECONNECTS = 0, 1, 2
#: how often the holders publish their counts and sample their loop's lag
SAMPLE_EVERY = 0.5
#: how long the players' side waits for the holders' record after asking them to stop
COLLECT_CEILING = 60.0
#: a stream's first ``state`` event has come whole
EVENT_END = re.compile(rb"event: state\r?\ndata: [^\r\n]*\r?\n\r?\n")
#: the wait before a stream that ended or broke is opened again (the server's ``retry``)
RETRY = 1.0
#: a stream that sent nothing for this long is broken (the server's keep-alive comes every 15 s)
SILENCE = 45.0
CONNECT_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class Spec:
    """One stream to hold: whose session, which path, and the label its first event is timed under."""

    cookie: str
    path: str
    label: str


class Holders:
    """The process holding the streams of ``specs`` (module docstring), opened ``ramp`` a second."""

    def __init__(self, base_url: str, specs: list[Spec], ramp: float) -> None:
        context = multiprocessing.get_context("spawn")
        self.counts = context.Array("q", 3, lock=False)
        self._stop = context.Event()
        self._record: multiprocessing.Queue[dict[str, Any]] = context.Queue()
        self.process = context.Process(target=_hold, args=(base_url, specs, ramp, self.counts, self._stop,
                                                           self._record), name="bench stream holders", daemon=True)

    def start(self) -> None:
        self.process.start()

    @property
    def pids(self) -> list[int]:
        return [self.process.pid] if self.process.pid is not None and self.process.is_alive() else []

    @property
    def open(self) -> int:
        return int(self.counts[OPEN])

    @property
    def live(self) -> int:
        return int(self.counts[LIVE])

    async def finish(self, rec: Recorder) -> None:
        """Stop the holders and merge what they recorded into ``rec``; a holder that does not answer
        within :data:`COLLECT_CEILING` is an error of the run, counted as such."""
        self._stop.set()
        try:
            record = await asyncio.to_thread(self._record.get, True, COLLECT_CEILING)
        except queue.Empty:
            rec.errors["stream holders: no record (the process did not answer)"] += 1
            record = None
        await asyncio.to_thread(self.process.join, COLLECT_CEILING)
        if self.process.is_alive():
            self.process.kill()
        if record is not None:
            merge(rec, record)


def merge(rec: Recorder, record: dict[str, Any]) -> None:
    """Add the holders' ``record`` to the players' recorder."""
    for label, rows in record["latencies"].items():
        for started, seconds in rows:
            rec.request(label, started, seconds)
    for name in ("errors", "retries", "late"):
        getattr(rec, name).update(record[name])
    rec.stream_reconnects += record["reconnects"]
    rec.holder_lags.extend(record["loop_lags"])


def _hold(base_url: str, specs: list[Spec], ramp: float, counts: Any, stop: Any, record: Any) -> None:
    """The holders' process: hold every stream until ``stop``, then put the record."""
    record.put(asyncio.run(_held(base_url, specs, ramp, counts, stop)))


async def _held(base_url: str, specs: list[Spec], ramp: float, counts: Any, stop: Any) -> dict[str, Any]:
    rec = Recorder()
    ended = asyncio.Event()
    lags: list[float] = []
    opening = asyncio.create_task(_open(base_url, specs, ramp, rec, ended))
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(SAMPLE_EVERY)
        lags.append(max(0.0, time.perf_counter() - before - SAMPLE_EVERY))
        counts[OPEN], counts[LIVE], counts[RECONNECTS] = rec.streams_open, rec.streams_live, rec.stream_reconnects
    ended.set()
    streams = await opening
    for task in streams:
        task.cancel()
    await asyncio.gather(*streams, return_exceptions=True)
    return {"latencies": {label: list(rows) for label, rows in rec.latencies.items()}, "errors": dict(rec.errors),
            "retries": dict(rec.retries), "late": dict(rec.late), "reconnects": rec.stream_reconnects,
            "loop_lags": lags}


async def _open(base_url: str, specs: list[Spec], ramp: float, rec: Recorder,
                ended: asyncio.Event) -> list[asyncio.Task[None]]:
    """Open the streams, ``ramp`` a second, each on its session (a login of the players' side)."""
    server = urllib.parse.urlsplit(base_url)
    host, port = server.hostname or "127.0.0.1", server.port or 80
    tasks = []
    for spec in specs:
        if ended.is_set():
            break
        tasks.append(asyncio.create_task(_hold_one(host, port, spec, rec, ended)))
        await asyncio.sleep(1 / ramp)
    return tasks


class _Held(asyncio.Protocol):
    """One held stream on a connection of its own, read as bytes (issue 10: the holders stand for
    browsers on other machines, and their process shares the server's cores). The response's status
    line is read, and its first ``state`` event timed; after that every byte is dropped as it comes,
    in the event loop's own read callback: no parser, no buffer, no task woken per frame (through
    aiohttp's stream reader each frame cost the client a task's wake-up, in bursts as each lobby
    build went out: 44-48 µs of CPU per frame delivered against 26-29 µs read so, in paired runs at
    the target size). The server sends every frame as before; only the client reads it more cheaply."""

    def __init__(self, rec: Recorder, label: str, started: float) -> None:
        self.rec, self.label, self.started = rec, label, started
        self.head = b""
        self.live = False
        self.last_data = time.monotonic()
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self.last_data = time.monotonic()
        if self.live:
            return
        self.head += data
        if self.status == 200 and EVENT_END.search(self.head):
            self.live, self.head = True, b""
            self.rec.request(f"{self.label} (first event)", self.started, time.time() - self.started)
            self.rec.streams_live += 1

    @property
    def status(self) -> int | None:
        """The response's status, once its first line has come."""
        line, found, _ = self.head.partition(b"\r\n")
        parts = line.split(b" ", 2)
        return int(parts[1]) if found and len(parts) > 1 and parts[1].isdigit() else None

    def body(self) -> Any:
        """A refused stream's JSON body (the connection is closed after it), or None."""
        return json_or_none(self.head.partition(b"\r\n\r\n")[2].decode("utf-8", "replace"))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)


async def _hold_one(host: str, port: int, spec: Spec, rec: Recorder, ended: asyncio.Event) -> None:
    """Hold ``spec``'s stream until ``ended``, reconnecting after :data:`RETRY` as the pages'
    ``EventSource`` does when it ends or breaks."""
    request = (f"GET {spec.path} HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: session={spec.cookie}\r\n"
               "Accept: text/event-stream\r\nConnection: close\r\n\r\n").encode()
    while not ended.is_set():
        await _connection(host, port, request, spec.label, rec)
        if not ended.is_set():
            rec.stream_reconnects += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ended.wait(), RETRY)


async def _connection(host: str, port: int, request: bytes, label: str, rec: Recorder) -> None:
    """One connection of a held stream, until the server ends it or it breaks; a stream silent for
    :data:`SILENCE` (the server sends a keep-alive every 15 s) is taken for broken."""
    held = _Held(rec, label, time.time())
    try:
        transport, _ = await asyncio.wait_for(
            asyncio.get_running_loop().create_connection(lambda: held, host, port), CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        rec.retries[f"{label}: stream broke ({type(error).__name__})"] += 1
        return
    rec.streams_open += 1
    try:
        transport.write(request)
        while not held.lost.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(held.lost), SILENCE / 3)
            if time.monotonic() - held.last_data > SILENCE:
                rec.retries[f"{label}: stream broke (silent)"] += 1
                break
        if not held.live and held.status is not None:
            rec.request(label, held.started, time.time() - held.started)
            classify(rec, label, held.status, held.body())
    finally:
        transport.close()
        rec.streams_open -= 1
        rec.streams_live -= held.live
