"""The players' web front end: pages, the JSON API and live event streams (issue 6).

Blueprints: ``auth`` (login, registration, logout), ``lobby``, ``table``, ``history``, ``api``
(``/api/``, described at ``/api/openapi.json``) and ``events`` (server-sent events). Everything
a page, response or event shows of a round is built by
:func:`casino_holdem.services.viewing.round_seen_by` (checked by tests/web/test_viewing_boundary.py).
"""

from __future__ import annotations

from flask import Flask

from . import api, auth, errors, events, formatting, history, i18n, lobby, security, table


def init_web(app: Flask) -> None:
    """Register the web layer on ``app``: session and CSRF settings, error pages, blueprints."""
    security.configure(app)
    errors.register(app)
    formatting.register(app)
    i18n.register(app)
    for blueprint in (auth.bp, lobby.bp, table.bp, history.bp, api.bp, events.bp):
        app.register_blueprint(blueprint)
