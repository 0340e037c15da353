"""Admitting a new event stream (issue 10): whose session it is and what the viewer needs (their
currency, R6, and balance), for every stream opened at about the same moment in ONE read.

A page load opens two streams and a casino floor opens thousands at once (a restart, a proxy
reconnecting everyone). One database round trip each, in the server's few worker threads, would
queue them for seconds before their first byte; gathered, the streams that arrive while a read
runs are all answered by the next one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from flask import Flask

from ..services import sessions, viewing

K = TypeVar("K")
V = TypeVar("V")


class Batch(Generic[K, V]):
    """Calls of :meth:`get` made while one read runs are answered together by the next: ``read``
    takes the keys and returns what it found for each (a key it leaves out gets None). An error
    of the read is raised to every call it would have answered."""

    def __init__(self, read: Callable[[list[K]], dict[K, V]]) -> None:
        self.read = read
        self.waiting: dict[K, list[asyncio.Future[V | None]]] = {}
        self.task: asyncio.Task[None] | None = None

    async def get(self, key: K) -> V | None:
        future: asyncio.Future[V | None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(key, []).append(future)
        if self.task is None:
            self.task = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self.waiting:
                batch, self.waiting = self.waiting, {}
                try:
                    found = await asyncio.to_thread(self.read, list(batch))
                except Exception as error:
                    for futures in batch.values():
                        for future in futures:
                            if not future.done():
                                future.set_exception(error)
                    continue
                for key, futures in batch.items():
                    for future in futures:
                        if not future.done():
                            future.set_result(found.get(key))
        finally:
            self.task = None


@dataclass(frozen=True, slots=True)
class Viewer:
    """A stream's player: who, their currency and balance."""

    player_id: int
    currency: str
    balance: dict[str, str]


def admitter(app: Flask) -> Batch[str, Viewer]:
    """Session tokens → the live players' :class:`Viewer` (an operator's, revoked or expired
    session, or an unknown player, is left out)."""

    def read(tokens: list[str]) -> dict[str, Viewer]:
        with app.app_context():
            players = {token: principal.id for token, principal in sessions.resolve_many(tokens).items()
                       if principal.kind == sessions.PLAYER}
            known = viewing.viewers_of(players.values())
        return {token: Viewer(player_id, *known[player_id]) for token, player_id in players.items()
                if player_id in known}

    return Batch(read)


def live_sessions(app: Flask, tokens: list[str]) -> set[str]:
    """Which of these tokens are still live players' sessions (one read): an open stream whose
    session was revoked since (logout, a password change) is ended (issue 10)."""
    with app.app_context():
        return {token for token, principal in sessions.resolve_many(tokens).items()
                if principal.kind == sessions.PLAYER}
