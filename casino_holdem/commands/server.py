"""The server operator's commands: ``init-db``, ``serve`` and ``dealer``."""

from __future__ import annotations

import logging
import signal
import threading
from typing import TYPE_CHECKING, Any

import click

from .context import make_app
from .figures import CHILD_STOP_SECONDS, start_worker

#: the highest TCP port
MAX_PORT = 65535
#: how much lower than the web workers' the streams' workers' CPU priority is by default (nice
#: levels, ``--stream-nice``): on a machine whose cores are all busy, the requests that hold row
#: locks (bets, decisions) run first and the frames wait (README, *Deploying*)
STREAM_NICENESS = 10

if TYPE_CHECKING:
    from flask import Flask


def _upgrade(app: Flask) -> None:
    from flask_migrate import upgrade

    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)


def _demo(app: Flask) -> dict[str, Any]:
    from ..services.demo import ensure_demo_data

    with app.app_context():
        return ensure_demo_data(betting_seconds=app.config["CASINO_BETTING_SECONDS"],
                                decision_seconds=app.config["CASINO_DECISION_SECONDS"])


def _echo_demo(data: dict[str, Any]) -> None:
    click.echo(f"demo data: players {', '.join(data['players'])}; pool {data['pool']}; "
               f"tables {', '.join(data['tables'])}")
    click.echo(f"demo operators (password 'demo', sign in at /operator/login): {', '.join(data['operators'])}")


def _stop_on_signals(stop: threading.Event) -> None:
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.set())


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


def _bots(enabled: bool) -> Any:
    from ..services.dealer import Bots

    return Bots() if enabled else None


@click.command("init-db")
@click.option("--demo", is_flag=True, help="Also create demo players (demo1..demo5, password 'demo'), bots, "
                                           "demo operators (pit1, manager1, manager2, auditor1, dealer1, "
                                           "password 'demo') and three tables sharing one seeded jackpot pool.")
def init_db(demo: bool) -> None:
    """Create or upgrade the database schema (idempotent)."""
    app = make_app()
    _upgrade(app)
    click.echo(f"database ready: {app.config['SQLALCHEMY_DATABASE_URI'].split('@')[-1]}")
    if demo:
        _echo_demo(_demo(app))


def _json_logs() -> None:
    """Structured logs for production: one JSON object per line (python-json-logger)."""
    from pythonjsonlogger.json import JsonFormatter

    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
                                       rename_fields={"asctime": "time", "levelname": "level"}))
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)


def _observe(step: Any, deadline: Any) -> None:
    from .. import metrics
    from ..models import utcnow

    metrics.ROUNDS.labels(step.event).inc()
    if deadline is not None:
        metrics.DEALER_LAG.observe(max(0.0, (utcnow() - deadline).total_seconds()))


@click.command("dealer")
@click.option("--bots/--no-bots", default=False, help="Let the demo bots play on demo tables.")
@click.option("--json-logs", is_flag=True, help="Log one JSON object per line (production).")
def dealer(bots: bool, json_logs: bool) -> None:
    """Run the dealer loop over all tables until SIGTERM/SIGINT, which lets the step in progress
    finish (safe to run several at once; each sleeps until a deadline or a notification), and
    the background worker of the paytables' exact RTP figures (``CASINO_FIGURES_POLL``)."""
    from .. import collector, metrics
    from ..core.hand_classes import lookup_tables
    from ..services import dealer as dealer_loop

    if json_logs:
        _json_logs()
    else:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = make_app()
    metrics.register()
    stop = threading.Event()
    _stop_on_signals(stop)
    figures = start_worker(app, stop)      # the exact RTP figures of new paytable versions
    lookup_tables()
    collector.settle()                     # what the process keeps is loaded (issue 10)
    dealer_loop.run(app, stop=stop, bots=_bots(bots), observe=_observe)
    if figures is not None:
        figures.thread.join(timeout=CHILD_STOP_SECONDS + 5)


def _production(host: str, port: int, workers: int, dealers: int, stream_workers: int,
                stream_port: int | None, stream_nice: int) -> None:
    """uvicorn with ``workers`` processes serving :func:`casino_holdem.asgi.production`, and
    ``dealers`` dealer processes. With ``stream_workers``, a second such server of that many
    processes on ``stream_port`` (default ``port`` + 1), for the proxy to send the event streams
    to (``/events/``): the web workers then answer the requests without the streams' fan-out
    (the states' builds and the frames' sends) taking their interpreter, and each table's state is
    built by the stream workers only (issue 10, README *Deploying*), ``stream_nice`` levels below
    the web workers' CPU priority (:data:`STREAM_NICENESS`). SIGTERM/SIGINT: uvicorn stops
    taking connections and finishes the requests in flight, then each dealer finishes its current
    step; exit 0."""
    import sys
    import tempfile

    import uvicorn

    from .. import settings
    from .children import Children
    from .terminal import fail

    app = make_app()  # a bad setting is one line and exit 2 before anything starts
    stream_port = stream_port or port + 1
    if stream_workers and stream_port == port:
        fail("--stream-port: must differ from --port (the streams' workers listen on a port of their own)")
    if stream_workers and stream_port > MAX_PORT:
        fail(f"--stream-port: required when --port is {port} (the next port, the default, is beyond {MAX_PORT})")
    if not settings.value("CASINO_REDIS_URL") and not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        fail("CASINO_DATABASE_URL: --production needs PostgreSQL (or CASINO_REDIS_URL) so its processes share events")
    if not settings.metrics_dir():
        settings.use_metrics_dir(tempfile.mkdtemp(prefix="casino-metrics-"))
    _json_logs()
    commands = [[sys.executable, "-m", "casino_holdem", "dealer", "--json-logs"]] * dealers
    if stream_workers:
        commands.append([sys.executable, "-m", "casino_holdem", "serve", "--production", "--host", host,
                         "--port", str(stream_port), "--workers", str(stream_workers), "--dealers", "0",
                         "--nice", str(stream_nice)])
    children = Children(commands)
    children.start()
    proxies = settings.value("CASINO_TRUSTED_PROXIES")
    try:
        uvicorn.run("casino_holdem.asgi:production", factory=True, host=host, port=port, workers=workers,
                    proxy_headers=bool(proxies), forwarded_allow_ips="*" if proxies else None, log_config=None,
                    timeout_graceful_shutdown=5, timeout_keep_alive=settings.value("CASINO_KEEPALIVE_SECONDS"))
    finally:
        children.stop()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, MAX_PORT))
@click.option("--demo", is_flag=True, help="Migrate, create the demo data and let the bots play.")
@click.option("--bots/--no-bots", default=None, help="Demo bots (default: on with --demo).")
@click.option("--production", is_flag=True, help="uvicorn workers (asynchronous event streams) and dealer "
                                                 "processes, JSON logs, /healthz /readyz /metrics.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64), help="With --production.")
@click.option("--dealers", default=1, show_default=True, type=click.IntRange(0, 16), help="With --production.")
@click.option("--stream-workers", default=0, show_default=True, type=click.IntRange(0, 64),
              help="With --production: workers of their own for the event streams, on --stream-port (the proxy "
                   "sends /events/ there); 0: the web workers serve them.")
@click.option("--stream-port", type=click.IntRange(1, MAX_PORT), help="With --stream-workers (default: --port + 1).")
@click.option("--stream-nice", default=STREAM_NICENESS, show_default=True, type=click.IntRange(0, 19),
              help="With --stream-workers: how many nice levels below the web workers the streams' workers run "
                   "(their frames wait while bets and decisions need the cores); 0: the same priority.")
@click.option("--nice", "niceness", default=0, show_default=True, type=click.IntRange(0, 19),
              help="Lower this server's CPU priority first, as nice(1) does; the processes it starts inherit it.")
def serve(host: str, port: int, demo: bool, bots: bool | None, production: bool, workers: int, dealers: int,
          stream_workers: int, stream_port: int | None, stream_nice: int, niceness: int) -> None:
    """Run the web app with the dealer loop in a background thread (development), or the
    production servers (``--production``)."""
    import os

    from ..services import dealer as dealer_loop

    if niceness:
        os.nice(niceness)
    if production:
        if demo:
            _upgrade(make_app())
        _production(host, port, workers, dealers, stream_workers, stream_port, stream_nice)
        return
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = make_app()
    if demo:
        _upgrade(app)
        _echo_demo(_demo(app))
    stop = threading.Event()
    thread = threading.Thread(target=dealer_loop.run, name="dealer", daemon=True,
                              kwargs={"app": app, "stop": stop, "bots": _bots(demo if bots is None else bots)})
    thread.start()
    figures = start_worker(app, stop)      # the exact RTP figures of new paytable versions
    signal.signal(signal.SIGTERM, _interrupt)  # a service manager's stop is Ctrl-C: the dealer stops between steps
    click.echo(f"serving on http://{host}:{port}/ (dealer running)")
    try:
        app.run(host=host, port=port, threaded=True, use_reloader=False)
    finally:
        stop.set()
        thread.join(timeout=5)
        if figures is not None:
            figures.thread.join(timeout=CHILD_STOP_SECONDS + 5)


COMMANDS = (init_db, serve, dealer)
