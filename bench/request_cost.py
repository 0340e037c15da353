"""What one request costs this machine: CPU and database statements per endpoint, beside the
floor of the database driver itself, measured in the same run (issue 10).

    python bench/request_cost.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/DB [--players N]

On a fresh database of its own (created beside ``DB`` on the same server, migrated, dropped at the
end) it sets up one table with N funded players through the services, logs each in through the
Flask app (its test client: no HTTP server, so the figures are the application's own), then times
on a single thread, per request: the table's state (``GET /api/tables/{id}``), a bet with the
Progressive (``POST …/bets``), a Flop decision (``POST /api/rounds/{id}/decisions``), one build
of the table's live state for every player's stream (the fan-out's work for one change), as on the
floor: that round settled and on the felt beside the next, every player betting on both, and the
dealer's read of what is due (:func:`~casino_holdem.services.dealer.due`, on every wake). Beside
them, in the same run: ``SELECT 1`` through psycopg alone and through SQLAlchemy Core, the floor
any request pays per statement. It prints CPU (the process's own, ``time.process_time``) and
wall time per request, the statements each made, and how many of each the machine could serve a
second on one core at that CPU: the arithmetic behind ``bench/load.py``'s figures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from loadlib.options import OptionError, check_database_url, plain_database_url  # noqa: E402

#: the floor's repetitions (each a few hundred microseconds)
FLOOR_REPEATS = 2000
PASSWORD = "bench password"


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """A new database on the server of ``url``, dropped (forced) at the end; its SQLAlchemy URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    server = make_url(url)
    name = f"casino_bench_requests_{uuid.uuid4().hex[:10]}"
    plain = plain_database_url(url)
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Counter:
    """Statements sent by the app's engine (a cursor execute each)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *_args: Any) -> None:
        self.count += 1


def timed(label: str, calls: list[Callable[[], Any]], counter: Counter | None = None) -> dict[str, Any]:
    """Run each call once; the medians of CPU, wall time and statements per call."""
    cpu, wall, statements = [], [], []
    for call in calls:
        before = counter.count if counter else 0
        started, clock = time.process_time(), time.perf_counter()
        call()
        cpu.append(time.process_time() - started)
        wall.append(time.perf_counter() - clock)
        statements.append((counter.count if counter else 0) - before)
    figures = {"what": label, "n": len(calls), "cpu_ms": round(1000 * statistics.median(cpu), 3),
               "wall_ms": round(1000 * statistics.median(wall), 3),
               "statements": statistics.median(statements) if counter else None}
    figures["per_core_per_second"] = round(1000 / figures["cpu_ms"], 1) if figures["cpu_ms"] else None
    return figures


def floor(url: str) -> list[dict[str, Any]]:
    """``SELECT 1`` through psycopg alone and through SQLAlchemy Core, on this server."""
    import psycopg
    from sqlalchemy import create_engine, text

    rows = []
    with psycopg.connect(plain_database_url(url), autocommit=True) as connection:
        cursor = connection.cursor()
        rows.append(timed("psycopg: SELECT 1", [lambda: cursor.execute("SELECT 1").fetchall()] * FLOOR_REPEATS))
    engine = create_engine(url)
    with engine.connect() as connection:
        rows.append(timed("SQLAlchemy Core: SELECT 1",
                          [lambda: connection.execute(text("SELECT 1")).all()] * FLOOR_REPEATS))
    engine.dispose()
    return rows


def _next_round_with_bets(table: int, players: int, finished: int) -> None:
    """The floor's usual table for the build: ``finished`` played out to its settlement (the
    house decides what the players left, R8) and the next round opened, with the bet of each of the
    ``players`` (ids 1 to N) on it, so the state shows a settled round beside one taking bets."""
    from casino_holdem.models import GameRound
    from casino_holdem.services import dealer_steps, queries, rounds

    moment = dt.datetime.now(dt.UTC)
    while (current := queries.latest_round(table)) is not None and current.id == finished:
        moment += dt.timedelta(seconds=300)
        dealer_steps.advance(table, now=moment)
    opened = queries.latest_round(table)
    assert opened is not None and queries.get(GameRound, finished).phase == "settled"
    for player_id in range(1, players + 1):
        rounds.place_bets(player_id, table, "10", progressive=True, request_id=f"next-{player_id}",
                          round_id=opened.id, now=moment)


def endpoints(url: str, players: int) -> list[dict[str, Any]]:
    """The app's requests on a migrated database at ``url`` (module docstring)."""
    from flask_migrate import upgrade
    from sqlalchemy import event

    from casino_holdem import create_app
    from casino_holdem.events import wire
    from casino_holdem.extensions import db
    from casino_holdem.services import dealer, dealer_steps, jackpot, tables, viewing, wallet

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    counter = Counter()
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        pool = jackpot.ensure_pool("bench requests")
        jackpot.top_up(pool.id, "1000", "bench seed", None)
        table = tables.create_table("bench requests", pool.id, ante_min=Decimal(1), ante_max=Decimal(100),
                                    betting_seconds=120, decision_seconds=120).id
        names = [f"bench{number}" for number in range(players)]
        for name in names:
            player = wallet.create_player(name, PASSWORD, "USD")
            wallet.deposit(player.id, "1000", f"bench:{player.id}")
        dealer_steps.advance(table)  # opens the round
        event.listen(db.engine, "before_cursor_execute", counter)
    clients = []
    for name in names:
        client = app.test_client()
        token = client.get("/api/session").get_json()["csrf_token"]
        response = client.post("/api/session", json={"username": name, "password": PASSWORD},
                               headers={"X-CSRF-Token": token})
        clients.append((client, {"X-CSRF-Token": response.get_json()["csrf_token"]}))
    state = clients[0][0].get(f"/api/tables/{table}").get_json()
    round_id = state["round"]["round_id"]

    def call(client: Any, headers: dict[str, str], path: str, body: Any = None) -> Callable[[], Any]:
        def send() -> None:
            response = client.post(path, json=body, headers=headers) if body else client.get(path)
            if response.status_code not in (200, 201):
                raise RuntimeError(f"{path}: {response.status_code} {response.get_json()}")
        return send

    rows = [timed("GET /api/tables/{id}", [call(c, h, f"/api/tables/{table}") for c, h in clients], counter),
            timed("POST /api/tables/{id}/bets", [
                call(c, h, f"/api/tables/{table}/bets", {"ante": "10", "progressive": True, "round_id": round_id,
                                                          "request_id": f"bet-{number}"})
                for number, (c, h) in enumerate(clients)], counter)]
    with app.app_context():
        deadline = dt.datetime.fromisoformat(state["round"]["deadline"])
        dealer_steps.advance(table, now=max(deadline, dt.datetime.now(dt.UTC)) + dt.timedelta(milliseconds=1))
    rows.append(timed("POST /api/rounds/{id}/decisions", [
        call(c, h, f"/api/rounds/{round_id}/decisions", {"action": "flop", "street": "preflop",
                                                         "request_id": f"decision-{number}"})
        for number, (c, h) in enumerate(clients)], counter))
    with app.app_context():
        _next_round_with_bets(table, players, round_id)
        watchers = viewing.viewers_of(range(1, players + 1))

        def build() -> None:
            with app.app_context():
                memo = wire.Memo()
                for view in viewing.table_views(table, watchers).by_viewer.values():
                    wire.frame(view, memo)

        rows.append(timed(f"one state build for {players} streams", [build] * 20, counter))
        rows.append(timed("the dealer's wake read (dealer.due)", [dealer.due] * 200, counter))
    with app.app_context():
        db.engine.dispose()  # before the database is dropped
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True, help="PostgreSQL on this machine (a database beside "
                                                              "this one is created and dropped)")
    parser.add_argument("--players", type=int, default=40, help="players (1 to 500): one request each per endpoint")
    parser.add_argument("--json", dest="json_path", help="also write the figures as JSON to this file")
    args = parser.parse_args()
    try:
        check_database_url(args.database_url)
        if not 1 <= args.players <= 500:
            raise OptionError(f"--players: {args.players} is outside 1..500")
    except OptionError as error:
        print(error, file=sys.stderr)
        sys.exit(2)
    with fresh_database(args.database_url) as url:
        rows = floor(url) + endpoints(url, args.players)
    print(f"{'what':40s} {'n':>5s} {'CPU ms':>9s} {'wall ms':>9s} {'statements':>11s} {'per core/s':>11s}")
    for row in rows:
        statements = "" if row["statements"] is None else f"{row['statements']:g}"
        print(f"{row['what']:40s} {row['n']:5d} {row['cpu_ms']:9.3f} {row['wall_ms']:9.3f} {statements:>11s} "
              f"{row['per_core_per_second'] or 0:11.1f}")
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
