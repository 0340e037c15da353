"""The processes ``serve --production`` runs beside its web workers (the dealers, the streams'
workers), kept running as uvicorn keeps its own workers: one that ends while the server runs (a
crash, a ``kill -9``) is started again within :data:`WATCH_SECONDS`, so the floor is never left
without a dealer or without its live updates until someone restarts the whole service (issue 10).

A child that keeps ending soon after it starts (its port taken, a setting it refuses) is started
again after a wait that doubles each time, up to :data:`LONGEST_WAIT_SECONDS`, so a broken child
is not started, and logged, every second without end; one that ran for :data:`STEADY_SECONDS`
before it ended is started again at once.

A child that ends because it was asked to (exit 0, or SIGTERM or SIGINT) is not started again: a
service manager stopping the service signals every one of its processes at once, before ``serve``
itself gets to :meth:`Children.stop`. On stop each child gets SIGTERM: a dealer finishes its
current step, a server the requests in flight.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

log = logging.getLogger(__name__)
#: how often the children are looked at
WATCH_SECONDS = 1.0
#: how long a stopping child may take to finish what it is doing
STOP_SECONDS = 60.0
#: the exit statuses of a child that stopped because it was asked to (``Popen.returncode``)
ASKED_TO_STOP = frozenset({0, -signal.SIGTERM, -signal.SIGINT})
#: a child that ran this long before it ended is started again at once (module docstring)
STEADY_SECONDS = 10.0
#: the longest wait before a child that keeps ending soon after its start is started again
LONGEST_WAIT_SECONDS = 60.0


def restart_wait(quick_ends: int) -> float:
    """Seconds to wait before starting a child again that has ended ``quick_ends`` times in a row
    sooner than :data:`STEADY_SECONDS` after its start (0: it had run steadily): doubling from
    :data:`WATCH_SECONDS`, at most :data:`LONGEST_WAIT_SECONDS`."""
    return 0.0 if quick_ends < 1 else min(WATCH_SECONDS * 2 ** (quick_ends - 1), LONGEST_WAIT_SECONDS)


@dataclass
class _Child:
    """One child: its process, when it started, its quick ends in a row (:func:`restart_wait`) and,
    once ended, when it is started again."""

    command: list[str]
    process: subprocess.Popen[bytes]
    started: float
    quick_ends: int = 0
    restart_at: float | None = None


class Children:
    """``commands``, each run as one process and started again whenever it ends before :meth:`stop`."""

    def __init__(self, commands: Sequence[Sequence[str]]) -> None:
        self.commands = [list(command) for command in commands]
        self.children: list[_Child] = []
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._watcher = threading.Thread(target=self._watch, name="children", daemon=True)

    @property
    def processes(self) -> list[subprocess.Popen[bytes]]:
        """Each child's current process, in the order of the commands."""
        return [child.process for child in self.children]

    def start(self) -> None:
        self.children = [_Child(command, subprocess.Popen(command), time.monotonic()) for command in self.commands]
        self._watcher.start()

    def _watch(self) -> None:
        while not self._stopping.wait(WATCH_SECONDS):
            with self._lock:
                for child in self.children:
                    if child.process.poll() not in (None, *ASKED_TO_STOP) and not self._stopping.is_set():
                        self._restart(child, time.monotonic())

    @staticmethod
    def _restart(child: _Child, now: float) -> None:
        """Start an ended child again, at once or after its wait (module docstring)."""
        if child.restart_at is None:
            ran = now - child.started
            child.quick_ends = child.quick_ends + 1 if ran < STEADY_SECONDS else 0
            wait = restart_wait(child.quick_ends)
            child.restart_at = now + wait
            log.warning("%s ended (exit %s) after %.1f s: started again%s", " ".join(child.command[2:]),
                        child.process.returncode, ran, f" in {wait:.0f} s" if wait else "")
        if now >= child.restart_at:
            child.process, child.started, child.restart_at = subprocess.Popen(child.command), now, None

    def stop(self) -> None:
        """SIGTERM to each child, then wait for it to finish (at most :data:`STOP_SECONDS` each)."""
        self._stopping.set()
        with self._lock:
            for process in self.processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            for process in self.processes:
                process.wait(timeout=STOP_SECONDS)
