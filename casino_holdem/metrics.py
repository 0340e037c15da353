"""Prometheus metrics (issue 10), served at ``/metrics`` by the production app.

Counters and histograms live in prometheus-client's multiprocess mode when
``PROMETHEUS_MULTIPROC_DIR`` is set (``serve --production`` sets it for its web workers and
dealers), so every worker's and dealer's figures add up in one scrape. Bets, decisions and
automatic decisions (R8) are counted from the rows a transaction wrote, once it has committed;
rounds and the dealer's lag (how late after its deadline a step was taken) by the dealer loop;
request latency per endpoint and the wait for a request thread by the ASGI app, the streams'
state builds by its fan-out, and each process's garbage collections by :mod:`.collector`; pool
amounts (R5, base units) are read at scrape time.
"""

from __future__ import annotations

from collections.abc import Collection

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from sqlalchemy import select
from sqlalchemy.orm import Session

from . import settings
from .extensions import after_commit
from .models import Bet, DecisionRecord, JackpotPool

BETS = Counter("casino_bets", "bets placed (R2.1)")
DECISIONS = Counter("casino_decisions", "decisions taken (R2.3-R2.5)", ["by"])
ROUNDS = Counter("casino_rounds", "dealer steps by kind (opened, hole_cards, …, settled)", ["step"])
DEALER_LAG = Histogram("casino_dealer_lag_seconds", "deadline to the step that closed its window",
                       buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
REQUESTS = Histogram("casino_request_seconds", "request latency per endpoint", ["method", "endpoint", "status"],
                     buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
STREAMS = Gauge("casino_open_streams", "open event streams", multiprocess_mode="livesum")
#: one read of a table (or of the open tables, for the lobby) for its open streams (issue 10: the
#: web workers' largest cost under load, so an operator sees how often it is paid)
STATE_BUILDS = Counter("casino_state_builds", "states built for the open event streams", ["topic"])
#: how long a request waited for one of its web worker's threads, by its rank in the worker's queue
#: (:mod:`casino_holdem.request_queue`: a player's decision first, R8), so an operator sees what
#: the threads cost each kind of request apart from the work itself
QUEUE_WAITS = Histogram("casino_request_queue_seconds", "wait for a web worker's request thread, by rank", ["rank"],
                        buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20))
#: each garbage collection's pause, by generation (:mod:`casino_holdem.collector`): the process's
#: other threads wait while the collector holds the interpreter, every request and stream alike
#: (issue 10); the pause is its start to its end, which counts too what other threads ran while
#: finalizers inside it let the interpreter go
GC_PAUSES = Histogram("casino_gc_pause_seconds", "a garbage collection's pause, start to end, by generation",
                      ["generation"], buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
#: the CPU the collecting thread spent in those collections: the collector's own work
GC_CPU = Counter("casino_gc_cpu_seconds", "CPU the collecting thread spent in garbage collections, by generation",
                 ["generation"])
COUNTS = "casino_metrics_pending"


def _collect(session: Session, new: Collection[object], _changed: Collection[object]) -> None:
    counts = session.info.setdefault(COUNTS, {"bets": 0, "player": 0, "house": 0})
    for row in new:
        if isinstance(row, Bet):
            counts["bets"] += 1
        elif isinstance(row, DecisionRecord):
            counts["house" if row.automatic else "player"] += 1


def _count(counts: dict[str, int]) -> None:
    BETS.inc(counts["bets"])
    DECISIONS.labels("player").inc(counts["player"])
    DECISIONS.labels("house").inc(counts["house"])


def register() -> None:
    """Count committed rows on every ORM session (idempotent)."""
    after_commit(COUNTS, _collect, _count)


def exposition(session: Session) -> bytes:
    """The scrape: every process's metrics (multiprocess mode) or this one's, and the pools now."""
    if settings.metrics_dir():
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        text = generate_latest(registry)
    else:
        from prometheus_client import REGISTRY

        text = generate_latest(REGISTRY)
    pools = CollectorRegistry()
    amount = Gauge("casino_pool_amount", "jackpot pool in base units (R5)", ["pool"], registry=pools)
    for name, value in session.execute(select(JackpotPool.name, JackpotPool.amount)):
        amount.labels(name).set(float(value))  # a reading for charts; the ledger keeps the exact Decimal
    session.rollback()
    return text + generate_latest(pools)
