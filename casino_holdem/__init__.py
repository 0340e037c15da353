"""Texas Hold'em Bonus Progressive: the game core, compliance tools and the live game server.

:func:`create_app` is the Flask application factory. Flask and SQLAlchemy are imported inside it,
so ``import casino_holdem.core`` stays free of them.
"""

from __future__ import annotations

import os
import secrets
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: settings read from the environment: (variable, config key, converter)
ENVIRONMENT = (
    ("CASINO_DATABASE_URL", "SQLALCHEMY_DATABASE_URI", str),
    ("CASINO_SECRET_KEY", "SECRET_KEY", str),
    ("CASINO_BETTING_SECONDS", "CASINO_BETTING_SECONDS", int),
    ("CASINO_DECISION_SECONDS", "CASINO_DECISION_SECONDS", int),
    ("CASINO_DEALER_TICK", "CASINO_DEALER_TICK", float),
)


def database_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3, the driver the project installs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration from the environment (``CASINO_DATABASE_URL``, default an
    SQLite file in the instance folder; ``CASINO_SECRET_KEY``; the default betting and decision
    timers of new tables; the dealer's tick), then ``config`` on top, then the database."""
    from flask import Flask

    from .extensions import configure_engine, db, migrate

    app = Flask(__name__, instance_relative_config=True)
    app.config.update(CASINO_BETTING_SECONDS=15, CASINO_DECISION_SECONDS=15, CASINO_DEALER_TICK=0.3,
                      SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True})
    for variable, key, convert in ENVIRONMENT:
        if os.environ.get(variable):
            app.config[key] = convert(os.environ[variable])
    app.config.update(config or {})
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{Path(app.instance_path) / 'casino.sqlite3'}"
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        warnings.warn("CASINO_SECRET_KEY is not set: using a random key, sessions end when the process does",
                      stacklevel=2)
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    with app.app_context():
        for engine in db.engines.values():
            configure_engine(engine)
    from .web import init_web  # the players' pages, API and event streams (issue 6)

    init_web(app)
    return app
