"""Issue 10: ``casino-holdem serve --production`` as the deploy recipe runs it (deploy/): uvicorn
workers and a dealer process on PostgreSQL — /healthz, /readyz, a bet through the API, the event
on a stream, /metrics, and a graceful stop on SIGTERM (exit 0)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import sys
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from casino_holdem.cli import main
from casino_holdem.commands.server import STREAM_NICENESS
from support.app import POSTGRES_URL, empty_all_tables, make_app
from support.casino import PASSWORD
from support.server import START_SECONDS, answers, free_port, serving, wait_until
from support.streams import Stream
from support.web import WebCasino

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def sqlite_settings(tmp_path: Path, monkeypatch) -> None:
    """The settings a ``serve`` needs to start: a SQLite database of the test's own and a secret key."""
    monkeypatch.setenv("CASINO_DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    monkeypatch.setenv("CASINO_SECRET_KEY", "test")


def test_production_refuses_a_database_its_processes_cannot_share(sqlite_settings: None) -> None:
    result = CliRunner().invoke(main, ["serve", "--production"])
    assert result.exit_code == 2 and "CASINO_DATABASE_URL" in result.output


def test_production_refuses_streams_on_the_web_workers_port(sqlite_settings: None) -> None:
    result = CliRunner().invoke(main, ["serve", "--production", "--port", "8000", "--stream-workers", "1",
                                       "--stream-port", "8000"])
    assert result.exit_code == 2 and "--stream-port" in result.output


class _Started:
    """Stands in for ``serve --production``'s children and uvicorn: records what would run. A
    Redis URL is set, as production needs one on SQLite for its processes to share events."""

    def __init__(self, monkeypatch) -> None:
        import uvicorn

        from casino_holdem.commands import children

        self.commands: list[list[str]] = []
        started = self

        class Children:
            def __init__(self, commands: list[list[str]]) -> None:
                started.commands = [list(command) for command in commands]

            def start(self) -> None: ...

            def stop(self) -> None: ...

        monkeypatch.setenv("CASINO_REDIS_URL", "redis://127.0.0.1:6379/0")
        monkeypatch.setattr(children, "Children", Children)
        monkeypatch.setattr(uvicorn, "run", lambda *_args, **_kwargs: None)


@pytest.mark.parametrize(("arguments", "nice"), [
    (["--stream-workers", "1"], "10"),                          # the default
    (["--stream-workers", "1", "--stream-nice", "3"], "3"),
    (["--stream-workers", "1", "--stream-nice", "0"], "0"),     # the web workers' priority
])
def test_the_streams_workers_run_below_the_web_workers(sqlite_settings: None, monkeypatch, arguments: list[str],
                                                       nice: str) -> None:
    """Issue 10: on a machine whose cores are all busy, the bets and decisions (which hold row
    locks) run before the streams' frames: the streams' server is started ``--stream-nice``
    levels lower (the PostgreSQL test below checks the running process)."""
    started = _Started(monkeypatch)
    result = CliRunner().invoke(main, ["serve", "--production", "--dealers", "1", *arguments])
    assert result.exit_code == 0, result.output
    dealer, streams = started.commands
    assert "--nice" not in dealer
    assert streams[-2:] == ["--nice", nice] and "--dealers" in streams


def test_nice_lowers_the_whole_servers_priority_before_it_starts_anything(sqlite_settings: None, monkeypatch) -> None:
    """``serve --nice N`` is nice(1) built in: the server and every process it starts run N levels lower."""
    started, lowered = _Started(monkeypatch), []
    monkeypatch.setattr(os, "nice", lambda levels: lowered.append((levels, list(started.commands))))
    result = CliRunner().invoke(main, ["serve", "--production", "--nice", "2"])
    assert result.exit_code == 0, result.output
    assert lowered == [(2, [])] and started.commands  # lowered first, then the children were started


@pytest.mark.parametrize("value", ["-1", "20", "x"])
def test_a_niceness_outside_nice_levels_is_refused(sqlite_settings: None, value: str) -> None:
    for option in ("--stream-nice", "--nice"):
        result = CliRunner().invoke(main, ["serve", "--production", option, value])
        assert result.exit_code == 2 and option in result.output


def _niceness_of_server_on(port: int) -> int:
    """The nice level of the ``serve`` process listening on ``port`` (found by its command line)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                arguments = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"serve" in arguments and (b"--port", str(port).encode()) in zip(arguments, arguments[1:], strict=False):
                return os.getpriority(os.PRIO_PROCESS, int(entry.name))
    raise AssertionError(f"no serve process on port {port}")


def _unit_command() -> tuple[list[str], int]:
    """The arguments deploy/casino-web.service gives ``casino-holdem``, but its port (the test picks
    a free one), and the port its event streams are served on (a free one too: the unit's streams
    have workers of their own, on the next port, where nginx sends ``/events/``)."""
    unit = (ROOT / "deploy" / "casino-web.service").read_text()
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    arguments = start.split()[1:]
    assert arguments[-2] == "--port" and "--stream-workers" in arguments and "--stream-port" not in arguments
    stream_port = free_port()
    return [*arguments[:-2], "--stream-port", str(stream_port)], stream_port


class Browser:
    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.token = self.call("GET", "/api/session")["csrf_token"]

    def call(self, method: str, path: str, body: object = None) -> dict:
        request = urllib.request.Request(self.base + path, method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json",
                                                  **({"X-CSRF-Token": self.token} if method != "GET" else {})})
        with self.opener.open(request, timeout=60) as response:
            return json.loads(response.read())

    def cookie(self) -> str:
        return next(cookie.value for cookie in self.cookies if cookie.name == "session")

    def text(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=60) as response:
            return response.read().decode()


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="CASINO_TEST_DATABASE_URL is not set")
def test_serve_production_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    app = make_app(postgres_url)
    empty_all_tables(app)
    casino = WebCasino(app)
    with app.app_context():
        table = casino.table(betting_seconds=600)
        casino.player("alice")
    env = {**os.environ, "CASINO_DATABASE_URL": postgres_url, "CASINO_SECRET_KEY": "test", "CASINO_SECURE_COOKIES": "0"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    arguments, stream_port = _unit_command()
    command = [sys.executable, "-m", "casino_holdem", *arguments]
    with serving(command, cwd=ROOT, env=env, log=tmp_path / "server.log") as base:
        browser = Browser(base)
        assert browser.text("/healthz") == "ok" and browser.text("/readyz") == "ready"
        browser.token = browser.call("POST", "/api/session", {"username": "alice", "password": PASSWORD}
                                     )["csrf_token"]
        host, _ = base.removeprefix("http://").split(":")
        wait_until(lambda: answers(f"http://{host}:{stream_port}/healthz"), seconds=START_SECONDS,
                   what="the streams' workers")
        own = os.getpriority(os.PRIO_PROCESS, 0)
        assert _niceness_of_server_on(stream_port) == min(19, own + STREAM_NICENESS)
        assert _niceness_of_server_on(int(base.rsplit(":", 1)[1])) == own
        stream = Stream((host, stream_port), f"/events/tables/{table}", browser.cookie())
        try:
            stream.state(where=lambda state: state["round"] is not None)
            browser.call("POST", f"/api/tables/{table}/bets", {"ante": "10", "request_id": "prod-1"})
            seen = stream.state(where=lambda state: state["round"]["bettor_count"] == 1)
            assert seen["round"]["you"]["has_bet"] is True
        finally:
            stream.close()
        scraped = browser.text("/metrics")
        assert "casino_bets_total 1.0" in scraped and "casino_request_seconds_bucket" in scraped
        assert 'casino_pool_amount{pool="' in scraped and 'casino_state_builds_total{topic="table"}' in scraped
        assert 'casino_gc_pause_seconds_count{generation="2"}' in scraped  # the processes settled their collectors
        assert 'casino_gc_cpu_seconds_total{generation="2"}' in scraped


@pytest.mark.parametrize(("arguments", "field"), [
    (["--port", "65535", "--stream-workers", "1"], "--stream-port"),   # the next port does not exist
    (["--port", "65536"], "--port"),
    (["--port", "0"], "--port"),
    (["--stream-workers", "1", "--stream-port", "65536"], "--stream-port"),
])
def test_production_refuses_a_port_that_does_not_exist(sqlite_settings: None, arguments: list[str],
                                                       field: str) -> None:
    result = CliRunner().invoke(main, ["serve", "--production", *arguments])
    assert result.exit_code == 2 and field in result.output
