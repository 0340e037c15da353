"""The players' web front end: pages, the JSON API and live event streams (issue 6).

Blueprints: ``auth`` (login, registration, logout), ``operator_auth`` (the back office's sign-in
and its guard, issue 11), the back office (:mod:`.operator`), the dealer's console and API
(:mod:`.dealer`, issue 12), ``lobby``, ``table``, ``history``, ``api``
(``/api/``, described at ``/api/openapi.json``) and ``events`` (server-sent events). Everything
a page, response or event shows of a round is built by
:func:`casino_holdem.services.viewing.round_seen_by` (checked by tests/web/test_viewing_boundary.py).
"""

from __future__ import annotations

from flask import Flask

from . import (
    api,
    auth,
    errors,
    events,
    formatting,
    headers,
    history,
    i18n,
    inputs,
    lobby,
    operator_auth,
    security,
    table,
)
from .dealer import init_dealer
from .operator import init_operator


def init_web(app: Flask) -> None:
    """Register the web layer on ``app``: session and CSRF settings, input checks, security
    headers, error pages, blueprints (after :func:`inputs.register`, which bounds their ids)."""
    security.configure(app)
    inputs.register(app)
    headers.register(app)
    errors.register(app)
    formatting.register(app)
    i18n.register(app)
    for blueprint in (auth.bp, operator_auth.bp, lobby.bp, table.bp, history.bp, api.bp, events.bp):
        app.register_blueprint(blueprint)
    init_operator(app)
    init_dealer(app)
