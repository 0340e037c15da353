"""Every setting the project reads from the environment, in one table: each ``CASINO_*`` variable
with its type, default and meaning (the README's table is made from :data:`VARIABLES`).

Nothing else reads the environment: :func:`value` parses a variable when asked (so a test or a
deployment may change it between calls), and a value that does not parse raises
:class:`InvalidSetting` naming the variable (the commands turn it into one line and exit 2).
An unset or empty variable takes its default.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the installed package, and the repository around it when running from a checkout
PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent


class InvalidSetting(ValueError):
    """An environment variable whose value does not parse; the message names the variable."""


@dataclass(frozen=True)
class Kind:
    """A variable's type: how it reads and what it accepts."""

    name: str
    parse: Callable[[str], Any]


def _whole(units: str, minimum: int, smallest: str) -> Callable[[str], int]:
    """A reader of whole numbers of ``units``, refusing those below ``minimum`` (written ``smallest``)."""

    def parse(raw: str) -> int:
        try:
            number = int(raw)
        except ValueError:
            raise ValueError(f"is not a whole number of {units}") from None
        if number < minimum:
            raise ValueError(f"is below {smallest}")
        return number

    return parse


def _seconds(raw: str) -> float:
    try:
        seconds = float(raw)
    except ValueError:
        raise ValueError("is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError("is not a number of seconds above 0")
    return seconds


def _count(raw: str) -> int:
    try:
        count = int(raw)
    except ValueError:
        raise ValueError("is not a whole number") from None
    if count < 0:
        raise ValueError("is below 0")
    return count


SWITCH_WORDS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False,
                "off": False}


def _switch(raw: str) -> bool:
    try:
        return SWITCH_WORDS[raw.strip().lower()]
    except KeyError:
        raise ValueError("is not one of 1/0, true/false, yes/no, on/off") from None


TEXT = Kind("text", str)
WHOLE_SECONDS = Kind("whole seconds ≥ 1", _whole("seconds", 1, "1 second"))
SECONDS = Kind("seconds > 0", _seconds)
SWITCH = Kind("on/off", _switch)
FOLDER = Kind("folder", Path)
BYTES = Kind("bytes ≥ 1024", _whole("bytes", 1024, "1024 bytes"))
COUNT = Kind("whole number ≥ 0", _count)
CONNECTIONS = Kind("whole number ≥ 1", _whole("connections", 1, "1 connection"))


@dataclass(frozen=True)
class Variable:
    """One environment variable: ``default`` is written as the variable would be (None: unset,
    and ``unset`` says what happens then); ``config_key`` is the Flask setting it fills."""

    name: str
    kind: Kind
    default: str | None
    meaning: str
    unset: str = ""
    config_key: str | None = None


VARIABLES: tuple[Variable, ...] = (
    Variable("CASINO_DATABASE_URL", TEXT, None, "SQLAlchemy URL of the database; `postgresql://…` uses psycopg 3",
             "SQLite file `casino.sqlite3` in the instance folder", "SQLALCHEMY_DATABASE_URI"),
    Variable("CASINO_SECRET_KEY", TEXT, None, "session signing key (set it: without it each process makes its own)",
             "random per process, with a warning", "SECRET_KEY"),
    Variable("CASINO_BETTING_SECONDS", WHOLE_SECONDS, "15", "betting window of new tables (R2, R8)",
             config_key="CASINO_BETTING_SECONDS"),
    Variable("CASINO_DECISION_SECONDS", WHOLE_SECONDS, "15", "each decision window of new tables (R8)",
             config_key="CASINO_DECISION_SECONDS"),
    Variable("CASINO_DEALER_TICK", SECONDS, "0.3", "pause between dealer-loop passes",
             config_key="CASINO_DEALER_TICK"),
    Variable("CASINO_SHOWDOWN_PAUSE", SECONDS, "6", "showdown shown before the next betting window (R2.7)",
             config_key="CASINO_SHOWDOWN_PAUSE"),
    Variable("CASINO_SSE_POLL", SECONDS, "0.5",
             "how often a development-server stream looks at its lifetime and keep-alive (it waits on the bus)",
             config_key="CASINO_SSE_POLL"),
    Variable("CASINO_SSE_LIFETIME", SECONDS, "60",
             "lifetime of one event stream (browsers reconnect); a production stream ends at random in its last "
             "quarter, and sooner when its session is revoked (checked every 30 s)",
             config_key="CASINO_SSE_LIFETIME"),
    Variable("CASINO_DB_CONNECTIONS", CONNECTIONS, "15",
             "database connections each process keeps open on PostgreSQL: at least its request threads (10 in "
             "`serve --production`) and stream-building threads (2); up to 10 more are opened and closed as needed"),
    Variable("CASINO_REDIS_URL", TEXT, None, "Redis URL of the event bus shared by every process and host",
             "PostgreSQL LISTEN/NOTIFY on a PostgreSQL database, else in-process (SQLite demo)"),
    Variable("CASINO_STREAMS_PER_SESSION", COUNT, "8", "open event streams one session may hold (429 beyond)",
             config_key="CASINO_STREAMS_PER_SESSION"),
    Variable("CASINO_STREAMS_PER_ADDRESS", COUNT, "200", "open event streams one client address may hold (429 beyond)",
             config_key="CASINO_STREAMS_PER_ADDRESS"),
    Variable("CASINO_TRUSTED_PROXIES", COUNT, "0",
             "reverse proxies in front of the server whose X-Forwarded-For/-Proto/-Host are trusted (ProxyFix)",
             config_key="CASINO_TRUSTED_PROXIES"),
    Variable("CASINO_KEEPALIVE_SECONDS", WHOLE_SECONDS, "75",
             "how long `serve --production` keeps an idle HTTP connection: longer than the proxy's or client's "
             "own, so they close it first and never send a request on a connection being closed"),
    Variable("CASINO_SECURE_COOKIES", SWITCH, None,
             "session cookies only over https (browsers take them from http://localhost too); off: plain http too",
             "on, except when debugging or testing", "CASINO_SECURE_COOKIES"),
    Variable("CASINO_OPERATOR_IDLE_SECONDS", WHOLE_SECONDS, "900",
             "an operator's session ends after this long without a request (players: 12 hours)"),
    Variable("CASINO_MAX_CONTENT_LENGTH", BYTES, "262144",
             "largest request body; a bigger one is refused with 413 before it is read",
             config_key="MAX_CONTENT_LENGTH"),
    Variable("CASINO_PAYTABLES_DIR", FOLDER, None, "the folder of versioned paytable files",
             "the checkout's `paytables/`, else the copy installed with the package"),
    Variable("CASINO_CACHE_DIR", FOLDER, None, "cache of the exact RTP enumeration", "`~/.cache/casino_holdem`"),
    Variable("CASINO_FIGURES_POLL", COUNT, "60",
             "seconds between the looks of `serve` and each `dealer` for paytable versions without exact RTP "
             "figures, computed in a low-priority child process; 0: never (run `paytables figures`)"),
    Variable("CASINO_TEST_DATABASE_URL", TEXT, None, "tests only: a PostgreSQL server URL for the PostgreSQL suite",
             "the PostgreSQL tests skip"),
    Variable("CASINO_TEST_REDIS_URL", TEXT, None, "tests only: a Redis URL for the Redis bus tests",
             "the Redis tests skip"),
    Variable("CASINO_BROWSER_TESTS", SWITCH, "off", "tests only: run the browser suite (needs Chromium)"),
)
BY_NAME = {variable.name: variable for variable in VARIABLES}


def value(name: str) -> Any:
    """The value of variable ``name`` from the environment, or its default (None when it has none)."""
    variable = BY_NAME[name]
    raw = os.environ.get(name, "")
    if not raw.strip():
        return None if variable.default is None else variable.kind.parse(variable.default)
    try:
        return variable.kind.parse(raw)
    except ValueError as error:
        raise InvalidSetting(f"{name}: {raw!r} {error}") from None


def flask_config() -> dict[str, Any]:
    """The app's settings from the environment, keyed as Flask and the web layer read them."""
    return {variable.config_key: value(variable.name) for variable in VARIABLES if variable.config_key}


def database_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3, the driver the project installs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def shipped(folder: str) -> Path:
    """A top-level folder of the repository (``paytables``, ``templates``): the checkout's own
    when running from one, else the copy a wheel installs inside the package."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / folder).is_dir():
        return CHECKOUT / folder
    return PACKAGE / folder


def paytable_dir() -> Path:
    """The folder of versioned paytable files: ``CASINO_PAYTABLES_DIR`` or the shipped ``paytables/``."""
    folder: Path | None = value("CASINO_PAYTABLES_DIR")
    return folder or shipped("paytables")


def cache_dir() -> Path:
    """Where finished enumerations are kept: ``CASINO_CACHE_DIR`` or ``~/.cache/casino_holdem``."""
    folder: Path | None = value("CASINO_CACHE_DIR")
    return folder or Path.home() / ".cache" / "casino_holdem"


#: prometheus-client's own variable: the folder where every process of the floor writes its metrics
METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR"


def metrics_dir() -> str | None:
    """The multiprocess metrics folder (``PROMETHEUS_MULTIPROC_DIR``), if one is set."""
    return os.environ.get(METRICS_DIR) or None


def use_metrics_dir(folder: str) -> None:
    """Set the metrics folder for this process and the processes it starts (``serve --production``)."""
    os.environ[METRICS_DIR] = folder


def markdown_table() -> str:
    """The README's table of variables (a test keeps the two the same)."""
    rows = ["| variable | type | default | meaning |", "| --- | --- | --- | --- |"]
    for variable in VARIABLES:
        default = f"`{variable.default}`" if variable.default is not None else variable.unset
        rows.append(f"| `{variable.name}` | {variable.kind.name} | {default} | {variable.meaning} |")
    return "\n".join(rows)
