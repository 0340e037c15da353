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
import multiprocessing
import queue
import time
from dataclasses import dataclass
from typing import Any

from .client import Account, connection_pool
from .stats import Recorder

#: the counts the holders publish, by index
OPEN, LIVE, RECONNECTS = 0, 1, 2
#: how often the holders publish their counts and sample their loop's lag
SAMPLE_EVERY = 0.5
#: how long the players' side waits for the holders' record after asking them to stop
COLLECT_CEILING = 60.0


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
    async with connection_pool(2 ** 20) as pool:
        opening = asyncio.create_task(_open(pool, base_url, specs, ramp, rec, ended))
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


async def _open(pool: Any, base_url: str, specs: list[Spec], ramp: float, rec: Recorder,
                ended: asyncio.Event) -> list[asyncio.Task[None]]:
    """Open the streams, ``ramp`` a second, each on its session (a login of the players' side)."""
    tasks = []
    for spec in specs:
        if ended.is_set():
            break
        account = Account(pool, base_url, rec, "", "")
        account.cookie = spec.cookie
        tasks.append(asyncio.create_task(account.stream(spec.path, spec.label, None, ended)))
        await asyncio.sleep(1 / ramp)
    return tasks
