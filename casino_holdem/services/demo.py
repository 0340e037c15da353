"""Demo data: players in several currencies with demo money, bots, and tables sharing one seeded
jackpot pool. Idempotent: running it again creates and deposits nothing twice.

Logins: ``demo1`` … ``demo5`` with the password ``demo`` (README); bots are ``bot1`` … ``bot4``.
The tables deal from the server's shuffle, but for one live table (R1) dealt from the console.
Operators (issue 11), password ``demo`` too: ``pit1``, ``manager1`` and ``manager2`` (two, so a
second manager can approve the first one's change), ``auditor1`` and ``dealer1``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import GameTable
from . import jackpot, operators, tables, wallet
from .transaction import transactional

PASSWORD = "demo"
#: (username, currency, deposit): about 10,000 base units each (R6 multipliers)
PLAYERS = (("demo1", "USD", "10000"), ("demo2", "RMB", "50000"), ("demo3", "THB", "250000"),
           ("demo4", "JPY", "1000000"), ("demo5", "EUR", "10000"))
BOTS = (("bot1", "USD", "10000"), ("bot2", "THB", "250000"), ("bot3", "JPY", "1000000"), ("bot4", "RMB", "50000"))
POOL = "Linked progressive"
POOL_SEED = Decimal(10000)
TABLES = ("Bangkok", "Macau", "Monaco")
#: R1: a table dealt from the dealer's console (issue 12), for ``dealer1`` or ``pit1`` to deal at
LIVE_TABLES = ("Studio",)
OPERATORS = (("pit1", "pit"), ("manager1", "manager"), ("manager2", "manager"), ("auditor1", "auditor"),
             ("dealer1", "dealer"))


@transactional
def ensure_demo_data(*, betting_seconds: int = 15, decision_seconds: int = 15) -> dict[str, Any]:
    """Create whatever of the demo set is missing; returns what exists."""
    players = []
    for (username, currency, amount), is_bot in [*((p, False) for p in PLAYERS), *((b, True) for b in BOTS)]:
        player = wallet.find_player(username) or wallet.create_player(username, PASSWORD, currency, is_bot=is_bot)
        wallet.deposit(player.id, amount, f"demo:{username}")
        players.append(player)
    for username, role in OPERATORS:
        if operators.find(username) is None:
            operators.create(username, PASSWORD, role, strict=False)
    pool = jackpot.ensure_pool(POOL)
    jackpot.top_up(pool.id, POOL_SEED, "demo pool seed", None, idempotency_key=f"demo-seed:{pool.id}")
    for name in (*TABLES, *LIVE_TABLES):
        if db.session.scalars(select(GameTable).where(GameTable.name == name)).first() is None:
            tables.create_table(name, pool.id, ante_min=Decimal(1), ante_max=Decimal(500), bonus_min=Decimal(1),
                                bonus_max=Decimal(100), max_bettors=50, betting_seconds=betting_seconds,
                                decision_seconds=decision_seconds, is_demo=True,
                                dealing="live" if name in LIVE_TABLES else "rng")
    return {"players": [p.username for p in players], "operators": [name for name, _ in OPERATORS],
            "pool": jackpot.pool_view(pool.id).amount,
            "tables": [t.name for t in tables.list_tables()]}
