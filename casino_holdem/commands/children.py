"""The processes ``serve --production`` runs beside its web workers (the dealers, the streams'
workers), kept running as uvicorn keeps its own workers: one that ends while the server runs (a
crash, a ``kill -9``) is started again within :data:`WATCH_SECONDS`, so the floor is never left
without a dealer or without its live updates until someone restarts the whole service (issue 10).

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
from collections.abc import Sequence

log = logging.getLogger(__name__)
#: how often the children are looked at
WATCH_SECONDS = 1.0
#: how long a stopping child may take to finish what it is doing
STOP_SECONDS = 60.0
#: the exit statuses of a child that stopped because it was asked to (``Popen.returncode``)
ASKED_TO_STOP = frozenset({0, -signal.SIGTERM, -signal.SIGINT})


class Children:
    """``commands``, each run as one process and started again whenever it ends before :meth:`stop`."""

    def __init__(self, commands: Sequence[Sequence[str]]) -> None:
        self.commands = [list(command) for command in commands]
        self.processes: list[subprocess.Popen[bytes]] = []
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._watcher = threading.Thread(target=self._watch, name="children", daemon=True)

    def start(self) -> None:
        self.processes = [subprocess.Popen(command) for command in self.commands]
        self._watcher.start()

    def _watch(self) -> None:
        while not self._stopping.wait(WATCH_SECONDS):
            with self._lock:
                for index, process in enumerate(self.processes):
                    if process.poll() not in (None, *ASKED_TO_STOP) and not self._stopping.is_set():
                        log.warning("%s ended (exit %s): started again", " ".join(self.commands[index][2:]),
                                    process.returncode)
                        self.processes[index] = subprocess.Popen(self.commands[index])

    def stop(self) -> None:
        """SIGTERM to each child, then wait for it to finish (at most :data:`STOP_SECONDS` each)."""
        self._stopping.set()
        with self._lock:
            for process in self.processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            for process in self.processes:
                process.wait(timeout=STOP_SECONDS)
