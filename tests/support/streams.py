"""The production web app (:mod:`casino_holdem.asgi`) served by uvicorn on a thread of the test,
and a raw reader of its event streams."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from flask import Flask

from casino_holdem.asgi import create_asgi

from .server import free_port, wait_until

CEILING = 60.0


#: the last ASGI app :func:`asgi_server` started (its ``state.fanout`` counts the builds)
started: list[Any] = []


@contextmanager
def asgi_server(app: Flask) -> Iterator[tuple[str, int]]:
    """Serve ``app`` behind the ASGI app; yields (host, port) once uvicorn has started."""
    port = free_port()
    asgi = create_asgi(app)
    started[:] = [asgi]
    server = uvicorn.Server(uvicorn.Config(asgi, host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, seconds=CEILING, what="uvicorn")
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(timeout=CEILING)


class Stream:
    """One open event stream, read block by block."""

    def __init__(self, address: tuple[str, int], path: str, cookie: str | None) -> None:
        self.connection = http.client.HTTPConnection(*address, timeout=CEILING)
        self.connection.request("GET", path, headers={"Cookie": f"session={cookie}"} if cookie else {})
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def body(self) -> Any:
        return json.loads(self.response.read())

    def block(self) -> str:
        lines = []
        while (line := self.response.readline().decode()) not in ("\n", ""):
            lines.append(line)
        return "".join(lines)

    def state(self, *, where: Any = None, seconds: float = CEILING) -> dict[str, Any]:
        """The next ``state`` event (the first one for which ``where(state)`` holds)."""
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            block = self.block()
            if block.startswith("event: state"):
                payload = json.loads(block.split("data: ", 1)[1])
                if where is None or where(payload):
                    return payload
        raise AssertionError("no such state")

    def close(self) -> None:
        self.connection.close()


def opened_at_once(address: tuple[str, int], path: str, cookies: list[str]) -> list[Stream]:
    """One stream per cookie, all requested at the same moment (one thread each)."""
    streams: list[Stream] = []
    openers = [threading.Thread(target=lambda c=cookie: streams.append(Stream(address, path, c))) for cookie in cookies]
    for opener in openers:
        opener.start()
    for opener in openers:
        opener.join(CEILING)
    return streams
