"""Load test of the game server through its public contracts (API, event streams, CLI).

    .venv/bin/python bench/load.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/DB \\
        [--players 100 --tables 10 --pools 2 --streams 0 --duration 60] [--url http://127.0.0.1:PORT]
        [--server-cmd '{cli} serve --host {host} --port {port}' --workers 2 --dealers N] [--json FILE]
    .venv/bin/python bench/load.py --smoke ...     (20 players, 4 tables, 30 s: for CI)
    .venv/bin/python bench/load.py --idle --tables 50 --duration 60 ...

The floor is set up with ``casino-holdem`` (pools, tables, players, deposits; existing ones are
reused). Unless ``--url`` names a running server, the bench starts one (``serve --production
--workers N`` when the CLI has it, else today's ``serve``) and ``--dealers`` dealer processes,
and stops them at the end. N players log in with the session's CSRF token, hold their table's
and the lobby's event streams open, bet each round and decide at human pace: a random think
time that ends before the decision window does (R8), retrying network errors with the same
``request_id``. ``--streams K`` adds K idle streams. The tables fill one after another over
``--arrival`` seconds (default: one round's length), so their rounds run out of phase as on a floor
whose tables opened and filled at different times; ``--arrival 0`` seats everyone at once (a flash
crowd: every table bets in the same window, and the floor's bets come in one burst).

It prints requests/s, bets/s, decisions/s, p50/p95/p99 latency per endpoint, errors by kind, the
share of decisions the house automated and of those sent inside their window that it automated
anyway (target 0), the dealer's lag (deadline -> next cards, from the database timestamps), the
event delay, CPU seconds per server process, the streams held, and ``casino-holdem
audit-ledger``. ``--idle`` measures only the CPU of the server and dealers with ``--tables`` open
empty tables and no players (target: under 5 % of one core with 50 tables).

Exit status: 0 when the run completed with a sound ledger, 1 otherwise, 2 on a refused option,
124 when the hard ceiling stopped it.
"""

from __future__ import annotations

import asyncio
import sys

from loadlib import options, procs, run, stats


def main(argv: list[str] | None = None) -> int:
    parser = options.parser(__doc__ or "")
    parser.add_argument("--idle", action="store_true",
                        help="no players: the CPU of the server and dealers with --tables open empty tables")
    args = parser.parse_args(argv)
    try:
        options.resolve(args)
    except options.OptionError as error:
        print(error, file=sys.stderr)
        return 2
    if args.idle:
        args.players, args.streams = 0, 0
    procs.arm_ceiling(args.ceiling)
    report = asyncio.run(run.measure(args, title="idle" if args.idle else "load"))
    stats.publish(report, args.json_path)
    if "setup_error" in report:
        print(f"setup failed: {report['setup_error']}", file=sys.stderr)
        return 1
    return 0 if report["audit_ledger"]["sound"] else 1


if __name__ == "__main__":
    sys.exit(main())
