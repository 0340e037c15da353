"""Looks at the database: its planner statistics before a run (:func:`fresh_statistics`), and
after it, read only, the dealer's lag and the faults' independent ledger checks.

The API shows when a window closes (``deadline``) but not when the dealer actually acted, so the
dealer lag comes from the timestamps the server records: the audit log's ``round_opened``,
``betting_extended`` (with their betting deadline), ``dealt`` (with the street) and
``round_settled`` entries, the rounds' ``finished_at`` and the decisions' ``decided_at``. A step is
*due* when its window closes: the betting deadline; for a decision window (R8), its deadline when
anyone timed out, otherwise the last decision (the window closes early once every bettor has
decided); the settlement is due as the river is dealt, the next round when the last one's
showdown pause ends (R2.7: ``finished_at`` + ``showdown_pause``, the server's
``CASINO_SHOWDOWN_PAUSE``), and an empty betting window is reopened when it ends (a round nobody
bet on is not dealt).
"""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from typing import Any

import psycopg

from casino_holdem.services.windows import window_end

from .options import plain_database_url
from .stats import percentiles

#: the decision window each street's deal closes (R2.3-R2.5)
CLOSES = {"flop": "preflop", "turn": "flop", "river": "turn"}
PREVIOUS = {"flop": "hole_cards", "turn": "flop", "river": "turn"}


def connect(url: str) -> psycopg.Connection[Any]:
    return psycopg.connect(plain_database_url(url), autocommit=True, connect_timeout=10)


def fresh_statistics(url: str) -> str | None:
    """Analyze the database when its server's autovacuum is off (a CI cluster may turn it off; a
    production server keeps it on, its default): the planner then sees the tables as they are
    after the set-up, as autovacuum would have shown them. Never analyzed, the tables a run fills
    by the thousand get default estimates, and a read of a few bets' decisions scanned every
    decision (6 ms at 52,000 decisions, growing with the table; 0.05 ms by its index once
    analyzed). Returns a note for the report when it analyzed, else None."""
    with connect(url) as db:
        row = db.execute("SHOW autovacuum").fetchone()
        if row is not None and row[0] == "on":
            return None
        started = time.perf_counter()
        db.execute("ANALYZE")
    return (f"PostgreSQL's autovacuum is off on this server: the bench analyzed the database after the set-up "
            f"({time.perf_counter() - started:.1f} s), as autovacuum would have")


def _due_of_window(opened: dt.datetime, seconds: int, decisions: list[tuple[dt.datetime, str | None]]) -> dt.datetime:
    if any(automatic == "timeout" for _, automatic in decisions):
        return opened + dt.timedelta(seconds=seconds)
    return max([opened] + [at for at, _ in decisions])


def dealer_lag(url: str, table_ids: list[int], since: float, until: float, showdown_pause: float) -> dict[str, Any]:
    """Percentiles of (done - due) per kind of dealer step on these tables in [since, until]."""
    start, end = (dt.datetime.fromtimestamp(t, dt.UTC) for t in (since, until))
    with connect(url) as db:
        timers = {table_id: (betting, decision) for table_id, betting, decision in db.execute(
            "SELECT id, betting_seconds, decision_seconds FROM game_tables WHERE id = ANY(%s)", (table_ids,))}
        windows = {table_id: decision for table_id, (_, decision) in timers.items()}
        entries = db.execute(
            "SELECT a.round_id, r.table_id, r.number, a.action, a.at, a.detail, r.finished_at FROM audit_log a "
            "JOIN rounds r ON r.id = a.round_id WHERE r.table_id = ANY(%s) AND a.at BETWEEN %s AND %s "
            "AND a.action IN ('round_opened', 'betting_extended', 'bets_placed', 'dealt', 'round_settled') "
            "ORDER BY r.table_id, r.number, a.at, a.id", (table_ids, start, end)).fetchall()
        rounds = sorted({row[0] for row in entries})
        decided: dict[tuple[int, str], list[tuple[dt.datetime, str | None]]] = defaultdict(list)
        for round_id, street, at, automatic in db.execute(
                "SELECT b.round_id, d.street, d.decided_at, d.automatic FROM decisions d "
                "JOIN bets b ON b.id = d.bet_id WHERE b.round_id = ANY(%s)", (rounds,)):
            decided[(round_id, street)].append((at, automatic))
    lags: dict[str, list[float]] = defaultdict(list)
    betting_due: dict[int, dt.datetime] = {}
    dealt: dict[tuple[int, str], dt.datetime] = {}
    pause = dt.timedelta(seconds=showdown_pause)
    showdown_ends: dict[tuple[int, int], dt.datetime] = {}
    for round_id, table_id, number, action, at, detail, finished_at in entries:
        if action in ("round_opened", "betting_extended"):
            if action == "betting_extended" and round_id in betting_due:
                lags["empty betting window reopened"].append((at - betting_due[round_id]).total_seconds())
            betting_due[round_id] = dt.datetime.fromisoformat(detail["deadline"])
            previous = showdown_ends.get((table_id, number - 1))
            if action == "round_opened" and previous is not None:
                lags["next round opened after the showdown pause"].append((at - previous).total_seconds())
        elif action == "bets_placed" and round_id in betting_due and at >= betting_due[round_id]:
            # the round's first bet came after its window (R8): the window in force then is the one due
            betting_due[round_id] = window_end(betting_due[round_id], timers[table_id][0], at)
        elif action == "dealt" and detail.get("street") == "hole_cards" and round_id in betting_due:
            lags["hole cards after the betting deadline"].append((at - betting_due[round_id]).total_seconds())
        elif action == "dealt" and (round_id, PREVIOUS.get(detail.get("street"), "")) in dealt:
            street = detail["street"]
            opened = dealt[(round_id, PREVIOUS[street])]
            due = _due_of_window(opened, windows[table_id], decided[(round_id, CLOSES[street])])
            lags[f"{street} after its decision window closed"].append((at - due).total_seconds())
        elif action == "round_settled" and (round_id, "river") in dealt:
            lags["settlement after the river"].append((at - dealt[(round_id, "river")]).total_seconds())
        if action == "dealt":
            dealt[(round_id, detail.get("street"))] = at
        if action == "round_settled" and finished_at is not None:
            showdown_ends[(table_id, number)] = finished_at + pause
    everything = [lag for values in lags.values() for lag in values]
    return {**{kind: percentiles(values) for kind, values in sorted(lags.items())},
            "every step": percentiles(everything)}


def ledger_breaks(url: str) -> dict[str, Any]:
    """Independently of ``audit-ledger``: every wallet recomputed from its postings equals its
    balance, and each jackpot pool equals its history of movements and its ledger account (R5)."""
    with connect(url) as db:
        wallets = db.execute("SELECT count(*) FROM ledger_accounts WHERE kind = 'wallet'").fetchone()[0]
        wallet_breaks = db.execute(
            "SELECT a.code, a.balance, COALESCE(SUM(p.amount), 0) FROM ledger_accounts a "
            "LEFT JOIN postings p ON p.account_id = a.id WHERE a.kind = 'wallet' "
            "GROUP BY a.id HAVING a.balance <> COALESCE(SUM(p.amount), 0)").fetchall()
        pools = db.execute(
            "SELECT j.name, j.amount, "
            "COALESCE((SELECT SUM(m.amount) FROM pool_movements m WHERE m.pool_id = j.id), 0), "
            "(SELECT SUM(a.balance) FROM ledger_accounts a WHERE a.kind = 'pool' AND a.pool_id = j.id) "
            "FROM jackpot_pools j").fetchall()
    pool_breaks = [(name, amount, moved, ledger) for name, amount, moved, ledger in pools
                   if not amount == moved == (ledger or 0)]
    return {"wallets": wallets, "wallet_breaks": [f"{code}: balance {b}, postings {p}" for code, b, p in wallet_breaks],
            "pools": len(pools),
            "pool_breaks": [f"{name}: amount {a}, movements {m}, ledger {led}" for name, a, m, led in pool_breaks]}


def settled_rounds(url: str, table_ids: list[int], since: float) -> list[int]:
    """The rounds of these tables settled since ``since``."""
    with connect(url) as db:
        return [row[0] for row in db.execute(
            "SELECT id FROM rounds WHERE table_id = ANY(%s) AND finished_at >= %s AND phase = 'settled' ORDER BY id",
            (table_ids, dt.datetime.fromtimestamp(since, dt.UTC)))]
