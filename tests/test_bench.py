"""The load and fault instruments (``bench/load.py``, ``bench/faults.py``) in their ``--smoke``
size, against a fresh PostgreSQL database: they set the floor up through the CLI, start the
server and a dealer, play through the public API and event streams, and stop what they started.

The smoke load meets no error and leaves the ledger sound; the smoke faults (the web server and a
dealer killed with SIGKILL mid-run) leave no round stuck (R8: every window closes and the round
goes on), the ledger and pools whole and every settled round replayable. Each run has its own
generous ceiling: the machine is shared. ``bench/request_cost.py`` (the CPU and statements of one
request, beside the driver's floor) runs at three players.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_URL = os.environ.get("CASINO_TEST_DATABASE_URL")
#: per instrument run: setup (a fresh database creates its players through the CLI) + 30 s + checks
CEILING = 900

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not POSTGRES_URL, reason="CASINO_TEST_DATABASE_URL is not set")]


@pytest.fixture(scope="module")
def bench_database() -> Iterator[str]:
    """A database of its own (the instruments migrate it), dropped at the end."""
    for module in ("aiohttp", "psutil"):
        pytest.importorskip(module, reason="the bench extra is not installed: pip install -e '.[bench]'")
    import psycopg

    server, _, _ = (POSTGRES_URL or "").rpartition("/")
    name = f"casino_bench_{uuid.uuid4().hex[:12]}"
    plain = server.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield f"{server}/{name}"
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run_smoke(script: str, database_url: str, tmp_path: Path) -> tuple[int, dict[str, Any], str]:
    out = tmp_path / f"{script}.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / script), "--smoke", "--seed", "7",
                             "--database-url", database_url, "--json", str(out), "--log-dir", str(tmp_path / "logs")],
                            capture_output=True, text=True, timeout=CEILING, cwd=ROOT, check=False)
    output = result.stdout + result.stderr
    report = json.loads(out.read_text()) if out.exists() else {}
    return result.returncode, report, output


def test_load_smoke_has_no_errors_and_a_sound_ledger(bench_database: str, tmp_path: Path) -> None:
    code, report, output = run_smoke("load.py", bench_database, tmp_path)
    assert code == 0, output
    assert report["errors"] == {}, output
    assert report["audit_ledger"]["sound"], output
    assert report["rates"]["bets"] > 0 and report["rates"]["decisions"] > 0, output
    assert report["config"]["arrival"] == 10.0, output  # the tables filled one after another
    assert report["streams"]["delivering_max"] == report["streams"]["target"], output
    # the streams nobody reads are held by a process of their own, timed and counted with the rest
    assert report["holder_loop_lag"]["count"] > 0, output
    assert any(label.startswith("GET /events/lobby (idle) (first event)") for label in report["latency"]), output
    assert len([name for name in report["cpu"] if name.startswith("  bench client pid")]) == 2, output
    assert report["cpu"]["server"]["seconds"] > 0 and report["cpu"]["PostgreSQL"]["seconds"] > 0, output
    assert report["machine"]["busy_percent_of_core"] > 0, output
    assert report["rates"]["server_cpu_ms_per_request"] > 0 and "server CPU per request" in output, output
    assert report["state_builds"]["table"]["count"] > 0, output  # the server's casino_state_builds_total
    assert report["request_queue"]["decision"]["count"] > 0, output  # casino_request_queue_seconds, R8
    assert report["request_queue"]["decision"]["over_half_a_second"] >= 0 and "over 0.5 s" in output, output
    # the server's own count of the bets and decisions it answered late (casino_request_seconds)
    answers = report["server_answers"]
    assert answers["POST /api/rounds/{id}/decisions"]["count"] > 0, output
    assert answers["POST /api/tables/{id}/bets"]["over_a_second"] >= 0 and "after more than a second" in output, output
    assert 0 <= answers["POST /api/tables/{id}/bets"]["within_100_ms"] <= answers["POST /api/tables/{id}/bets"]["count"]
    assert "2" in report["gc_pauses"], output  # casino_gc_pause_seconds: the processes settled their collectors
    assert report["gc_pauses"]["2"]["cpu_seconds"] >= 0 and "s of CPU" in output, output  # casino_gc_cpu_seconds
    # what the transactions waited for, from PostgreSQL's own view of its sessions
    assert report["database_sessions"]["looks"] > 0 and "database sessions in a transaction" in output, output


def test_faults_smoke_r8_no_round_stuck_and_money_whole_after_kills(bench_database: str, tmp_path: Path) -> None:
    code, report, output = run_smoke("faults.py", bench_database, tmp_path)
    assert code == 0, output
    assert report["passed"], output
    assert {check["name"] for check in report["checks"]} >= {
        "audit-ledger sound", "no round stuck", "wallets equal their postings", "pools equal their history",
        "replay of every settled round identical", "every killed process running again"}
    kills = [fault["what"] for fault in report["faults"] if "pid" in fault]
    assert len(kills) == 2 and kills[1] == "kill -9 a dealer", output


def test_the_bench_analyzes_a_database_whose_server_does_not(bench_database: str) -> None:
    """With autovacuum off (this machine's cluster) nothing ever analyzes the tables a run fills,
    and the planner's default estimates turned an indexed read into a scan of the whole table: the
    bench analyzes after its set-up, as autovacuum would have. With autovacuum on it leaves the
    statistics to the server."""
    database = _bench_module("database")
    with database.connect(bench_database) as connection:
        connection.execute("CREATE TABLE IF NOT EXISTS bench_statistics (id integer)")
        connection.execute("INSERT INTO bench_statistics SELECT generate_series(1, 100)")
        autovacuum = connection.execute("SHOW autovacuum").fetchone()
    note = database.fresh_statistics(bench_database)
    with database.connect(bench_database) as connection:
        analyzed = connection.execute("SELECT last_analyze FROM pg_stat_user_tables "
                                      "WHERE relname = 'bench_statistics'").fetchone()
        connection.execute("DROP TABLE bench_statistics")
    if autovacuum == ("on",):
        assert note is None
    else:
        assert note is not None and note.startswith("PostgreSQL's autovacuum is off")
        assert analyzed is not None and analyzed[0] is not None


@pytest.mark.parametrize(("state", "wait_type", "wait_event", "kind"), [
    ("idle in transaction", "Client", "ClientRead", "waiting for the server's next statement"),
    ("idle in transaction (aborted)", "Client", "ClientRead", "waiting for the server's next statement"),
    ("active", "Lock", "tuple", "waiting on a lock"),
    ("active", "Lock", "transactionid", "waiting on a lock"),
    ("active", "IO", "WALSync", "writing the commit"),
    ("active", "LWLock", "WALWrite", "writing the commit"),
    ("active", None, None, "running or another wait"),
    ("active", "IO", "DataFileRead", "running or another wait"),
    ("idle", "Client", "ClientRead", None),
])
def test_a_database_session_in_a_transaction_waits_for_its_client_a_lock_the_commit_or_runs(
        state: str, wait_type: str | None, wait_event: str | None, kind: str | None) -> None:
    assert _bench_module("sessions").kind_of(state, wait_type, wait_event) == kind


def test_the_sessions_are_averaged_over_the_looks_and_the_lock_waits_named_by_table() -> None:
    sessions = _bench_module("sessions").Sessions("postgresql://unused")
    sessions.add([("idle in transaction", "Client", "ClientRead", "SELECT 1"),
                  ("active", "Lock", "tuple", "SELECT rounds.id FROM rounds WHERE rounds.id = 1 FOR UPDATE"),
                  ("active", "Lock", "transactionid", "UPDATE jackpot_pools SET amount = amount + 1")])
    sessions.add([("idle in transaction", "Client", "ClientRead", "COMMIT"),
                  ("active", "Lock", "tuple", "SELECT rounds.id FROM rounds FOR UPDATE"), ("idle", None, None, "")])
    figures = sessions.figures()
    assert figures["looks"] == 2 and figures["in_transaction"] == 2.5
    assert figures["kinds"] == {"waiting for the server's next statement": 1.0, "waiting on a lock": 1.5,
                                "writing the commit": 0.0, "running or another wait": 0.0}
    assert figures["lock_waits"] == {"rounds": 1.0, "jackpot_pools": 0.5}


def test_the_sessions_seen_in_postgresql_one_idle_in_its_transaction_one_waiting_on_its_lock(
        bench_database: str) -> None:
    """The looks at ``pg_stat_activity`` itself: a transaction that holds a row and sends nothing
    more waits for its client; another that updates the row waits on the lock."""
    database, sessions_module = _bench_module("database"), _bench_module("sessions")
    with database.connect(bench_database) as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS bench_locked (id integer PRIMARY KEY, n integer)")
        setup.execute("INSERT INTO bench_locked VALUES (1, 0) ON CONFLICT DO NOTHING")
    holder = database.connect(bench_database)
    holder.autocommit = False
    holder.execute("UPDATE bench_locked SET n = n + 1 WHERE id = 1")

    def wait_on_the_row() -> None:
        with database.connect(bench_database) as other:
            other.execute("UPDATE bench_locked SET n = n + 1 WHERE id = 1")

    waiter = threading.Thread(target=wait_on_the_row)
    waiter.start()
    sessions = sessions_module.Sessions(bench_database)
    sessions.start()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and sessions.locks["bench_locked"] < 5:
            time.sleep(0.05)
    finally:
        figures = sessions.stop()
        holder.commit()
        holder.close()
        waiter.join(timeout=60)
        with database.connect(bench_database) as cleanup:
            cleanup.execute("DROP TABLE bench_locked")
    assert figures["looks"] >= 5
    assert figures["kinds"]["waiting for the server's next statement"] >= 0.5
    assert figures["kinds"]["waiting on a lock"] >= 0.5 and "bench_locked" in figures["lock_waits"]


def test_the_cost_of_one_request_beside_the_drivers_floor(bench_database: str, tmp_path: Path) -> None:
    """``bench/request_cost.py``: CPU and statements per endpoint, and the driver's own floor, in one run."""
    out = tmp_path / "requests.json"
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "request_cost.py"), "--players", "3",
                             "--database-url", bench_database, "--json", str(out)],
                            capture_output=True, text=True, timeout=CEILING, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = {row["what"]: row for row in json.loads(out.read_text())}
    assert set(rows) == {"psycopg: SELECT 1", "SQLAlchemy Core: SELECT 1", "GET /api/tables/{id}",
                         "POST /api/tables/{id}/bets", "POST /api/rounds/{id}/decisions",
                         "one state build for 3 streams", "the dealer's wake read (dealer.due)"}
    assert all(row["cpu_ms"] > 0 for row in rows.values())
    assert rows["POST /api/tables/{id}/bets"]["statements"] > rows["GET /api/tables/{id}"]["statements"] > 1


@pytest.mark.parametrize(("arguments", "field"), [(["--database-url", "sqlite:///x.db"], "--database-url"),
                                                  (["--database-url", "postgresql://10.1.2.3/x"], "--database-url"),
                                                  (["--database-url", "postgresql://127.0.0.1/x", "--players", "0"],
                                                   "--players")])
def test_the_request_cost_bench_refuses_bad_options_naming_them(arguments: list[str], field: str) -> None:
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "request_cost.py"), *arguments],
                            capture_output=True, text=True, timeout=CEILING, cwd=ROOT, check=False)
    assert result.returncode == 2 and result.stderr.startswith(field), result.stderr


def _bench_module(name: str, *, script: bool = False) -> Any:
    """One of the bench's ``loadlib`` modules, or with ``script`` one of its scripts
    (``bench/`` is not a package)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        return importlib.import_module(name if script else f"loadlib.{name}")
    finally:
        sys.path.remove(str(ROOT / "bench"))


@pytest.mark.parametrize(("arguments", "field"), [
    (["--stream-workers", "17"], "--stream-workers"),
    (["--arrival", "-1"], "--arrival"),
    (["--stream-url", "http://127.0.0.1:9"], "--stream-url"),  # only with --url: a started server says where
    (["--url", "http://127.0.0.1:9", "--stream-url", "http://10.1.2.3:9"], "--stream-url")])
def test_the_load_bench_refuses_bad_stream_options_naming_them(arguments: list[str], field: str) -> None:
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "load.py"), "--database-url",
                             "postgresql://127.0.0.1/x", *arguments],
                            capture_output=True, text=True, timeout=CEILING, cwd=ROOT, check=False)
    assert result.returncode == 2 and result.stderr.startswith(field), result.stderr


@pytest.mark.parametrize(("template", "apart"), [
    ("{cli} serve --production --workers {workers} --host {host} --port {port}", False),
    ("{cli} serve --production --stream-workers {stream_workers} --stream-port {stream_port} --port {port}", True)])
def test_the_load_bench_opens_streams_where_its_server_command_serves_them(template: str, apart: bool) -> None:
    """A --server-cmd without the streams' port serves them on its own port, whatever --stream-workers says."""
    options, run = _bench_module("options"), _bench_module("run")
    args = options.resolve(options.parser("").parse_args(
        ["--database-url", "postgresql://127.0.0.1/x", "--server-cmd", template]))
    argv, production, streams_apart = run.server_argv(args, 8000, {}, 8001)
    assert production and streams_apart is apart and ("8001" in argv) is apart


@pytest.mark.parametrize(("table_of", "tables", "span", "times"), [
    # two tables over 10 s: the first table's players at once (a stream ramp step apart), the second's at 5 s
    ([1, 2, 1, 2], [1, 2], 10.0, [0.0, 5.0, 0.005, 5.005]),
    # a flash crowd (span 0): everyone at once, one ramp step apart, in the players' order
    ([1, 2, 1], [1, 2], 0.0, [0.0, 0.01, 0.005]),
    # four tables over 40 s: table k of 4 at 10·k s, whatever order the players are listed in
    ([4, 3, 2, 1], [1, 2, 3, 4], 40.0, [30.0, 20.0, 10.0, 0.0]),
    # a span too short for the ramp: the ramp step wins
    ([1, 2], [1, 2], 0.004, [0.0, 0.005]),
])
def test_the_tables_fill_one_after_another_so_they_deal_out_of_phase(
        table_of: list[int], tables: list[int], span: float, times: list[float]) -> None:
    run = _bench_module("run")
    assert run.sit_down_times(table_of, tables, span) == pytest.approx(times)


@pytest.mark.parametrize(("arguments", "arrival"), [
    ([], 10 + 3 * 10 + 6.0),  # one round: betting, three decision windows (R8), the showdown pause (R2.7)
    (["--betting-seconds", "5", "--decision-seconds", "4", "--showdown-pause", "0"], 17.0),
    (["--arrival", "0"], 0.0),
    (["--smoke"], 10.0)])
def test_the_tables_fill_over_one_round_unless_told(arguments: list[str], arrival: float) -> None:
    options = _bench_module("options")
    args = options.resolve(options.parser("").parse_args(["--database-url", "postgresql://127.0.0.1/x", *arguments]))
    assert args.arrival == arrival


SPAWNED = ["python3", "-B", "-c", "from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=7)",
           "--multiprocessing-fork"]
SERVE = ["casino-holdem", "serve", "--production", "--workers", "2", "--stream-workers", "1"]
STREAMS = ["python3", "-m", "casino_holdem", "serve", "--production", "--port", "8001", "--workers", "1"]
DEALER = ["python3", "-m", "casino_holdem", "dealer", "--json-logs"]
TRACKER = ["python3", "-B", "-c", "from multiprocessing.resource_tracker import main;main(6)"]


@pytest.mark.parametrize(("tree", "workers"), [
    # serve --production --workers 2 --stream-workers 1 --dealers 1: its two workers and the streams' server
    ([(10, 1, SERVE), (11, 10, DEALER), (12, 10, STREAMS), (13, 10, TRACKER), (14, 10, SPAWNED),
      (15, 10, SPAWNED)], {14: "a web worker", 15: "a web worker", 12: "the streams' server"}),
    # the streams' server with two workers of its own: they answer, it does not
    ([(10, 1, SERVE), (12, 10, STREAMS), (16, 12, SPAWNED), (17, 12, SPAWNED), (14, 10, SPAWNED)],
     {16: "a streams' worker", 17: "a streams' worker", 14: "a web worker"}),
    # a server in one process (the development server): the server itself
    ([(10, 1, SERVE)], {10: "the web server (it has no separate workers)"}),
    ([(10, 1, SERVE), (11, 10, DEALER)], {10: "the web server (it has no separate workers)"}),
])
def test_faults_kill_a_web_worker_never_a_dealer_or_the_resource_tracker(tree: list[Any],
                                                                         workers: dict[int, str]) -> None:
    """``bench/faults.py``'s "kill -9 a web worker" picks among the processes that answer HTTP, and
    its report names the one it killed (the streams' server's streams reconnect, a web worker's
    requests are answered by the other)."""
    procs = _bench_module("procs")
    assert procs.web_workers(tree) == workers


@pytest.mark.parametrize(("killed", "restarts", "passed"), [
    (["kill -9 a web worker", "kill -9 the streams' server", "kill -9 a streams' worker"], 0, True),
    (["kill -9 a dealer", "kill -9 the web server (it has no separate workers)"], 2, True),
    (["kill -9 a dealer", "kill -9 the streams' server"], 0, False),
])
def test_faults_the_bench_restarts_what_it_owns_and_the_server_repairs_the_rest(killed: list[str], restarts: int,
                                                                                passed: bool) -> None:
    """The restart check counts the processes the bench started (the server, its dealers), not those
    the server starts again itself (uvicorn's workers, its streams' server)."""
    faults = _bench_module("faults", script=True)
    done = [{"at": 8.0 * n, "what": what, "pid": 100 + n} for n, what in enumerate(killed)]
    check = faults._restart_check({"restarts": {"dealer-1": restarts}}, done)
    assert check["passed"] is passed, check


@pytest.mark.parametrize(("group", "command", "own", "named"), [
    ("server", SPAWNED, False, "web worker"),
    ("server", [*STREAMS, "--dealers", "0", "--nice", "10"], False, "streams' worker"),
    ("server", DEALER, False, "dealer"),
    ("dealer-1", ["casino-holdem", "dealer"], False, "dealer"),
    ("server", SERVE, False, "supervisor"),
    ("server", TRACKER, False, "resource tracker"),
    ("server", ["python3", "something-else"], False, ""),
    ("bench client", ["python", "bench/load.py"], True, "players"),
    ("bench client", SPAWNED, False, "stream holders"),
])
def test_the_cpu_meter_says_what_each_process_is(group: str, command: list[str], own: bool, named: str) -> None:
    """The report's CPU line of each process names it, so the streams' worker and the web workers
    are told apart."""
    assert _bench_module("procs").role(group, command, own=own) == named


def test_the_cpu_meter_counts_postgresql_and_the_machine_apart_from_the_server() -> None:
    """PostgreSQL's processes share the cores with the server, so the report shows them, but as
    one figure (a backend per connection) and outside the server's total, which the server's CPU
    per request is reckoned from; the machine's busy share says how much of the cores was left."""
    procs = _bench_module("procs")
    meter = procs.CpuMeter({})
    meter.first = {1: 1.0, 2: 0.0, 3: 0.0, 4: 0.0, 5: 2.0}
    meter.last = {1: ("server", 3.0), 2: ("server", 1.0), 3: (procs.DATABASE, 0.5), 4: (procs.DATABASE, 0.25),
                  5: (procs.CLIENT, 2.5)}
    meter.marked, meter.stopped, meter.busy = 100.0, 110.0, [50.0, 62.0]
    meter.roles = {1: "web worker"}
    figures = meter.figures()
    assert figures[procs.SERVER_TOTAL]["seconds"] == figures["server"]["seconds"] == 3.0
    assert figures["  server pid 1 (web worker)"]["seconds"] == 2.0
    assert figures["  server pid 2"]["seconds"] == 1.0
    assert figures[procs.DATABASE] == {"seconds": 0.75, "percent_of_core": 7.5}
    assert not [name for name in figures if name.startswith(f"  {procs.DATABASE}")]
    assert meter.machine_percent() == 120.0


def _serve_once(answer: list[bytes]) -> Any:
    """A server that answers one connection with ``answer``'s pieces, a moment apart, then closes it."""
    import asyncio

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        for piece in answer:
            writer.write(piece)
            await writer.drain()
            await asyncio.sleep(0.01)
        writer.close()

    return asyncio.start_server(handle, "127.0.0.1", 0)


STATE = b"retry: 1000\n\nevent: state\ndata: {\"tables\": []}\n\n"


@pytest.mark.parametrize(("answer", "live", "error"), [
    # a stream: its first event comes in two reads, inside a chunk; later frames are dropped unread
    ([b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n", b"%x\r\n" % len(STATE) + STATE[:20],
      STATE[20:] + b"\r\n", b"1d\r\nevent: state\ndata: {}\n\n\r\n" * 3, b"0\r\n\r\n"], 1, None),
    # a refusal: timed, and counted by its kind
    ([b'HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: 62\r\n\r\n',
      b'{"error": {"code": "streams", "message": "streams: too many"}}'], 0,
     "429 GET /events/lobby: streams: too many"),
])
def test_the_holders_time_a_streams_first_event_and_drop_the_rest(answer: list[bytes], live: int,
                                                                 error: str | None) -> None:
    """The streams nobody reads are held as bytes (``bench/loadlib/holders.py``): the first ``state``
    event is timed once it has come whole, a refusal is counted as an error of its kind, and the
    stream's counts go back down when the server closes it."""
    import asyncio

    holders, stats = _bench_module("holders"), _bench_module("stats")
    rec = stats.Recorder()
    seen_live: list[int] = []

    async def hold() -> None:
        server = await _serve_once(answer)
        port = server.sockets[0].getsockname()[1]
        request = b"GET /events/lobby HTTP/1.1\r\n\r\n"
        holding = asyncio.create_task(holders._connection("127.0.0.1", port, request, "GET /events/lobby", rec))
        while not holding.done():
            seen_live.append(rec.streams_live)
            await asyncio.sleep(0.005)
        await holding
        server.close()

    asyncio.run(hold())
    assert max(seen_live) == live and rec.streams_live == rec.streams_open == 0
    assert len(rec.latencies["GET /events/lobby (first event)"]) == live
    assert list(rec.errors) == ([error] if error else [])
