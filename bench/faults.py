"""Faults under load: does the money stay right and does every round go on?

    .venv/bin/python bench/faults.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/DB \\
        [--players 100 --tables 10 --duration 60 --kill-every 8 --kills N] [--pg-restart] [--json FILE]
    .venv/bin/python bench/faults.py --smoke ...   (20 players, 4 tables, 30 s, one worker and one dealer
                                                    kill; PostgreSQL is restarted only with --pg-restart)

Runs the load of ``load.py`` (same options) on a server and dealers it starts itself, and during
the measured window kills with SIGKILL, every ``--kill-every`` seconds, alternately a web worker
(the server itself when it has no separate workers) and a dealer, each started again as a process
manager would; ``--pg-restart`` restarts, once, half-way, the local PostgreSQL cluster that
serves the database (``pg_ctlcluster VERSION NAME restart``, found by the URL's port with
``pg_lsclusters``; nothing else is ever touched).

Then it checks, and prints PASS or FAIL for each: no round stuck (every bench table's current
round moves on within a generous ceiling after the faults stop), ``casino-holdem audit-ledger``
sound, every wallet recomputed from its postings equal to its balance, each pool equal to its
history, ``casino-holdem replay`` of every settled round of the run identical, and every killed
process running again. Exit status 1 when any check fails (2: a refused option, 124: the hard
ceiling stopped the run).
"""

from __future__ import annotations

import asyncio
import random
import sys
from typing import Any

from loadlib import injector, options, procs, run, stats

SMOKE_KILLS = 2
DEFAULT_KILL_EVERY = 8.0
MAX_KILLS = 200


def _restart_check(report: dict[str, Any], done: list[dict[str, Any]]) -> dict[str, Any]:
    """Every process the bench itself owned and killed (the server, a dealer) was started again;
    a pre-forking server's workers and its streams' server are its own to replace."""
    repaired = {f"kill -9 {name}" for name in procs.SERVER_REPAIRS}
    owned = sum(1 for fault in done if "pid" in fault and fault["what"] not in repaired)
    restarted = sum(report.get("restarts", {}).values())
    return injector.check("every killed process running again", restarted >= owned,
                          f"{owned} owned processes killed, {restarted} restarts")


def _faults_check(done: list[dict[str, Any]], planned: int, pg: bool) -> dict[str, Any]:
    kills = [fault for fault in done if "pid" in fault]
    restarts = [fault for fault in done if "exit" in fault]
    passed = len(kills) >= min(planned, 1) and (not pg or (restarts and restarts[0]["exit"] == 0))
    return injector.check("faults injected", bool(passed), "; ".join(
        f"{fault['at']} s: {fault['what']}" + (f" (exit {fault['exit']}, {fault['seconds']} s)" if "exit" in fault
                                               else "") for fault in done) or "none")


def main(argv: list[str] | None = None) -> int:
    parser = options.parser(__doc__ or "")
    parser.add_argument("--kill-every", type=float, default=DEFAULT_KILL_EVERY, help="seconds between kills")
    parser.add_argument("--kills", type=int, help=f"at most this many kills (default: {SMOKE_KILLS} with "
                                                  "--smoke, else as many as fit in the window)")
    parser.add_argument("--pg-restart", action="store_true", help="restart the local PostgreSQL cluster once")
    parser.add_argument("--pg-cluster", help="VERSION/NAME of that cluster (default: found by the URL's port)")
    parser.add_argument("--stuck-ceiling", type=float, help="seconds every round has to move on after the faults "
                                                            "(default: one round's windows + 60)")
    args = parser.parse_args(argv)
    try:
        options.resolve(args)
        if args.url:
            raise options.OptionError("--url: faults kills and restarts processes, so it starts its own server")
        kills = args.kills if args.kills is not None else (SMOKE_KILLS if args.smoke else MAX_KILLS)
        if not 0 <= kills <= MAX_KILLS or not 1 <= args.kill_every <= args.duration:
            raise options.OptionError(f"--kills 0..{MAX_KILLS} and --kill-every 1..--duration seconds")
        cluster = injector.local_cluster(args.database_url, args.pg_cluster) if args.pg_restart else None
    except options.OptionError as error:
        print(error, file=sys.stderr)
        return 2
    args.idle = False
    args.dealers = max(1, args.dealers or 0)  # a dealer process to kill
    ceiling = args.stuck_ceiling or args.betting_seconds + 3 * args.decision_seconds + 60
    faults = injector.Faults(args.kill_every, kills, cluster, random.Random(args.seed))

    async def before_stop(ctx: run.Context) -> list[dict[str, Any]]:
        return [await injector.no_round_stuck(ctx, ceiling)]

    procs.arm_ceiling(args.ceiling + ceiling)
    hooks = run.Hooks(during=faults.during, before_stop=before_stop, after=injector.after)
    report = asyncio.run(run.measure(args, hooks, title="faults"))
    report["faults"] = faults.done
    audit = report["audit_ledger"]
    report["checks"] = [injector.check("audit-ledger sound", audit["sound"], audit["summary"]),
                        _faults_check(faults.done, kills, cluster is not None),
                        _restart_check(report, faults.done)] + report["checks"]
    if "setup_error" in report:
        report["checks"].append(injector.check("setup", False, report["setup_error"]))
    passed = all(c["passed"] for c in report["checks"])
    report["passed"] = passed
    stats.publish(report, args.json_path)
    print(f"faults: {'PASS' if passed else 'FAIL'} ({sum(c['passed'] for c in report['checks'])} of "
          f"{len(report['checks'])} checks passed)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
