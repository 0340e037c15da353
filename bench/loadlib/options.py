"""Command-line options shared by ``load.py`` and ``faults.py``, their bounds and the smoke size.

Every count and every duration has a ceiling, and every address must be a loopback one: the
instruments drive real processes on a shared machine and must never reach beyond it.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import shutil
import socket
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

#: hard bounds: the instrument refuses anything larger
BOUNDS = {"players": 5000, "tables": 500, "pools": 50, "streams": 20000, "duration": 900.0, "workers": 16,
          "stream_workers": 16, "dealers": 16, "betting_seconds": 120, "decision_seconds": 120, "showdown_pause": 120,
          "arrival": 900.0}
#: a full measurement run
DEFAULTS: dict[str, Any] = {"players": 100, "tables": 10, "pools": 2, "streams": 0, "duration": 60.0,
                            "betting_seconds": 10, "decision_seconds": 10, "workers": 2, "stream_workers": 1,
                            "margin": 1.0, "showdown_pause": 6.0}
#: small enough for CI
SMOKE: dict[str, Any] = {"players": 20, "tables": 4, "pools": 2, "streams": 20, "duration": 30.0,
                         "betting_seconds": 5, "decision_seconds": 5, "workers": 2, "stream_workers": 1,
                         "margin": 1.0, "showdown_pause": 6.0, "arrival": 10.0}
#: besides the load itself: setup (the CLI creates missing players), drain, audit and checks
CEILING_SLACK = 900.0


class OptionError(ValueError):
    """A refused option; the message names it."""


def default_cli() -> str:
    """The ``casino-holdem`` beside this Python (the project's venv), else the one on PATH."""
    beside = Path(sys.executable).with_name("casino-holdem")
    return str(beside) if beside.exists() else (shutil.which("casino-holdem") or "casino-holdem")


def parser(description: str) -> argparse.ArgumentParser:
    """The options both instruments take; defaults are filled in by :func:`resolve`."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--database-url", default=os.environ.get("CASINO_DATABASE_URL"),
                   help="PostgreSQL on this machine (default: $CASINO_DATABASE_URL)")
    p.add_argument("--url", help="use this running server (loopback only) instead of starting one")
    p.add_argument("--server-cmd", help="server command template with {host} {port} {workers}, and "
                                        "{stream_workers} {stream_port} when its streams are served apart "
                                        "(default: 'serve --production --workers N --stream-workers N' when "
                                        "the CLI has it, else 'serve')")
    p.add_argument("--workers", type=int, help="web workers of a --production server")
    p.add_argument("--stream-workers", type=int, help="workers of their own for the event streams of a --production "
                                                      "server, on a port of their own, as deploy/ runs it "
                                                      "(default: 1; 0: the web workers serve them)")
    p.add_argument("--stream-url", help="with --url: where that server's event streams are served (default: --url)")
    p.add_argument("--dealers", type=int, help="extra 'casino-holdem dealer' processes (default: 1 with "
                                               "--production, else 0: today's serve deals in a thread)")
    p.add_argument("--players", type=int)
    p.add_argument("--tables", type=int)
    p.add_argument("--pools", type=int)
    p.add_argument("--streams", type=int, help="extra idle event streams besides the players' own two each")
    p.add_argument("--duration", type=float, help="seconds of measured load")
    p.add_argument("--betting-seconds", type=int, help="betting window of the bench tables (R8 timers)")
    p.add_argument("--decision-seconds", type=int, help="decision window of the bench tables (R8 timers)")
    p.add_argument("--showdown-pause", type=float, help="R2.7 pause of the started server (CASINO_SHOWDOWN_PAUSE; "
                                                         "with --url, that server's): the next round is due after it")
    p.add_argument("--margin", type=float, help="a decision is sent at the latest this many seconds before "
                                                "its deadline (never after it)")
    p.add_argument("--arrival", type=float,
                   help="seconds over which the tables fill, one after another: table k of n sits its players "
                        "down at k/n of it, so the tables deal out of phase as on a floor whose tables opened "
                        "and filled at different times (default: one round's length, betting + 3 decision "
                        "windows + showdown pause; 0: every player at once, a flash crowd in which every table "
                        "bets in the same window)")
    p.add_argument("--ceiling", type=float, help="hard wall-clock ceiling of the whole run (seconds)")
    p.add_argument("--cli", default=default_cli(), help="the casino-holdem executable")
    p.add_argument("--seed", type=int, help="seed of the players' choices and think times")
    p.add_argument("--log-dir", help="where the started processes write their logs (default: a temp dir)")
    p.add_argument("--json", dest="json_path", help="also write the figures as JSON to this file")
    p.add_argument("--smoke", action="store_true", help="a small run for CI: " +
                   ", ".join(f"{key}={value}" for key, value in SMOKE.items()))
    return p


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` names this machine (a Unix socket, None, counts)."""
    if not host:
        return True
    try:
        return all(ipaddress.ip_address(info[4][0]).is_loopback
                   for info in socket.getaddrinfo(host, None))
    except (OSError, ValueError):
        return False


def plain_database_url(url: str) -> str:
    """The URL as psycopg takes it (without SQLAlchemy's ``+psycopg`` driver name)."""
    scheme, rest = url.split("://", 1)
    scheme = scheme.split("+")[0]
    return f"{'postgresql' if scheme == 'postgres' else scheme}://{rest}"


def check_database_url(url: str) -> None:
    """Refuse a ``--database-url`` that is not PostgreSQL on this machine."""
    if not url.startswith(("postgresql", "postgres")):
        raise OptionError("--database-url: a PostgreSQL URL is required (postgresql+psycopg://…)")
    if not is_loopback(urlsplit(url).hostname):
        raise OptionError("--database-url: the database must be on this machine (a loopback address)")


def round_length(args: argparse.Namespace) -> float:
    """The longest a round of the bench's tables takes: its betting window, the three decision
    windows (R2.3-R2.5, R8) and the showdown pause (R2.7) before the next round opens."""
    return float(args.betting_seconds + 3 * args.decision_seconds + args.showdown_pause)


def resolve(args: argparse.Namespace) -> argparse.Namespace:
    """Fill in defaults (the smoke ones with ``--smoke``) and check every bound and address."""
    base = SMOKE if args.smoke else DEFAULTS
    for key, value in base.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if not args.database_url:
        raise OptionError("--database-url: required (or set CASINO_DATABASE_URL)")
    check_database_url(args.database_url)
    for name, url in (("--url", args.url), ("--stream-url", args.stream_url)):
        if url and not is_loopback(urlsplit(url).hostname):
            raise OptionError(f"{name}: only a server on a loopback address may be measured")
    if args.stream_url and not args.url:
        raise OptionError("--stream-url: only with --url (a server the bench starts tells it where its streams are)")
    for key, high in BOUNDS.items():
        value = getattr(args, key, None)
        low = 0 if key in ("streams", "dealers", "showdown_pause", "stream_workers", "arrival") else 1
        if value is not None and not low <= value <= high:
            raise OptionError(f"--{key.replace('_', '-')}: {value} is outside {low}..{high}")
    if not 0 < args.margin < args.decision_seconds:
        raise OptionError(f"--margin: {args.margin} must be above 0 and below the decision window")
    if args.arrival is None:
        args.arrival = round_length(args)
    if args.ceiling is None:
        args.ceiling = args.duration + args.arrival + CEILING_SLACK + args.players * 0.5
    return args
