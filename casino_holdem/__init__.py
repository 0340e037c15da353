"""Texas Hold'em Bonus Progressive: the game core, compliance tools and the live game server.

:func:`create_app` is the Flask application factory. Flask and SQLAlchemy are imported inside it,
so ``import casino_holdem.core`` stays free of them.
"""

from __future__ import annotations

import secrets
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import settings

if TYPE_CHECKING:
    from flask import Flask

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def _engine_options(url: str) -> dict[str, Any]:
    """A connection the database dropped (a restart) is replaced: on SQLite by a ping at every
    checkout, on a server database by a ping after it sat idle and by the services' retry
    (:mod:`casino_holdem.extensions`). On a server database
    the pool keeps as many connections as the process's threads use at once (issue 10: with
    SQLAlchemy's default of 5, a loaded web process opened and closed about three connections a
    second, each a new PostgreSQL server process). PostgreSQL's JIT compilation is off: every
    statement here reads a few rows through their keys, and on statistics a burst of rounds left
    stale the planner's estimate of the dealer's read crossed the JIT threshold, which then spent
    about 300 ms compiling a read of 5 ms, on each pass."""
    if url.startswith("sqlite"):
        return {"pool_pre_ping": True}
    options: dict[str, Any] = {"pool_size": settings.value("CASINO_DB_CONNECTIONS"), "max_overflow": 10}
    if url.startswith("postgresql"):
        options["connect_args"] = {"options": "-c jit=off"}
    return options


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: its settings from the environment (:mod:`casino_holdem.settings`; an unset
    database is an SQLite file in the instance folder, an unset secret key a random one), then
    ``config`` on top, then the database and the web layer."""
    from flask import Flask

    from .extensions import configure_engine, db, migrate

    app = Flask(__name__, instance_relative_config=True, template_folder=str(settings.shipped("templates")))
    app.config.update(settings.flask_config())
    app.config.update(config or {})
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{Path(app.instance_path) / 'casino.sqlite3'}"
    app.config["SQLALCHEMY_DATABASE_URI"] = settings.database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        warnings.warn("CASINO_SECRET_KEY is not set: using a random key, sessions end when the process does",
                      stacklevel=2)
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", _engine_options(url))
    if url.startswith("sqlite:///") and not url.startswith("sqlite:///:memory:"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    with app.app_context():
        for engine in db.engines.values():
            configure_engine(engine)
    from . import events
    from .events import publish
    from .web import init_web  # the players' pages, API and event streams (issue 6)

    publish.register()
    events.install(app)
    init_web(app)
    return app
