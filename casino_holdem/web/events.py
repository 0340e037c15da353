"""Live updates as server-sent events on the development server (``casino-holdem serve``) and in
tests; production serves the same paths from the asynchronous fan-out (:mod:`casino_holdem.asgi`),
which holds a stream without a thread.

A stream here does not poll the database: it waits on the app's event bus
(:mod:`casino_holdem.events`) for its topic, rebuilds the viewer's state through
:mod:`~casino_holdem.services.viewing` when notified and sends it when what this viewer may see
changed, in the same wire format (:mod:`casino_holdem.events.wire`). It ends after
``CASINO_SSE_LIFETIME`` seconds (the browser's EventSource reconnects by itself).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

from flask import Blueprint, Response, current_app, stream_with_context

from ..events import LOBBY, bus_of, player_topic, players_only, table_topic, wire
from ..events.bus import EVERYTHING
from ..services import viewing
from .security import login_required, player_id

bp = Blueprint("events", __name__, url_prefix="/events")


def _stream(topic: str, viewer: int, build: Callable[[], dict[str, Any]],
            first: dict[str, Any] | None = None) -> Response:
    """Stream ``build()`` whenever ``topic`` is published, or a posting moved ``viewer``'s wallet
    (their balance is part of the state); ``first`` is an already built first payload."""
    wait = float(current_app.config["CASINO_SSE_POLL"])
    lifetime = float(current_app.config["CASINO_SSE_LIFETIME"])
    keepalive_every = max(1, int(wire.KEEPALIVE_SECONDS / wait))
    bus = bus_of()
    notified = threading.Event()

    mine = player_topic(viewer)

    def deliver(topics: frozenset[str]) -> None:
        if topic in topics or players_only(topic) in topics or mine in topics or EVERYTHING in topics:
            notified.set()

    def events() -> Iterator[bytes]:
        # the lifetime is measured by a timer thread: real time, even under a test's frozen clock
        expired = threading.Timer(lifetime, lambda: None)
        expired.daemon = True
        expired.start()
        unsubscribe = bus.subscribe(deliver)
        try:
            yield wire.RETRY
            sent, quiet = wire.frame(first if first is not None else build()), 0
            yield sent.body
            while expired.is_alive():
                if notified.wait(wait):
                    notified.clear()
                    latest = wire.frame(build())
                    if latest.key != sent.key:
                        sent, quiet = latest, 0
                        yield sent.body
                        continue
                quiet += 1
                if quiet % keepalive_every == 0:
                    yield wire.KEEPALIVE
        finally:
            expired.cancel()
            unsubscribe()

    return Response(stream_with_context(events()), mimetype=wire.MEDIA_TYPE, headers=wire.HEADERS)


@bp.get("/lobby")
@login_required
def lobby() -> Response:
    """The lobby's tables as they change: each one's id, jackpot meter (R6), suspension and round
    (phase, bettors, countdown); their settings are on the page and in ``GET /api/tables``."""
    viewer = player_id()
    return _stream(LOBBY, viewer, lambda: viewing.lobby_view(viewer, live=True))


@bp.get("/tables/<int:table_id>")
@login_required
def table(table_id: int) -> Response:
    """One table's state for this player (404 before the stream starts for an unknown table)."""
    viewer = player_id()
    first = viewing.table_view(table_id, viewer)  # an unknown table is a 404 before the stream starts
    return _stream(table_topic(table_id), viewer, lambda: viewing.table_view(table_id, viewer), first)
