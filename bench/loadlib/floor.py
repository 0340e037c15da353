"""Setting up the casino floor through the operator's ``casino-holdem`` commands.

Names are stable (``bench-pool-1``, ``bench-b10-d10-pool1-t001``, ``bench-p00001``), so a second
run on the same database finds its pools, tables and players and creates only what is missing.
Players are created and funded in bulk (``player create-many`` and ``player deposit-many``: two
processes for a thousand players, each distinct password hashed once), then log in through the API. Bench tables that
this run does not use are closed, so an idle measurement sees exactly the tables it asked for.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .client import Account

PASSWORD = "bench-password-1"
OPERATOR = "bench"
#: R6: players in several currencies, so limits, chips and meters are scaled as in a real casino
CURRENCIES = ("USD", "RMB", "THB", "JPY", "EUR")
#: table limits in base units (R6 scales them per currency)
ANTE, BONUS = ("1", "100"), ("1", "100")
#: a player's float in minimum Antes: topped up below the first, to the second
LOW_FUNDS, DEPOSIT = Decimal(500), Decimal(2000)
LOGINS_AT_ONCE = 8


class SetupError(RuntimeError):
    """The floor could not be set up; the message says which command failed and why."""


@dataclass(frozen=True)
class Table:
    id: int
    name: str
    pool_id: int


class Cli:
    """``casino-holdem`` run as a subprocess, a few at a time (each is a Python start-up)."""

    def __init__(self, executable: str, env: dict[str, str], at_once: int | None = None) -> None:
        self.executable, self.env = executable, env
        self.gate = asyncio.Semaphore(at_once or os.cpu_count() or 2)

    async def run(self, *args: str, given: str | None = None) -> tuple[int, str, str]:
        """The command's exit status and output; ``given`` is its standard input."""
        async with self.gate:
            process = await asyncio.create_subprocess_exec(
                self.executable, *args, env=self.env,
                stdin=asyncio.subprocess.DEVNULL if given is None else asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await process.communicate(None if given is None else given.encode())
        assert process.returncode is not None
        return process.returncode, out.decode(errors="replace"), err.decode(errors="replace")

    async def json(self, *args: str, given: str | None = None) -> Any:
        code, out, err = await self.run(*args, given=given)
        if code != 0:
            last = (err.strip().splitlines() or ["(no message)"])[-1]
            raise SetupError(f"casino-holdem {' '.join(args)}: exit {code}: {last}")
        return json.loads(out)

    async def audit_ledger(self) -> dict[str, Any]:
        """``casino-holdem audit-ledger``: exit 0 means every ledger invariant holds."""
        code, out, err = await self.run("audit-ledger")
        lines = (out + err).strip().splitlines()
        return {"sound": code == 0, "exit": code, "summary": lines[-1] if lines else "(no output)",
                "problems": lines[:-1][:50]}


async def ensure_operator(cli: Cli) -> None:
    """The bench's back-office account: a manager (it creates, opens and closes tables and credits
    wallets; every one of those commands names an account whose role has the duty)."""
    if any(row["username"] == OPERATOR for row in await cli.json("operator", "list")):
        return
    await cli.json("operator", "create", OPERATOR, "--role", "manager", "--password-stdin",
                   given=f"{PASSWORD}-{OPERATOR}-manager\n")


def table_name(args: Any, index: int) -> str:
    pool = index % args.pools + 1
    return f"bench-b{args.betting_seconds}-d{args.decision_seconds}-pool{pool}-t{index + 1:03d}"


async def ensure_tables(cli: Cli, args: Any) -> tuple[list[Table], list[str]]:
    """Migrate, then the pools and open tables this run asks for; returns the tables and the
    names of other open tables (not the bench's) that the dealers will also be serving."""
    code, _, err = await cli.run("init-db")
    if code != 0:
        raise SetupError(f"casino-holdem init-db: exit {code}: {err.strip()[-300:]}")
    await ensure_operator(cli)
    pools = [await cli.json("pool", "create", f"bench-pool-{j + 1}") for j in range(args.pools)]
    existing = {row["name"]: row for row in await cli.json("table", "list")}
    wanted = [table_name(args, i) for i in range(args.tables)]

    async def one(index: int, name: str) -> Table:
        row = existing.get(name)
        if row is None:
            row = await cli.json("table", "create", name, "--pool", str(pools[index % args.pools]["id"]),
                                 "--ante", *ANTE, "--bonus", *BONUS, "--betting-seconds", str(args.betting_seconds),
                                 "--decision-seconds", str(args.decision_seconds), "--operator", OPERATOR)
        elif not row["is_open"]:
            row = await cli.json("table", "open", str(row["id"]), "--operator", OPERATOR)
        return Table(row["id"], name, row["pool_id"])

    tables = await asyncio.gather(*(one(i, name) for i, name in enumerate(wanted)))
    stale = [row for name, row in existing.items() if name.startswith("bench-") and row["is_open"]
             and name not in wanted]
    await asyncio.gather(*(cli.json("table", "close", str(row["id"]), "--operator", OPERATOR) for row in stale))
    others = [name for name, row in existing.items() if row["is_open"] and not name.startswith("bench-")]
    return list(tables), others


def _json_lines(rows: Sequence[dict[str, str]]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


async def ensure_accounts(cli: Cli, accounts: Sequence[Account]) -> int:
    """Create the accounts that do not exist yet (one ``player create-many``), then log every one
    in; returns how many were created. Account ``i`` gets currency ``CURRENCIES[i % 5]`` (R6)."""
    created = await cli.json("player", "create-many", "-", given=_json_lines(
        [{"username": a.username, "currency": CURRENCIES[i % len(CURRENCIES)], "password": a.password}
         for i, a in enumerate(accounts)]))
    gate = asyncio.Semaphore(LOGINS_AT_ONCE)

    async def login(account: Account) -> bool:
        async with gate:
            return await account.login()

    if not all(await asyncio.gather(*(login(a) for a in accounts))):
        raise SetupError("login: a bench player could not log in")
    return int(created["created"])


async def ensure_funds(cli: Cli, players: Sequence[tuple[Account, int]], run_id: str) -> int:
    """Top up (one ``player deposit-many``, one cashier reference per run and player) every player
    whose available balance is below ``LOW_FUNDS`` minimum Antes of their table, in their currency."""
    gate = asyncio.Semaphore(LOGINS_AT_ONCE)

    async def one(account: Account, table_id: int) -> dict[str, str] | None:
        async with gate:
            _, me = await account.call("GET", "/api/me", "GET /api/me")
            _, state = await account.call("GET", f"/api/tables/{table_id}", "GET /api/tables/{id}")
        ante_min = Decimal(state["table"]["limits"]["ante_min"])
        if Decimal(me["balance"]["available"]) >= LOW_FUNDS * ante_min:
            return None
        return {"username": account.username, "amount": str(DEPOSIT * ante_min),
                "key": f"bench:{run_id}:{account.username}"}

    wanted = [row for row in await asyncio.gather(*(one(a, t) for a, t in players)) if row is not None]
    if wanted:
        await cli.json("player", "deposit-many", "-", "--operator", OPERATOR, given=_json_lines(wanted))
    return len(wanted)
