"""The server-sent events wire format the pages' ``EventSource`` reads: a ``retry`` line first, an
``event: state`` with the JSON payload on each change, a comment line as keep-alive so proxies keep
a quiet stream open.

A payload goes on the wire as a :class:`Frame`, encoded once however many streams send it. The
viewers of one table or of the lobby share most of what they see (issue 10: the public part is
built once per change), so the frames of one build share a :class:`Memo`: a part that several
payloads hold as the same object is turned into JSON once, and each viewer's frame is the
concatenation of the encoded parts — byte for byte what :func:`encode` of the whole would give.

A frame is UTF-8 bytes, encoded by orjson: what a stream sends, as it sends it. Encoding the
frames was a quarter of a table's build for its streams with the standard library's ``json`` (100
viewers: 10.3 ms of CPU, against 1.8 ms with orjson, ``bench/request_cost.py``'s host of
2026-12-07), and each of a lobby build's thousands of frames was encoded again to bytes per send.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

RETRY_MS = 1000
#: a comment line this often keeps proxies from closing a quiet stream
KEEPALIVE_SECONDS = 15.0
RETRY = f"retry: {RETRY_MS}\n\n".encode()
KEEPALIVE = b": keep-alive\n\n"
#: a stream carries the viewer's own bets and balance: personal data no cache may keep (issue 10)
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
MEDIA_TYPE = "text/event-stream"
#: the server's clock differs on every build: it alone never makes a frame new
CLOCK = "server_time"
#: a key that is not a string (a number) is written as one, as the standard library's ``json`` does
OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(value: Any) -> bytes:
    """The compact JSON of ``value`` (amounts are already decimal strings: no float is written)."""
    return orjson.dumps(value, option=OPTIONS)


@dataclass(frozen=True, slots=True)
class Frame:
    """One ``state`` event ready to send, and the key a stream compares to the last one it sent."""

    body: bytes
    key: tuple[tuple[str, bytes], ...]


@dataclass(slots=True)
class Memo:
    """The JSON of the parts already encoded in one build, by object identity (the objects are kept
    alive with it, so an identity is never reused while it lives)."""

    encoded: dict[int, tuple[Any, bytes]] = field(default_factory=dict)

    def encode(self, value: Any) -> bytes:
        if not isinstance(value, (dict, list)):
            return encode(value)
        seen = self.encoded.get(id(value))
        if seen is None:
            seen = self.encoded[id(value)] = (value, encode(value))
        return seen[1]


#: put in a stream's queue to end it (its session was revoked, its lifetime is over): never sent
END = Frame(b"", ())
#: put in a quiet stream's queue: send it a keep-alive comment (:data:`KEEPALIVE`)
QUIET = Frame(KEEPALIVE, ())


def frame(payload: dict[str, Any], memo: Memo | None = None) -> Frame:
    """The ``state`` event of ``payload``; parts shared with other payloads of ``memo`` are encoded once."""
    memo = memo if memo is not None else Memo()
    parts = [(name, memo.encode(value)) for name, value in payload.items()]
    body = b",".join(encode(name) + b":" + data for name, data in parts)
    return Frame(b"event: state\ndata: {" + body + b"}\n\n", tuple(part for part in parts if part[0] != CLOCK))
