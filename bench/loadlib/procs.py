"""The processes a run starts (the web server, dealers) and the CPU they spend.

Each process gets its own session (process group), so stopping it stops exactly what the bench
started and nothing else. A :class:`Plant` restarts a process that died under it, as a process
manager would, and counts the restarts: a load run expects none, a faults run causes them.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psutil

STOP_GRACE = 10.0
#: the bench's own process, measured to show whether the client kept up; not part of the total
CLIENT = "bench client"
#: the database server's processes (the bench's database is on this machine, options.py): what
#: the two cores give PostgreSQL, counted apart from the server's total and not process by process
#: (a backend per connection)
DATABASE = "PostgreSQL"
SERVER_TOTAL = "server + dealers"
#: the groups that are not the casino's server and dealers
NOT_SERVER = (CLIENT, DATABASE)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


#: every service this process started, for the hard ceiling's last-resort stop
STARTED: list[Service] = []


def arm_ceiling(seconds: float) -> None:
    """After ``seconds``, whatever happens: stop everything started and exit 124."""

    def abort() -> None:
        print(f"hard ceiling of {seconds:.0f} s reached: stopping what the bench started", file=sys.stderr, flush=True)
        for service in STARTED:
            try:
                service.stop()
            except OSError:
                continue
        os._exit(124)

    timer = threading.Timer(seconds, abort)
    timer.daemon = True
    timer.start()


@dataclass
class Service:
    """One started process; ``argv`` is run in a new session with its output in ``log``."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(self.argv, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        STARTED.append(self)

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _tree(self) -> list[psutil.Process]:
        """This process and its children (a pre-forking server's workers), this process first."""
        if not self.alive() or self.pid is None:
            return []
        try:
            root = psutil.Process(self.pid)
            return [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def pids(self) -> list[int]:
        """This process and its children (a pre-forking server's workers)."""
        return [process.pid for process in self._tree()]

    def web_workers(self) -> dict[int, str]:
        """The processes under this one that answer HTTP, named (:func:`web_workers`), as it runs now."""
        rows = []
        for process in self._tree():
            try:
                rows.append((process.pid, process.ppid(), process.cmdline()))
            except psutil.NoSuchProcess:
                continue
        return web_workers(rows)

    def stop(self) -> None:
        """SIGTERM to the process group we created, then SIGKILL after a grace period."""
        if self.process is None or self.process.poll() is not None:
            return
        group = os.getpgid(self.process.pid)
        os.killpg(group, signal.SIGTERM)
        try:
            self.process.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            pass
        try:  # whatever of the group outlived the grace period (workers of a pre-forking server)
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(STOP_GRACE)

    def tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


#: what :func:`web_workers` calls each process that answers HTTP. The server repairs the first
#: three itself (uvicorn starts a worker again, the supervisor its streams' server); a server
#: without separate workers is the bench's to start again (:class:`Plant`)
WEB_WORKER, STREAMS_WORKER, STREAMS_SERVER, WEB_SERVER = (
    "a web worker", "a streams' worker", "the streams' server", "the web server (it has no separate workers)")
SERVER_REPAIRS = frozenset({WEB_WORKER, STREAMS_WORKER, STREAMS_SERVER})


def web_workers(processes: list[tuple[int, int, list[str]]]) -> dict[int, str]:
    """Of a server's process tree (pid, parent pid, command line; the root first), the processes
    that answer HTTP, each named: uvicorn's workers (multiprocessing's spawned children: the web
    workers under the root, the streams' workers under a ``serve`` child), and a ``serve`` child
    (the streams' server) that has none of its own and so answers itself; never the root when it
    has workers, its dealers, or multiprocessing's resource tracker. A root without workers is its
    own web server."""
    def spawned(command: list[str]) -> bool:
        return any("spawn_main" in part for part in command)

    root = processes[0][0] if processes else None
    parents = {ppid for _, ppid, command in processes if spawned(command)}
    named = {pid: WEB_WORKER if ppid == root else STREAMS_WORKER
             for pid, ppid, command in processes if spawned(command)}
    named.update((pid, STREAMS_SERVER) for pid, _, command in processes[1:]
                 if "serve" in command and not spawned(command) and pid not in parents)
    return named or {pid: WEB_SERVER for pid, *_ in processes[:1]}


@dataclass
class Plant:
    """The server and dealers of one run, supervised: whatever dies is started again."""

    services: list[Service] = field(default_factory=list)
    restarts: dict[str, int] = field(default_factory=dict)
    stopping: bool = False

    def start(self) -> None:
        for service in self.services:
            service.start()

    def by_role(self, role: str) -> list[Service]:
        return [s for s in self.services if s.name.startswith(role)]

    async def supervise(self, every: float = 0.5) -> None:
        while not self.stopping:
            for service in self.services:
                if not service.alive() and not self.stopping:
                    self.restarts[service.name] = self.restarts.get(service.name, 0) + 1
                    service.start()
            await asyncio.sleep(every)

    def stop(self) -> None:
        self.stopping = True
        for service in self.services:
            service.stop()


def listening_pids(port: int) -> list[int]:
    """The processes listening on ``port`` and their children (a server the bench did not start)."""
    roots = {c.pid for c in psutil.net_connections("tcp")
             if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid}
    pids = set(roots)
    for pid in roots:
        try:
            pids.update(child.pid for child in psutil.Process(pid).children(recursive=True))
        except psutil.NoSuchProcess:
            continue
    return sorted(pids)


def database_pids() -> list[int]:
    """Every PostgreSQL process of this machine: its postmaster, backends (which come and go with
    connections) and helpers, whichever database they serve."""
    return [process.pid for process in psutil.process_iter(["name"])
            if process.info["name"] in ("postgres", "postmaster")]


def machine_busy() -> float:
    """CPU seconds every core of the machine has spent busy since boot (all but idle and I/O
    wait; a guest's time is already in user time, as psutil counts it)."""
    times = psutil.cpu_times()
    total = sum(times) - getattr(times, "guest", 0.0) - getattr(times, "guest_nice", 0.0)
    return total - times.idle - getattr(times, "iowait", 0.0)


@dataclass
class CpuMeter:
    """CPU seconds (user + system) per named group of processes over a window, and per process
    where a group has several (a pre-forking server's workers, a restarted process). Sampled every
    second, so a process killed mid-window still counts up to its last sample, and one started
    inside the window counts from zero."""

    groups: dict[str, Callable[[], list[int]]]
    first: dict[int, float] = field(default_factory=dict)
    last: dict[int, tuple[str, float]] = field(default_factory=dict)
    #: what each process of a group is (:func:`role`), read once, shown beside its pid
    roles: dict[int, str] = field(default_factory=dict)
    marked: float | None = None
    stopped: float | None = None
    #: the machine's busy CPU seconds at the window's start and end (:func:`machine_busy`)
    busy: list[float] = field(default_factory=list)
    sampling: threading.Lock = field(default_factory=threading.Lock)

    def _pids(self) -> dict[str, list[int]]:
        return {name: source() for name, source in self.groups.items()}

    def sample(self) -> None:
        with self.sampling:  # the loop's mark and finish, and run's thread
            self._sample()

    def _sample(self) -> None:
        if self.stopped is not None:
            return
        for name, pids in self._pids().items():
            for pid in pids:
                try:
                    process = psutil.Process(pid)
                    times = process.cpu_times()
                    if pid not in self.roles:
                        self.roles[pid] = role(name, process.cmdline(), own=pid == os.getpid())
                except psutil.Error:
                    continue
                total = times.user + times.system
                if self.marked is not None and pid not in self.first:
                    self.first[pid] = 0.0
                self.last[pid] = (name, total)

    def mark(self) -> None:
        """The window starts now: what each process has spent so far is not counted."""
        self.sample()
        self.marked = time.time()
        self.first = {pid: total for pid, (_, total) in self.last.items()}
        self.busy = [machine_busy()]

    def finish(self) -> None:
        self.sample()
        self.stopped = time.time()
        self.busy.append(machine_busy())

    def machine_percent(self) -> float | None:
        """How busy the machine's cores were in the window, in % of one core (200 % is two cores
        busy throughout); None before the window has ended."""
        window = (self.stopped or 0.0) - (self.marked or 0.0)
        if len(self.busy) != 2 or window <= 0:
            return None
        return round(100 * (self.busy[1] - self.busy[0]) / window, 1)

    def figures(self) -> dict[str, dict[str, float]]:
        window = (self.stopped or time.time()) - (self.marked or time.time())
        by_group: dict[str, list[tuple[int, float]]] = {}
        for pid, (name, total) in self.last.items():
            by_group.setdefault(name, []).append((pid, max(0.0, total - self.first.get(pid, 0.0))))
        spent: dict[str, float] = {}
        for name, processes in by_group.items():
            spent[name] = sum(seconds for _, seconds in processes)
            if len(processes) > 1 and name != DATABASE:  # a pre-forking server's master and workers, or
                # a restarted process
                spent.update((f"  {name} pid {pid}{_named(self.roles.get(pid))}", seconds)
                             for pid, seconds in processes)
        spent[SERVER_TOTAL] = sum(spent[name] for name in by_group if name not in NOT_SERVER)
        return {name: {"seconds": round(seconds, 2),
                       "percent_of_core": round(100 * seconds / window, 1) if window > 0 else 0.0}
                for name, seconds in spent.items()}

    async def run(self, every: float = 1.0) -> None:
        """Sample every ``every`` seconds, off the event loop: finding a server the bench did not
        start walks every socket of the machine (:func:`listening_pids`), which with thousands of
        streams open took hundreds of milliseconds, and the client's loop timed that as the
        server's latency."""
        while self.stopped is None:
            await asyncio.to_thread(self.sample)
            await asyncio.sleep(every)


def role(group: str, command: list[str], *, own: bool = False) -> str:
    """What a process of ``group`` is, by its command line: of the bench's client, the players
    (this process) and the stream holders (:mod:`.holders`); of a server, a web worker (uvicorn's
    spawned children), the streams' worker (a ``serve`` with no dealers of its own,
    ``--stream-workers``), a dealer, the supervisor, or multiprocessing's resource tracker; empty
    for anything else."""
    if group == CLIENT:
        return "players" if own else "stream holders"
    line = " ".join(command)
    if "resource_tracker" in line:
        return "resource tracker"
    if "spawn_main" in line:
        return "web worker"
    if " dealer" in line:
        return "dealer"
    if " serve " in line or line.endswith(" serve"):
        return "streams' worker" if "--dealers 0" in line and "--nice" in line else "supervisor"
    return ""


def _named(role_of: str | None) -> str:
    return f" ({role_of})" if role_of else ""


def own_pid() -> list[int]:
    return [os.getpid()]
