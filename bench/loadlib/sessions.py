"""What the database's transactions wait for in the measured window: PostgreSQL's own view of its
sessions (``pg_stat_activity``), looked at every :data:`EVERY` seconds.

A bet or a decision holds a transaction open over some twenty round trips. When its answer is
late, the time went either to the database (a row lock another transaction holds, the commit's
write, the statements' own work) or to the process that sent it, between two statements (its
Python work, and its waits for the interpreter and for a core). PostgreSQL tells them apart: a
session *idle in transaction* is waiting for its client's next statement. Sampled by hand on
2026-12-05 at the target size (docs/load-runs.md), about 5 of the transactions open at a
time were waiting for the server and 0.4-0.6 for a lock: the time went to the server's
processes, not the database. The bench now prints it for every run.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from typing import Any

import psycopg

from .database import connect

#: seconds between two looks
EVERY = 0.05
#: what a session inside a transaction is doing, as the report names it; running is any other
#: state of an active statement: its work, its wait for a core, a read from disk
FOR_CLIENT, ON_A_LOCK, COMMITTING, RUNNING = ("waiting for the server's next statement", "waiting on a lock",
                                              "writing the commit", "running or another wait")
#: the write-ahead log's waits: the commit's write to disk
WAL_WAITS = frozenset({"WALSync", "WALWrite", "WALInsert", "WALWriteLock"})
#: the first table a statement names (what a lock wait waits on)
TABLE = re.compile(r"\b(?:FROM|UPDATE|INTO)\s+([a-z_][a-z0-9_]*)", re.IGNORECASE)
#: the other sessions of the database, inside a transaction (the looker's own excluded)
QUERY = ("SELECT state, wait_event_type, wait_event, query FROM pg_stat_activity "
         "WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL")


def kind_of(state: str | None, wait_type: str | None, wait_event: str | None) -> str | None:
    """What a session inside a transaction is doing (module docstring); None for one that is not."""
    if state in ("idle in transaction", "idle in transaction (aborted)"):
        return FOR_CLIENT
    if state != "active":
        return None
    if wait_type == "Lock":
        return ON_A_LOCK
    if wait_event in WAL_WAITS:
        return COMMITTING
    return RUNNING


class Sessions:
    """Looks at the database's sessions on a thread of its own from :meth:`start` to :meth:`stop`."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.looks = 0
        self.kinds: Counter[str] = Counter()
        self.locks: Counter[str] = Counter()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="bench-sessions", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> dict[str, Any]:
        self.stopping.set()
        self.thread.join()
        return self.figures()

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                with connect(self.url) as db:
                    while not self.stopping.wait(EVERY):
                        self.add(db.execute(QUERY).fetchall())
            except psycopg.Error:  # the database restarted (bench/faults.py): look again once it is back
                self.stopping.wait(EVERY)

    def add(self, rows: list[tuple[str | None, str | None, str | None, str | None]]) -> None:
        """One look: each session's kind, and the table each lock wait's statement names."""
        self.looks += 1
        for state, wait_type, wait_event, query in rows:
            if (kind := kind_of(state, wait_type, wait_event)) is None:
                continue
            self.kinds[kind] += 1
            if kind == ON_A_LOCK:
                self.locks[match[1] if (match := TABLE.search(query or "")) else "?"] += 1

    def figures(self) -> dict[str, Any]:
        """Sessions in a transaction on average over the looks, in all and by kind; the lock waits by
        table, most first (those below 0.01 left out)."""
        looks = max(self.looks, 1)
        return {"looks": self.looks, "every_seconds": EVERY,
                "in_transaction": round(sum(self.kinds.values()) / looks, 2),
                "kinds": {kind: round(self.kinds[kind] / looks, 2) for kind in (FOR_CLIENT, ON_A_LOCK, COMMITTING,
                                                                                 RUNNING)},
                "lock_waits": {table: round(count / looks, 2) for table, count in self.locks.most_common()
                               if round(count / looks, 2)}}
