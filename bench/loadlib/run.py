"""One measured run: set up the floor, start (or find) the server and dealers, log the players in,
open the streams, play for ``--duration``, let the rounds in play finish, then gather the figures.

``faults.py`` runs the same thing with :class:`Hooks`: something to do during the measured window
(kill processes, restart the database) and checks to make while the processes still run.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import shlex
import subprocess
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from . import database, floor
from .client import Account, ApiError, connection_pool
from .holders import Holders, Spec
from .players import Pace, Player
from .procs import (
    CLIENT,
    DATABASE,
    SERVER_TOTAL,
    CpuMeter,
    Plant,
    Service,
    database_pids,
    free_port,
    listening_pids,
    own_pid,
)
from .sessions import Sessions
from .stats import Recorder, percentiles

HOST = "127.0.0.1"
READY_CEILING = 90.0
#: streams opened per second while ramping up
STREAM_RAMP = 200.0
#: one watcher account per this many idle streams
STREAMS_PER_WATCHER = 500
SAMPLE_EVERY = 0.5


@dataclass
class Context:
    """What a run has built, for the hooks and the report."""

    args: Any
    recorder: Recorder
    cli: floor.Cli
    base_url: str
    tables: list[floor.Table]
    #: where the event streams are opened (the server's own address unless its streams are served apart)
    stream_url: str = ""
    plant: Plant | None = None
    players: list[Player] = field(default_factory=list)
    watchers: list[Account] = field(default_factory=list)
    #: the process holding the streams nobody reads (:mod:`.holders`), once they are opened
    holders: Holders | None = None
    started: float = field(default_factory=time.time)
    notes: list[str] = field(default_factory=list)
    #: the server's counters in the measured window (:func:`server_counters`)
    counters: dict[tuple[str, str], float] = field(default_factory=dict)
    #: what the database's transactions waited for in the measured window (:mod:`.sessions`)
    database_sessions: dict[str, Any] = field(default_factory=dict)


@dataclass
class Hooks:
    """Optional extras of a run (used by faults.py)."""

    during: Callable[[Context], Awaitable[None]] | None = None
    before_stop: Callable[[Context], Awaitable[list[dict[str, Any]]]] | None = None
    after: Callable[[Context], Awaitable[list[dict[str, Any]]]] | None = None


def environment(args: Any) -> dict[str, str]:
    """The environment of every process the bench starts: the database, one session key shared by
    all web processes (a session made by one worker must be valid in another), and stream caps
    that let one client address hold every simulated player's and watcher's streams (the caps
    stop one attacker's address; the bench is thousands of clients behind one). The showdown pause
    is the one the dealer lag is measured against; the paytables' exact figures, computed once per
    paytable version in a low-priority child, are not computed during a measurement."""
    env = dict(os.environ)
    env.update(CASINO_DATABASE_URL=args.database_url, PYTHONUNBUFFERED="1",
               CASINO_SECRET_KEY=env.get("CASINO_SECRET_KEY") or secrets.token_hex(32),
               CASINO_SHOWDOWN_PAUSE=str(args.showdown_pause), CASINO_FIGURES_POLL="0",
               CASINO_STREAMS_PER_ADDRESS=str(2 * args.players + args.streams + 100),
               CASINO_STREAMS_PER_SESSION=str(max(8, STREAMS_PER_WATCHER)))
    return env


def server_argv(args: Any, port: int, env: dict[str, str], stream_port: int) -> tuple[list[str], bool, bool]:
    """The server command, whether it is a --production one (which deals in no thread), and
    whether its streams are served apart, on ``stream_port`` (the command names it: by default
    with ``--stream-workers``; a ``--server-cmd`` that does not serves them on ``port``)."""
    template = args.server_cmd
    if template is None:
        usage = subprocess.run([args.cli, "serve", "--help"], capture_output=True, text=True, env=env,
                               check=False).stdout
        production = "--production" in usage
        template = "{cli} serve " + ("--production --workers {workers} " if production else "") + \
                   ("--stream-workers {stream_workers} --stream-port {stream_port} " if production and
                    args.stream_workers else "") + "--host {host} --port {port}"
    else:
        production = "--production" in template
    argv = shlex.split(template.format(cli=args.cli, host=HOST, port=port, workers=args.workers,
                                       stream_workers=args.stream_workers, stream_port=stream_port))
    return argv, production, "{stream_port}" in template


def build_plant(args: Any, env: dict[str, str]) -> tuple[Plant, str, str, Path]:
    """The server and dealer services of a run (not started yet), its address, its streams'
    address and the log folder."""
    log_dir = Path(args.log_dir or tempfile.mkdtemp(prefix="casino-bench-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    port, stream_port = free_port(HOST), free_port(HOST)
    argv, production, apart = server_argv(args, port, env, stream_port)
    if args.dealers is None:
        args.dealers = 1 if production else 0
    services = [Service("server", argv, env, log_dir / "server.log")]
    services += [Service(f"dealer-{i + 1}", [args.cli, "dealer"], env, log_dir / f"dealer-{i + 1}.log")
                 for i in range(args.dealers)]
    return Plant(services), f"http://{HOST}:{port}", f"http://{HOST}:{stream_port if apart else port}", log_dir


async def wait_ready(base_url: str, plant: Plant | None) -> None:
    """Until ``GET /api/session`` answers, within a generous ceiling."""
    deadline = time.time() + READY_CEILING
    async with aiohttp.ClientSession() as probe:
        while time.time() < deadline:
            try:
                async with probe.get(base_url + "/api/session", timeout=aiohttp.ClientTimeout(total=5)) as response:
                    if response.status == 200:
                        return
            except (TimeoutError, aiohttp.ClientError):
                pass
            await asyncio.sleep(0.3)
    tail = plant.services[0].tail() if plant else ""
    raise floor.SetupError(f"the server at {base_url} did not answer within {READY_CEILING:.0f} s\n{tail}")


def cpu_meter(ctx: Context) -> CpuMeter:
    groups: dict[str, Callable[[], list[int]]] = {
        CLIENT: lambda: own_pid() + (ctx.holders.pids if ctx.holders is not None else [])}
    if ctx.plant is not None:
        for service in ctx.plant.services:
            groups[service.name] = service.pids
    else:
        port = urlsplit(ctx.base_url).port or 80
        groups[f"server (port {port})"] = lambda: listening_pids(port)
    groups[DATABASE] = database_pids
    return CpuMeter(groups)


async def _sample(ctx: Context, stop: asyncio.Event) -> None:
    """Open streams held (inside the window: the players' own and the holders') and the players'
    event-loop lag."""
    rec = ctx.recorder
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(SAMPLE_EVERY)
        rec.loop_lags.append(max(0.0, time.perf_counter() - before - SAMPLE_EVERY))
        if rec.window is not None and rec.window[1] == float("inf"):
            rec.stream_samples.append(_streams(ctx))


def _streams(ctx: Context) -> tuple[int, int]:
    """Streams held open and delivering, the players' own and the holders'."""
    own = (ctx.recorder.streams_open, ctx.recorder.streams_live)
    return own if ctx.holders is None else (own[0] + ctx.holders.open, own[1] + ctx.holders.live)


def sit_down_times(table_of: Sequence[int], tables: Sequence[int], span: float) -> list[float]:
    """Seconds from the start at which each player (``table_of``: the table each sits at) opens
    their table's stream: the tables fill one after another, table k of n at k/n of ``span``, so
    their rounds run out of phase as a floor's do, and no two players come closer together than
    one stream ramp step (``1 / STREAM_RAMP`` s). Returned in the players' order."""
    index = {table: k for k, table in enumerate(tables)}
    times, previous = [0.0] * len(table_of), -1 / STREAM_RAMP
    for player in sorted(range(len(table_of)), key=lambda i: (index[table_of[i]], i)):
        previous = times[player] = max(index[table_of[player]] * span / len(tables), previous + 1 / STREAM_RAMP)
    return times


async def _open_streams(ctx: Context, stop: asyncio.Event) -> list[asyncio.Task[None]]:
    """The idle streams and the players' lobby streams in the holders' process (:mod:`.holders`),
    ramping up there meanwhile; here each player's table stream, read by the player, as they sit
    down table by table over ``--arrival`` (:func:`sit_down_times`)."""
    specs = [Spec(player.account.cookie, "/events/lobby", "GET /events/lobby") for player in ctx.players]
    for i in range(ctx.args.streams):
        watcher, table = ctx.watchers[i % len(ctx.watchers)], ctx.tables[i % len(ctx.tables)]
        specs.append(Spec(watcher.cookie, *(("/events/lobby", "GET /events/lobby (idle)") if i % 2 else
                                            (f"/events/tables/{table.id}", "GET /events/tables/{id} (idle)"))))
    ctx.holders = Holders(ctx.stream_url, specs, STREAM_RAMP)
    ctx.holders.start()
    tasks, started = [], time.time()
    times = sit_down_times([player.table_id for player in ctx.players], [table.id for table in ctx.tables],
                           ctx.args.arrival)
    for player, at in sorted(zip(ctx.players, times, strict=True), key=lambda pair: pair[1]):
        await asyncio.sleep(max(0.0, started + at - time.time()))
        tasks.append(asyncio.create_task(player.account.stream(
            f"/events/tables/{player.table_id}", "GET /events/tables/{id}", player.on_table_state, stop)))
    return tasks


#: what the bench reads of the server's ``/metrics``: sample name -> the labels that tell them apart
COUNTERS = {"casino_state_builds_total": ("topic",), "casino_request_queue_seconds_sum": ("rank",),
            "casino_request_queue_seconds_count": ("rank",), "casino_gc_pause_seconds_sum": ("generation",),
            "casino_gc_pause_seconds_count": ("generation",), "casino_gc_cpu_seconds_total": ("generation",),
            "casino_request_queue_seconds_bucket": ("rank",),
            "casino_request_seconds_count": ("method", "endpoint"),
            "casino_request_seconds_bucket": ("method", "endpoint")}
#: the buckets of the histograms above the bench reads: a wait for a thread over 0.5 s
#: (``casino_request_queue_seconds``), the server's own time to answer within 100 ms (issue 10's
#: target, as the server sees it) and over a second (``casino_request_seconds``)
BUCKETS = {"casino_request_queue_seconds_bucket": ("0.5",), "casino_request_seconds_bucket": ("0.1", "1.0")}
#: the endpoints whose answers the server timed are counted for (its ``endpoint`` label)
TIMED = ("/api/tables/{id}/bets", "/api/rounds/{id}/decisions")


def _counted(name: str, labels: dict[str, str]) -> bool:
    """A sample :func:`server_counters` keeps: one of :data:`COUNTERS`, only :data:`BUCKETS`' buckets
    of a histogram, and of the server's request timings only the POSTs of :data:`TIMED`."""
    if name not in COUNTERS or labels.get("le") not in BUCKETS.get(name, (None,)):
        return False
    return not name.startswith("casino_request_seconds") or (labels["method"] == "POST" and labels["endpoint"] in TIMED)


def _bucket(name: str, le: str) -> str:
    """The key under which :func:`server_counters` keeps the bucket ``le`` of histogram sample ``name``."""
    return f"{name} le={le}"


async def server_counters(base_url: str) -> dict[tuple[str, str], float] | None:
    """The server's counters from its ``/metrics``, keyed (sample name, label): the state builds by topic
    (``table``, ``lobby``: how many reads fed the streams, issue 10: the web workers' largest cost),
    the requests' waits for a thread by rank (``decision``, ``other``: sum, count and how many
    waited no more than 0.5 s), the bets and decisions the server answered and how many within 100
    ms and within a second (by method and endpoint, summed over the statuses) and the processes' garbage-collection
    pauses by generation (sum and count); None when the server does not answer with them (another
    server, a worker killed by faults.py)."""
    from prometheus_client.parser import text_string_to_metric_families

    try:
        async with (aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session,
                    session.get(f"{base_url}/metrics") as response):
            text = await response.text() if response.status == 200 else ""
        counters: dict[tuple[str, str], float] = defaultdict(float)
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if _counted(sample.name, sample.labels):
                    name = _bucket(sample.name, sample.labels["le"]) if "le" in sample.labels else sample.name
                    counters[name, " ".join(sample.labels[label] for label in COUNTERS[sample.name])] += sample.value
        return dict(counters) or None
    except (aiohttp.ClientError, TimeoutError, ValueError):
        return None


def _from_counters(counters: dict[tuple[str, str], float], seconds: float) -> dict[str, Any]:
    """The report's ``state_builds`` (by topic, a second), ``request_queue`` (each rank's
    requests, their mean wait for a thread and how many waited over 0.5 s), ``server_answers``
    (the bets and decisions the server answered, and how many after more than a second) and
    ``gc_pauses`` (each generation's collections, their pauses from start to end, and the CPU the
    collecting threads spent in them as a share of a core, summed over the server's processes)
    from :func:`server_counters`' window."""
    report: dict[str, Any] = {}
    builds = {topic: value for (name, topic), value in counters.items() if name == "casino_state_builds_total"}
    if builds:
        report["state_builds"] = {topic: {"count": int(count), "per_second": round(count / seconds, 2)}
                                  for topic, count in sorted(builds.items())}
    queue: dict[str, dict[str, Any]] = {}
    for rank in sorted({rank for name, rank in counters if name.startswith("casino_request_queue")}):
        count = counters.get(("casino_request_queue_seconds_count", rank), 0.0)
        waited = counters.get(("casino_request_queue_seconds_sum", rank), 0.0)
        within = counters.get((_bucket("casino_request_queue_seconds_bucket", "0.5"), rank), count)
        queue[rank] = {"count": int(count), "mean_ms": round(1000 * waited / count, 1) if count else None,
                       "over_half_a_second": int(count - within)}
    if queue:
        report["request_queue"] = queue
    answered = {key: value for (name, key), value in counters.items() if name == "casino_request_seconds_count"}
    if answered:
        report["server_answers"] = {
            key: {"count": int(count),
                  "within_100_ms": int(counters.get((_bucket("casino_request_seconds_bucket", "0.1"), key), 0)),
                  "over_a_second": int(count - counters.get((_bucket("casino_request_seconds_bucket", "1.0"), key),
                                                            count))}
            for key, count in sorted(answered.items())}
    pauses = {generation: (counters.get(("casino_gc_pause_seconds_count", generation), 0.0), paused,
                           counters.get(("casino_gc_cpu_seconds_total", generation), 0.0))
              for (name, generation), paused in counters.items() if name == "casino_gc_pause_seconds_sum"}
    if pauses:
        report["gc_pauses"] = {generation: {"count": int(count), "seconds": round(paused, 3),
                                            "cpu_seconds": round(cpu, 3),
                                            "percent_of_core": round(100 * cpu / seconds, 1)}
                               for generation, (count, paused, cpu) in sorted(pauses.items())}
    return report


async def _until(condition: Callable[[], bool], ceiling: float, every: float = 0.25) -> bool:
    deadline = time.time() + ceiling
    while not condition():
        if time.time() >= deadline:
            return False
        await asyncio.sleep(every)
    return True


async def _setup_people(ctx: Context, pool: aiohttp.ClientSession, rng: random.Random) -> None:
    args, rec = ctx.args, ctx.recorder
    accounts = [Account(pool, ctx.base_url, rec, f"bench-p{i + 1:05d}", floor.PASSWORD, ctx.stream_url)
                for i in range(args.players)]
    watchers = -(-args.streams // STREAMS_PER_WATCHER)
    ctx.watchers = [Account(pool, ctx.base_url, rec, f"bench-w{i + 1:03d}", floor.PASSWORD) for i in range(watchers)]
    created = await floor.ensure_accounts(ctx.cli, accounts + ctx.watchers)
    pace = Pace(args.margin)
    ctx.players = [Player(a, ctx.tables[i % len(ctx.tables)].id, random.Random(rng.random()), rec, pace)
                   for i, a in enumerate(accounts)]
    deposits = await floor.ensure_funds(ctx.cli, [(p.account, p.table_id) for p in ctx.players], f"{ctx.started:.0f}")
    ctx.notes.append(f"setup: {created} accounts created, {deposits} deposits, {len(ctx.watchers)} watchers")


async def _play(ctx: Context, hooks: Hooks, meter: CpuMeter) -> list[dict[str, Any]]:
    """The measured window, the drain, the R8 accounting and the hooks' checks."""
    args, rec = ctx.args, ctx.recorder
    stop, sampler_stop = asyncio.Event(), asyncio.Event()
    sampler = asyncio.create_task(_sample(ctx, sampler_stop))
    streams = await _open_streams(ctx, stop)
    target = 2 * len(ctx.players) + args.streams
    if not await _until(lambda: _streams(ctx)[0] >= target, 120.0):
        ctx.notes.append(f"only {_streams(ctx)[0]} of {target} streams were open when the window started")
    counters = await server_counters(ctx.base_url)
    sessions = Sessions(args.database_url)
    sessions.start()
    meter.mark()
    rec.window = (time.time(), float("inf"))
    during = asyncio.create_task(hooks.during(ctx)) if hooks.during else None
    await asyncio.sleep(args.duration)
    rec.window = (rec.window[0], time.time())
    meter.finish()
    ctx.database_sessions = await asyncio.to_thread(sessions.stop)
    if counters is not None and (after := await server_counters(ctx.base_url)) is not None:
        ctx.counters = {key: value - counters.get(key, 0.0) for key, value in after.items()}
    if during is not None:
        await during
    ctx.players[0].pace.accepting = False
    drain = args.betting_seconds + 3 * args.decision_seconds + 30
    if not await _until(lambda: all(p.drained() for p in ctx.players), drain):
        ctx.notes.append(f"drain: some rounds still in play after {drain} s")
    checks = await hooks.before_stop(ctx) if hooks.before_stop else []
    stop.set()
    sampler_stop.set()
    for task in streams + [sampler] + [t for p in ctx.players for t in p.tasks]:
        task.cancel()
    await asyncio.gather(*streams, sampler, return_exceptions=True)
    if ctx.holders is not None:
        await ctx.holders.finish(rec)
    return checks


async def _decision_accounting(ctx: Context) -> dict[str, Any]:
    owed = automated = 0
    resolved: dict[tuple[str, int, str], bool] = {}
    gate = asyncio.Semaphore(8)

    async def one(player: Player) -> tuple[int, int, dict[tuple[str, int, str], bool]]:
        async with gate:
            return await player.resolve()

    for o, a, r in await asyncio.gather(*(one(p) for p in ctx.players)):
        owed, automated = owed + o, automated + a
        resolved.update(r)
    return ctx.recorder.decisions(owed, automated, resolved)


def _config(args: Any, others: list[str]) -> dict[str, Any]:
    keys = ("players", "tables", "pools", "streams", "duration", "arrival", "betting_seconds", "decision_seconds",
            "margin", "workers", "stream_workers", "dealers")
    config = {key: getattr(args, key) for key in keys}
    config["server"] = args.url or "started by the bench"
    if others:
        config["other_open_tables"] = len(others)
    return config


async def _run(ctx: Context, hooks: Hooks, report: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Start the processes, then the idle measurement or the players' run."""
    args, rec, supervisor = ctx.args, ctx.recorder, None
    checks: list[dict[str, Any]] = []
    load_at_start = round(os.getloadavg()[0], 2)
    try:
        if ctx.plant is not None:
            ctx.plant.start()
            supervisor = asyncio.create_task(ctx.plant.supervise())
        for url in dict.fromkeys((ctx.base_url, ctx.stream_url)):
            await wait_ready(url, ctx.plant)
        meter = cpu_meter(ctx)
        metering = asyncio.create_task(meter.run())
        async with connection_pool(2 ** 20) as pool:
            if args.idle:
                meter.mark()
                rec.window = (time.time(), float("inf"))
                await asyncio.sleep(args.duration)
                rec.window = (rec.window[0], time.time())
                meter.finish()
            else:
                await _setup_people(ctx, pool, rng)
                if (note := await asyncio.to_thread(database.fresh_statistics, args.database_url)) is not None:
                    ctx.notes.append(note)
                checks = await _play(ctx, hooks, meter)
                report["decisions"] = await _decision_accounting(ctx)
        metering.cancel()
        report["cpu"] = meter.figures()
        report["machine"] = {"cpus": os.cpu_count(), "load_average_start": load_at_start,
                             "load_average_end": round(os.getloadavg()[0], 2),
                             "busy_percent_of_core": meter.machine_percent()}
    finally:
        if ctx.plant is not None:
            ctx.plant.stop()
            report["restarts"] = dict(ctx.plant.restarts)
        if supervisor is not None:
            supervisor.cancel()
    return checks


async def measure(args: Any, hooks: Hooks | None = None, title: str = "load") -> dict[str, Any]:
    """The whole run; returns the report (see :func:`stats.render`). The processes are stopped
    before ``audit-ledger`` and the ``after`` hook run, so they see a database at rest."""
    hooks = hooks or Hooks()
    env = environment(args)
    ctx = Context(args, Recorder(), floor.Cli(args.cli, env), args.url or "", [], args.stream_url or args.url or "")
    report: dict[str, Any] = {"title": title}
    checks: list[dict[str, Any]] = []
    others: list[str] = []
    try:
        ctx.tables, others = await floor.ensure_tables(ctx.cli, args)
        if not args.url:
            ctx.plant, ctx.base_url, ctx.stream_url, log_dir = build_plant(args, env)
            ctx.notes.append(f"logs of started processes: {log_dir}")
        checks = await _run(ctx, hooks, report, random.Random(args.seed))
    except (floor.SetupError, ApiError) as error:
        report["setup_error"] = str(error)
    report["config"] = _config(args, others)
    audit = await ctx.cli.audit_ledger()
    if hooks.after is not None and "setup_error" not in report:
        checks += await hooks.after(ctx)
    return finish_report(ctx, report, checks, audit)


def finish_report(ctx: Context, report: dict[str, Any], checks: list[dict[str, Any]],
                  audit: dict[str, Any]) -> dict[str, Any]:
    rec = ctx.recorder
    if rec.window is not None and rec.window[1] != float("inf"):
        report["window_seconds"] = round(rec.seconds(), 1)
        if not ctx.args.idle:
            report["rates"] = {"requests": rec.in_window("request"), "bets": rec.in_window("bet"),
                               "decisions": rec.in_window("decision"),
                               "requests_per_second": rec.rate("request"), "bets_per_second": rec.rate("bet"),
                               "decisions_per_second": rec.rate("decision")}
            spent = report.get("cpu", {}).get(SERVER_TOTAL)
            if spent and report["rates"]["requests"]:  # the same code and load spend more on a host whose
                # cores other work shares (measured: 13 ms, then 26 ms later the same day, at 500 players)
                report["rates"]["server_cpu_ms_per_request"] = round(
                    1000 * spent["seconds"] / report["rates"]["requests"], 1)
            report["latency"] = rec.latency_table()
            report["errors"], report["late"], report["retries"] = dict(rec.errors), dict(rec.late), dict(rec.retries)
            report["streams"] = rec.streams(2 * len(ctx.players) + ctx.args.streams)
            report["event_delay"] = percentiles(rec.event_delays)
            report["loop_lag"] = percentiles(rec.loop_lags)
            report["holder_loop_lag"] = percentiles(rec.holder_lags)
            report.update(_from_counters(ctx.counters, rec.seconds()))
            report["database_sessions"] = ctx.database_sessions
        try:
            report["dealer_lag"] = database.dealer_lag(ctx.args.database_url, [t.id for t in ctx.tables],
                                                       rec.window[0], time.time(), ctx.args.showdown_pause)
        except Exception as error:  # the timestamps are a bonus: a schema change must not lose the run
            report["dealer_lag"] = {"unavailable": f"{type(error).__name__}: {error}"}
    report["audit_ledger"] = audit
    report["checks"] = checks
    report["notes"] = ctx.notes
    return report
