"""The server-sent events wire format the pages' ``EventSource`` reads: a ``retry`` line first, an
``event: state`` with the JSON payload on each change, a comment line as keep-alive so proxies keep
a quiet stream open."""

from __future__ import annotations

import json
from typing import Any

RETRY_MS = 1000
#: a comment line this often keeps proxies from closing a quiet stream
KEEPALIVE_SECONDS = 15.0
RETRY = f"retry: {RETRY_MS}\n\n"
KEEPALIVE = ": keep-alive\n\n"
#: a stream carries the viewer's own bets and balance: personal data no cache may keep (issue 10)
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
MEDIA_TYPE = "text/event-stream"


def changed_part(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload without the server's clock, which differs on every build."""
    return {key: value for key, value in payload.items() if key != "server_time"}


def state(payload: dict[str, Any]) -> str:
    """One ``state`` event."""
    return f"event: state\ndata: {json.dumps(payload)}\n\n"
