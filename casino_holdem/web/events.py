"""Live updates as server-sent events (``text/event-stream``).

A stream reads the state from the database on every poll (``CASINO_SSE_POLL`` seconds) and sends
an ``event: state`` whenever what this viewer may see has changed, so it works the same whatever
process dealt the card or took the bet. A stream ends after ``CASINO_SSE_LIFETIME`` seconds (the
browser's EventSource reconnects by itself, after the ``retry`` delay), so no stream outlives a
shutdown or holds a worker for ever. The payloads are the API's, built by
:mod:`~casino_holdem.services.viewing`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, current_app, stream_with_context

from ..services import viewing
from .security import login_required, player_id

bp = Blueprint("events", __name__, url_prefix="/events")
RETRY_MS = 1000
#: a comment line this often keeps proxies from closing a quiet stream
KEEPALIVE_SECONDS = 15.0


def _changed_part(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload without the server's clock, which changes on every poll."""
    return {key: value for key, value in payload.items() if key != "server_time"}


def _stream(build: Callable[[], dict[str, Any]], first: dict[str, Any] | None = None) -> Response:
    """Stream ``build()`` as it changes; ``first`` is an already built first payload."""
    poll = float(current_app.config["CASINO_SSE_POLL"])
    polls = max(1, int(float(current_app.config["CASINO_SSE_LIFETIME"]) / poll))
    keepalive_every = max(1, int(KEEPALIVE_SECONDS / poll))

    def events() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        last, quiet = None, 0
        for number in range(polls):
            if number:
                time.sleep(poll)
            payload = first if number == 0 and first is not None else build()
            current = _changed_part(payload)
            if current != last:
                last, quiet = current, 0
                yield f"event: state\ndata: {json.dumps(payload)}\n\n"
            else:
                quiet += 1
                if quiet % keepalive_every == 0:
                    yield ": keep-alive\n\n"

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/lobby")
@login_required
def lobby() -> Response:
    """The lobby's tables, phases, bettors and jackpot meters (R6) as they change."""
    viewer = player_id()
    return _stream(lambda: viewing.lobby_view(viewer))


@bp.get("/tables/<int:table_id>")
@login_required
def table(table_id: int) -> Response:
    """One table's state for this player (404 before the stream starts for an unknown table)."""
    viewer = player_id()
    first = viewing.table_view(table_id, viewer)  # an unknown table is a 404 before the stream starts
    return _stream(lambda: viewing.table_view(table_id, viewer), first)
