"""Events that scale (issue 10): a state change is published once, after the commit that made it,
on a bus every process of the floor shares; each process keeps one listener and fans the change
out to its open streams.

- :mod:`.bus` — the bus backends behind one interface: Redis pub/sub (``CASINO_REDIS_URL``),
  PostgreSQL LISTEN/NOTIFY (a PostgreSQL database), or in-process (the SQLite demo, where the web
  app and the dealer thread share one process).
- :mod:`.publish` — the session hooks that collect "table N changed (or only its players' bets and
  decisions did) / lobby changed / player N's wallet moved" while a transaction flushes and
  publish them after its commit (never before; a rollback publishes nothing).
- :mod:`.wire` — the server-sent events wire format the browser pages read.
- :mod:`.fanout` — the asynchronous fan-out: one build of a table's public state per change,
  each subscriber's own part added, pushed to its queue.
"""

from __future__ import annotations

from . import wire
from .bus import Bus, bus_of, install
from .publish import LOBBY, beyond_players, player_topic, players_named, players_only, table_topic, tables_named

__all__ = ["LOBBY", "Bus", "beyond_players", "bus_of", "install", "player_topic", "players_named", "players_only",
           "table_topic", "tables_named", "wire"]
