"""Reports of the takings: per table and day, or any period, from the rounds finished in it.

Stakes and payouts per bet type and currency come from the bets' stored outcomes; the gross
gaming revenue (what players staked minus what came back to them, Progressive prizes included) is
checked against the ledger — the players' wallet postings of the same rounds — to the cent, and a
report that disagrees says so (``ledger_agrees``). Observed return per bet is in base units (R6:
each stake divided by its currency's fixed multiplier) with a 95 % interval, next to the
paytable's exact figure where the rule book fixes it whatever the players do (the Bonus, R4).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import func, select

from ..core.money import ZERO
from ..core.paytable import Paytable
from ..core.rules import ALL_BETS
from ..extensions import db
from ..models import (
    AccountKind,
    Bet,
    GameRound,
    GameTable,
    LedgerAccount,
    LedgerTransaction,
    MovementKind,
    PoolMovement,
    Posting,
)
from . import queries
from .errors import Unprocessable
from .paytable_versions import ExactFigure, stored_paytable
from .transaction import transactional

FINISHED = ("settled", "void")
_EXACT_BONUS: dict[str, Decimal] = {}


@dataclass(frozen=True, slots=True)
class BetLine:
    """One bet type in one currency: how much was staked and how much came back."""

    bet: str
    currency: str
    stakes: Decimal
    returned: Decimal

    @property
    def revenue(self) -> Decimal:
        return self.stakes - self.returned


@dataclass(frozen=True, slots=True)
class Observed:
    """Observed return of one bet type in base units, its 95 % interval, and the exact figure."""

    bet: str
    count: int
    ratio: Decimal | None
    ci95: tuple[Decimal, Decimal] | None
    exact: Decimal | None


@dataclass(frozen=True, slots=True)
class Report:
    start: dt.datetime
    end: dt.datetime
    table_id: int | None
    rounds: int
    void_rounds: int
    bettors: int
    lines: list[BetLine]
    revenue: dict[str, Decimal]
    ledger_revenue: dict[str, Decimal]
    observed: list[Observed]
    contributions: Decimal
    prizes: Decimal
    liability: dict[str, Decimal] = field(default_factory=dict)

    @property
    def ledger_agrees(self) -> bool:
        return self.revenue == self.ledger_revenue


#: two-sided 95 % normal quantile
Z95 = Decimal("1.959963984540054")
RATIO_PLACES = Decimal("0.000001")


def _interval(pairs: list[tuple[Decimal, Decimal]]) -> tuple[Decimal, Decimal] | None:
    """95 % interval of Σ return / Σ stake over ``pairs`` (stake, return): the ratio estimator's
    standard error (delta method) from the residuals ``r − R·s``, computed in Decimal."""
    staked = sum((stake for stake, _ in pairs), ZERO)
    if len(pairs) < 2 or staked == 0:
        return None
    ratio = sum((back for _, back in pairs), ZERO) / staked
    spread = sum(((back - ratio * stake) ** 2 for stake, back in pairs), ZERO) * len(pairs) / (len(pairs) - 1)
    error = spread.sqrt() / staked
    return (ratio - Z95 * error).quantize(RATIO_PLACES), (ratio + Z95 * error).quantize(RATIO_PLACES)


def _observed(bets: list[tuple[Bet, Decimal]], exact_bonus: Decimal | None) -> list[Observed]:
    """Per bet type over base units: Σ return / Σ stake, its interval, and the exact figure."""
    rows = []
    for name in ALL_BETS:
        pairs = [(Decimal(bet.outcome[name]["stake"]) / multiplier, Decimal(bet.outcome[name]["returned"]) / multiplier)
                 for bet, multiplier in bets if bet.outcome and Decimal(bet.outcome.get(name, {}).get("stake", "0"))]
        staked = sum((stake for stake, _ in pairs), ZERO)
        ratio = (sum((back for _, back in pairs), ZERO) / staked).quantize(RATIO_PLACES) if staked else None
        rows.append(Observed(name, len(pairs), ratio, _interval(pairs), exact_bonus if name == "bonus" else None))
    return rows


@transactional
def report(start: dt.datetime, end: dt.datetime, table_id: int | None = None, *,
           exact_bonus: ExactFigure | None = None) -> Report:
    """The rounds of ``[start, end)`` (by when they finished), of one table or all; with
    ``exact_bonus`` (the compliance tools' R4 figure) the Bonus's exact return beside the observed."""
    if end <= start:
        raise Unprocessable("end: the period ends after it starts", "end")
    statement = select(GameRound).where(GameRound.phase.in_(FINISHED), GameRound.finished_at >= start,
                                        GameRound.finished_at < end)
    if table_id is not None:
        statement = statement.where(GameRound.table_id == queries.get(GameTable, table_id).id)
    finished = db.session.scalars(statement.order_by(GameRound.id)).all()
    ids = [row.id for row in finished]
    stakes: dict[tuple[str, str], list[Decimal]] = defaultdict(lambda: [ZERO, ZERO])
    bets: list[tuple[Bet, Decimal]] = []
    bettors: set[int] = set()
    paytables = {}
    for round_row in finished:
        paytable = stored_paytable(round_row.paytable_id, round_row.paytable_version, round_row.paytable_sha256)
        paytables[paytable.sha256] = paytable
        for bet in round_row.bets:
            bettors.add(bet.player_id)
            bets.append((bet, paytable.currency(bet.currency).multiplier))
            for name, outcome in (bet.outcome or {}).items():
                line = stakes[(name, bet.currency)]
                line[0] += Decimal(outcome["stake"])
                line[1] += Decimal(outcome["returned"])
    lines = [BetLine(name, currency, staked, back) for (name, currency), (staked, back) in sorted(stakes.items())]
    revenue: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for bet_line in lines:
        revenue[bet_line.currency] += bet_line.revenue
    movements = dict(db.session.execute(
        select(PoolMovement.kind, func.sum(PoolMovement.amount)).where(PoolMovement.round_id.in_(ids))
        .group_by(PoolMovement.kind)).all()) if ids else {}
    pools = {row.table.pool_id: row.table.pool for row in finished}
    exact = _exact_bonus(exact_bonus, *paytables.values()) if exact_bonus and len(paytables) == 1 else None
    return Report(start, end, table_id, len(finished), sum(row.phase == "void" for row in finished), len(bettors),
                  lines, dict(revenue), _ledger_revenue(ids), _observed(bets, exact),
                  Decimal(movements.get(MovementKind.CONTRIBUTION.value) or ZERO)
                  + Decimal(movements.get(MovementKind.CONTRIBUTION_REVERSAL.value) or ZERO),
                  -Decimal(movements.get(MovementKind.PRIZE.value) or ZERO),
                  {pool.name: pool.amount for pool in pools.values()})


def _exact_bonus(figure: ExactFigure, paytable: Paytable) -> Decimal:
    """R4: the Bonus's exact return when every hand plays it to the end (the rule book's figure);
    shown only when the period was played under one paytable version. Cached by SHA-256."""
    if paytable.sha256 not in _EXACT_BONUS:
        exact = figure(paytable)
        _EXACT_BONUS[paytable.sha256] = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
            Decimal("0.000001"))
    return _EXACT_BONUS[paytable.sha256]


def _ledger_revenue(round_ids: list[int]) -> dict[str, Decimal]:
    """What the players' wallets lost to these rounds per currency, from the ledger alone."""
    if not round_ids:
        return {}
    rows = db.session.execute(
        select(Posting.currency, func.sum(Posting.amount)).join(LedgerTransaction)
        .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
        .where(LedgerTransaction.round_id.in_(round_ids), LedgerAccount.kind == AccountKind.WALLET.value)
        .group_by(Posting.currency)).all()
    return {currency: -Decimal(total) for currency, total in rows}


def day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """A calendar day in UTC."""
    start = dt.datetime.combine(day, dt.time(), dt.UTC)
    return start, start + dt.timedelta(days=1)


def to_csv(reports: list[Report]) -> str:
    """One row per report, bet type and currency, then the revenue and ledger rows."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["start", "end", "table_id", "rounds", "void_rounds", "bettors", "bet", "currency", "stakes",
                     "returned", "revenue"])
    for item in reports:
        head = [item.start.isoformat(), item.end.isoformat(), item.table_id or "all", item.rounds,
                item.void_rounds, item.bettors]
        for line in item.lines:
            writer.writerow([*head, line.bet, line.currency, line.stakes, line.returned, line.revenue])
        for currency, total in sorted(item.revenue.items()):
            writer.writerow([*head, "total", currency, "", "", total])
    return out.getvalue()
