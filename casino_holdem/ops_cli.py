"""Operating commands of ``casino-holdem``: ``init-db``, ``serve``, ``dealer``, ``replay`` and
``audit-ledger``. They build the app from the environment (``CASINO_DATABASE_URL`` …).
"""

from __future__ import annotations

import json
import logging
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click
from flask import Flask

from . import create_app

BAD_INPUT = 2


def _app() -> Flask:
    return create_app()


@contextmanager
def service_context() -> Iterator[None]:
    """An app context in which a refused request becomes one line on stderr and exit 2."""
    from .services.errors import ServiceError

    with _app().app_context():
        try:
            yield
        except ServiceError as error:
            click.echo(error.message, err=True)
            sys.exit(BAD_INPUT)


def _upgrade(app: Flask) -> None:
    from flask_migrate import upgrade

    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)


def _demo(app: Flask) -> dict[str, Any]:
    from .services.demo import ensure_demo_data

    with app.app_context():
        return ensure_demo_data(betting_seconds=app.config["CASINO_BETTING_SECONDS"],
                                decision_seconds=app.config["CASINO_DECISION_SECONDS"])


def _stop_on_signals(stop: threading.Event) -> None:
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.set())


@click.command("init-db")
@click.option("--demo", is_flag=True, help="Also create demo players (demo1..demo5, password 'demo'), bots, "
                                           "and three tables sharing one seeded jackpot pool.")
def init_db(demo: bool) -> None:
    """Create or upgrade the database schema (idempotent)."""
    app = _app()
    _upgrade(app)
    click.echo(f"database ready: {app.config['SQLALCHEMY_DATABASE_URI'].split('@')[-1]}")
    if demo:
        data = _demo(app)
        click.echo(f"demo data: players {', '.join(data['players'])}; pool {data['pool']}; "
                   f"tables {', '.join(data['tables'])}")


def _bots(enabled: bool) -> Any:
    from .services.dealer import Bots

    return Bots() if enabled else None


@click.command("dealer")
@click.option("--bots/--no-bots", default=False, help="Let the demo bots play on demo tables.")
def dealer(bots: bool) -> None:
    """Run the dealer loop over all tables until interrupted (safe to run several at once)."""
    from .services import dealer as dealer_loop

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    stop = threading.Event()
    _stop_on_signals(stop)
    dealer_loop.run(_app(), stop=stop, bots=_bots(bots))


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--demo", is_flag=True, help="Migrate, create the demo data and let the bots play.")
@click.option("--bots/--no-bots", default=None, help="Demo bots (default: on with --demo).")
def serve(host: str, port: int, demo: bool, bots: bool | None) -> None:
    """Run the web app with the dealer loop in a background thread."""
    from .services import dealer as dealer_loop

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    app = _app()
    if demo:
        _upgrade(app)
        _demo(app)
    stop = threading.Event()
    thread = threading.Thread(target=dealer_loop.run, name="dealer", daemon=True,
                              kwargs={"app": app, "stop": stop, "bots": _bots(demo if bots is None else bots)})
    thread.start()
    click.echo(f"serving on http://{host}:{port}/ (dealer running)")
    try:
        app.run(host=host, port=port, threaded=True, use_reloader=False)
    finally:
        stop.set()
        thread.join(timeout=5)


@click.command("replay")
@click.argument("round_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the report and the replayed settlement as JSON.")
def replay(round_id: int, as_json: bool) -> None:
    """Re-settle a stored round through the core and compare with the record: exit 0 when
    identical, 1 with the differences otherwise."""
    from .services.verify import replay as replay_round

    with service_context():
        report = replay_round(round_id)
    if as_json:
        click.echo(json.dumps({"round_id": report.round_id, "identical": report.identical,
                               "differences": report.differences, "settlement": report.settlement}, indent=2))
    else:
        click.echo(f"round {round_id}: " + ("identical to the record" if report.identical else "DIFFERS"))
        for line in report.differences:
            click.echo(f"  {line}")
    sys.exit(0 if report.identical else 1)


@click.command("audit-ledger")
def audit_ledger() -> None:
    """Check every ledger invariant; list each break and exit 1, or exit 0 when sound."""
    from .services.verify import audit_ledger as audit

    with _app().app_context():
        problems = audit()
    for problem in problems:
        click.echo(problem)
    click.echo(f"{len(problems)} problem(s)" if problems else "ledger sound: every invariant holds")
    sys.exit(1 if problems else 0)


def register_ops(group: click.Group) -> None:
    """Add the operating commands to the ``casino-holdem`` group."""
    for command in (init_db, serve, dealer, replay, audit_ledger):
        group.add_command(command)
