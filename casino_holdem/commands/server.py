"""The server operator's commands: ``init-db``, ``serve`` and ``dealer``."""

from __future__ import annotations

import logging
import signal
import threading
from typing import TYPE_CHECKING, Any

import click

from .context import make_app

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


@click.command("dealer")
@click.option("--bots/--no-bots", default=False, help="Let the demo bots play on demo tables.")
def dealer(bots: bool) -> None:
    """Run the dealer loop over all tables until interrupted (safe to run several at once)."""
    from ..services import dealer as dealer_loop

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = make_app()
    stop = threading.Event()
    _stop_on_signals(stop)
    dealer_loop.run(app, stop=stop, bots=_bots(bots))


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--demo", is_flag=True, help="Migrate, create the demo data and let the bots play.")
@click.option("--bots/--no-bots", default=None, help="Demo bots (default: on with --demo).")
def serve(host: str, port: int, demo: bool, bots: bool | None) -> None:
    """Run the web app with the dealer loop in a background thread."""
    from ..services import dealer as dealer_loop

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = make_app()
    if demo:
        _upgrade(app)
        _echo_demo(_demo(app))
    stop = threading.Event()
    thread = threading.Thread(target=dealer_loop.run, name="dealer", daemon=True,
                              kwargs={"app": app, "stop": stop, "bots": _bots(demo if bots is None else bots)})
    thread.start()
    signal.signal(signal.SIGTERM, _interrupt)  # a service manager's stop is Ctrl-C: the dealer stops between steps
    click.echo(f"serving on http://{host}:{port}/ (dealer running)")
    try:
        app.run(host=host, port=port, threaded=True, use_reloader=False)
    finally:
        stop.set()
        thread.join(timeout=5)


COMMANDS = (init_db, serve, dealer)
