"""Faults during a load run, and the checks that the money and the rounds survived them.

During the measured window: ``kill -9`` of a web worker (of the server itself when it has no
separate workers, as today's ``serve``) and of a dealer, alternately every few seconds, and
optionally one restart of the local PostgreSQL cluster that serves the database. The run's
:class:`~.procs.Plant` starts again whatever was killed, as a process manager would.

Afterwards: no round is stuck (every open bench table's current round moves on within a generous
ceiling once the faults stop), every wallet recomputed from its postings equals its balance, each
pool equals its history, and ``casino-holdem replay`` finds every settled round of the run
identical to its record. ``audit-ledger`` itself runs in :func:`.run.measure`.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from . import database, procs
from .client import ApiError
from .options import OptionError, is_loopback
from .run import Context

PG_RESTART_TIMEOUT = 120.0


def check(name: str, passed: bool, detail: str) -> dict[str, Any]:
    return {"name": name, "passed": bool(passed), "detail": detail}


def local_cluster(database_url: str, explicit: str | None = None) -> tuple[str, str]:
    """The (version, name) of the PostgreSQL cluster on this machine that serves the URL's port
    (``pg_lsclusters``); refused for a database that is not on a loopback address."""
    parts = urlsplit(database_url)
    if not is_loopback(parts.hostname):
        raise OptionError("--pg-restart: the database is not on this machine")
    if explicit:
        version, _, name = explicit.partition("/")
        return version, name
    listed = subprocess.run(["pg_lsclusters", "--json"], capture_output=True, text=True, check=False, timeout=30)
    if listed.returncode != 0:
        raise OptionError("--pg-restart: pg_lsclusters is not available here")
    port = str(parts.port or 5432)
    matches = [c for c in json.loads(listed.stdout) if str(c.get("port")) == port and c.get("running")]
    if len(matches) != 1:
        raise OptionError(f"--pg-restart: {len(matches)} running local clusters listen on port {port}")
    return str(matches[0]["version"]), str(matches[0]["cluster"])


@dataclass
class Faults:
    """The fault plan of one run, and what was done."""

    every: float
    most: int
    pg_cluster: tuple[str, str] | None
    rng: random.Random = field(default_factory=random.Random)
    done: list[dict[str, Any]] = field(default_factory=list)

    def _kill(self, pid: int | None, what: str, started: float) -> None:
        if pid is None:
            self.done.append({"at": round(time.time() - started, 1), "what": f"{what}: nothing to kill"})
            return
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.done.append({"at": round(time.time() - started, 1), "what": what, "pid": pid})

    def kill_worker(self, ctx: Context, started: float) -> None:
        server = ctx.plant.by_role("server")[0] if ctx.plant else None
        workers = server.web_workers() if server else {}
        pid = self.rng.choice(sorted(workers)) if workers else None
        self._kill(pid, f"kill -9 {procs.WEB_WORKER if pid is None else workers[pid]}", started)

    def kill_dealer(self, ctx: Context, started: float) -> None:
        dealers = [s for s in (ctx.plant.by_role("dealer") if ctx.plant else []) if s.alive()]
        dealer = self.rng.choice(dealers) if dealers else None
        self._kill(dealer.pid if dealer else None, "kill -9 a dealer", started)

    async def restart_postgres(self, started: float) -> None:
        assert self.pg_cluster is not None
        version, name = self.pg_cluster
        argv = ["pg_ctlcluster", "--skip-systemctl-redirect", version, name, "restart"]
        began = time.time()
        result = await asyncio.to_thread(subprocess.run, argv, capture_output=True, text=True, check=False,
                                         timeout=PG_RESTART_TIMEOUT)
        self.done.append({"at": round(began - started, 1), "what": f"pg_ctlcluster {version} {name} restart",
                          "exit": result.returncode, "seconds": round(time.time() - began, 1)})

    async def during(self, ctx: Context) -> None:
        """Alternate worker and dealer kills every ``every`` seconds inside the window (at most
        ``most``), and the PostgreSQL restart half-way through."""
        started, duration = time.time(), ctx.args.duration
        plan: list[tuple[float, str]] = [(self.every * (i + 1), ("worker", "dealer")[i % 2])
                                         for i in range(self.most) if self.every * (i + 1) < duration - 2]
        if self.pg_cluster is not None:
            plan.append((duration / 2, "postgres"))
        for at, what in sorted(plan):
            await asyncio.sleep(max(0.0, started + at - time.time()))
            if what == "worker":
                self.kill_worker(ctx, started)
            elif what == "dealer":
                self.kill_dealer(ctx, started)
            else:
                await self.restart_postgres(started)


async def no_round_stuck(ctx: Context, ceiling: float) -> dict[str, Any]:
    """Every bench table's current round (id, phase, deadline) changes within ``ceiling``
    seconds, seen through the lobby API as a player sees it."""
    account = ctx.players[0].account
    ours = {t.id for t in ctx.tables}

    async def snapshot() -> dict[int, tuple[Any, ...]]:
        status, lobby = await account.call("GET", "/api/tables", "GET /api/tables", record=False)
        if status != 200:
            return {}
        return {t["id"]: tuple((t["round"] or {}).get(k) for k in ("round_id", "phase", "deadline"))
                for t in lobby["tables"] if t["id"] in ours}

    try:
        first = await snapshot()
        waiting = set(ours)
        deadline = time.time() + ceiling
        while waiting and time.time() < deadline:
            await asyncio.sleep(1.0)
            now = await snapshot()
            waiting -= {table for table in waiting if table in now and now[table] != first.get(table)}
    except ApiError as error:
        return check("no round stuck", False, f"the lobby did not answer: {error}")
    stuck = sorted(waiting)
    return check("no round stuck", not stuck,
                 f"every one of {len(ours)} tables moved on" if not stuck else
                 f"tables {stuck} did not move within {ceiling:.0f} s: {[first.get(t) for t in stuck]}")


async def after(ctx: Context) -> list[dict[str, Any]]:
    """The money checks and the replays, with every process of the run stopped."""
    url, results = ctx.args.database_url, []
    try:
        ledger = await asyncio.to_thread(database.ledger_breaks, url)
        results.append(check("wallets equal their postings", not ledger["wallet_breaks"],
                             f"{ledger['wallets']} wallets; breaks: {ledger['wallet_breaks'][:5] or 'none'}"))
        results.append(check("pools equal their history", not ledger["pool_breaks"],
                             f"{ledger['pools']} pools; breaks: {ledger['pool_breaks'][:5] or 'none'}"))
        rounds = await asyncio.to_thread(database.settled_rounds, url, [t.id for t in ctx.tables], ctx.started)
    except Exception as error:  # a database that does not answer is a failed check, not a crash
        return results + [check("database checks", False, f"{type(error).__name__}: {error}")]
    replays = await asyncio.gather(*(ctx.cli.run("replay", str(round_id)) for round_id in rounds))
    differ = [f"{round_id}: exit {code} {(out + err).strip().splitlines()[-1:]}"
              for round_id, (code, out, err) in zip(rounds, replays, strict=True) if code != 0]
    results.append(check("replay of every settled round identical", bool(rounds) and not differ,
                         f"{len(rounds)} settled rounds replayed; differing: {differ[:5] or 'none'}"))
    return results
