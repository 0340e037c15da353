"""The exact return figures of every paytable version, stored once and read by the back office
(issue 11: each version's figures, the RTP change between two) and the players' rules panel
(issue 13: the return of each bet).

The figures are ``casino-holdem rtp``'s (R3 main game per bet under each strategy it scores
exactly, R4 Bonus, R5 Progressive), computed by the commands layer: services and web may not import
the compliance tools, so the commands hand the finished document in and everything here only stores
and reads it. One row per (paytable SHA-256, engine hash): a version never changes (its hash is its
name) and a changed engine computes again. Every figure is an exact string (``{"fraction": "n/d",
"decimal": "0.…"}``), never a float. A row without figures is a *claim*: one process computes a
version while the others skip it; a claim older than :data:`CLAIM_SECONDS` is taken over (its
process died).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from typing import Any

from sqlalchemy import and_, or_, select

from ..extensions import db
from ..models import PaytableFigures, PaytableVersion
from . import queries
from .kept import kept
from .transaction import clock, transactional

#: a claim this old is abandoned (the slowest full computation takes minutes, not an hour)
CLAIM_SECONDS = 3600
#: the strategy whose figures players are shown: the best play (R2), the return the game offers
PLAYER_STRATEGY = "optimal"
#: decimal places of the stored decimal strings (the fraction is the exact figure)
PLACES = 10


def decimal_text(value: Fraction, places: int = PLACES) -> str:
    """``value`` as a decimal string rounded half-even to ``places`` (exact arithmetic, no float)."""
    with localcontext() as context:
        context.prec = 60
        quotient = Decimal(value.numerator) / Decimal(value.denominator)
        return str(quotient.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def exact(value: Fraction) -> dict[str, str]:
    """One stored figure: the exact fraction and its decimal string."""
    return {"fraction": f"{value.numerator}/{value.denominator}", "decimal": decimal_text(value)}


def fraction_of(figure: dict[str, str]) -> Fraction:
    return Fraction(figure["fraction"])


@dataclass(frozen=True, slots=True)
class Claim:
    """A version this process computes now: its bytes (the commands parse them) and reference."""

    sha256: str
    paytable_id: str
    version: int
    content: bytes


@dataclass(frozen=True, slots=True)
class FiguresView:
    """A version's stored figures, when and by which engine they were computed."""

    sha256: str
    engine: str
    computed_at: dt.datetime
    figures: dict[str, Any]


def _waiting(engine: str, moment: dt.datetime) -> Any:
    """Versions with neither figures nor a live claim under ``engine``."""
    stale = moment - dt.timedelta(seconds=CLAIM_SECONDS)
    taken = select(PaytableFigures.id).where(
        PaytableFigures.sha256 == PaytableVersion.sha256, PaytableFigures.engine == engine,
        or_(PaytableFigures.figures.is_not(None), PaytableFigures.computed_at.is_not(None),
            PaytableFigures.started_at > stale))
    return select(PaytableVersion).where(~taken.exists()).order_by(PaytableVersion.id)


@transactional
def pending(engine: str, *, now: dt.datetime | None = None) -> list[str]:
    """The versions (``id@version``) still waiting for figures under ``engine``."""
    return [f"{row.paytable_id}@{row.version}" for row in db.session.scalars(_waiting(engine, clock(now)))]


@transactional
def claim_next(engine: str, *, now: dt.datetime | None = None) -> Claim | None:
    """Claim the first waiting version for this process (its row locked while claiming, skipped
    when another process holds it), or None when every version has figures or a live claim."""
    moment = clock(now)
    waiting = _waiting(engine, moment)
    for version_id in list(db.session.scalars(waiting.with_only_columns(PaytableVersion.id))):
        row = queries.try_lock(PaytableVersion, version_id, skip_locked=True)
        if row is None or db.session.scalars(waiting.where(PaytableVersion.id == row.id)).first() is None:
            continue                           # another process holds it, or claimed it meanwhile
        claim = db.session.scalars(select(PaytableFigures).where(
            PaytableFigures.sha256 == row.sha256, PaytableFigures.engine == engine)).first()
        if claim is None:
            db.session.add(PaytableFigures(sha256=row.sha256, engine=engine, started_at=moment))
        else:
            claim.started_at = moment          # a stale claim: its process died
        return Claim(row.sha256, row.paytable_id, row.version, bytes(row.content))
    return None


@transactional
def record(sha256: str, engine: str, figures: dict[str, Any], *, now: dt.datetime | None = None) -> FiguresView:
    """Store the finished figures of a version (on its claim, or a new row)."""
    moment = clock(now)
    row = db.session.scalars(select(PaytableFigures).where(PaytableFigures.sha256 == sha256,
                                                           PaytableFigures.engine == engine)).first()
    if row is None:
        row = PaytableFigures(sha256=sha256, engine=engine, started_at=moment)
        db.session.add(row)
    row.figures, row.computed_at = figures, moment
    db.session.flush()
    return FiguresView(sha256, engine, moment, figures)


@transactional
def abandon(sha256: str, engine: str) -> None:
    """Give a claim up (its computation failed or was stopped): the next pass takes the version."""
    row = db.session.scalars(select(PaytableFigures).where(
        PaytableFigures.sha256 == sha256, PaytableFigures.engine == engine,
        and_(PaytableFigures.figures.is_(None), PaytableFigures.computed_at.is_(None)))).first()
    if row is not None:
        db.session.delete(row)


@transactional
def figures_of(sha256: str) -> FiguresView | None:
    """The version's most recently computed figures, or None while they are being computed."""
    row = db.session.scalars(select(PaytableFigures).where(PaytableFigures.sha256 == sha256,
                                                           PaytableFigures.computed_at.is_not(None))
                             .order_by(PaytableFigures.computed_at.desc(), PaytableFigures.id.desc())).first()
    if row is None or row.figures is None or row.computed_at is None:
        return None
    return FiguresView(row.sha256, row.engine, row.computed_at, row.figures)


def _percent(figure: dict[str, str]) -> str:
    return decimal_text(fraction_of(figure) * 100, 2)


#: how many computed figures' returns a process keeps, by their row and when computed (:mod:`.kept`)
KEPT_RETURNS = 64


def player_returns(figures_id: int | None, computed_at: dt.datetime | None) -> dict[str, Any] | None:
    """The rules panel's returns (issue 13, :func:`_returns`) from the figures row ``figures_id``
    computed at ``computed_at`` (the newest of the table's paytable: :func:`.queries.panels`),
    read once per computation; None while there is none."""
    if figures_id is None or computed_at is None:
        return None

    def build(keys: list[tuple[int, dt.datetime]]) -> dict[tuple[int, dt.datetime], dict[str, Any]]:
        figures = queries.get(PaytableFigures, figures_id).figures
        assert figures is not None, "a computed row holds its figures"
        return {keys[0]: _returns(figures)}

    returns: dict[str, Any] = kept("returns", KEPT_RETURNS).get([(figures_id, computed_at)], build)[0]
    return returns


def _returns(figures: dict[str, Any]) -> dict[str, Any]:
    """The rules panel's returns (issue 13), in percent: each main-game bet (R3) and the four
    together under the best play, the Bonus (R4) and the Progressive's long-run return (R5)."""
    play = figures["strategies"][PLAYER_STRATEGY]
    return {"strategy": PLAYER_STRATEGY,
            "bets": {bet: _percent(entry["rtp"]) for bet, entry in play["main"]["by_bet"].items()},
            "main": _percent(play["main"]["rtp"]), "bonus": _percent(figures["bonus"]["rtp"]),
            "progressive": _percent(play["progressive"]["long_run_return"])}


def _lines(figures: dict[str, Any]) -> dict[str, Fraction]:
    """The figures an operator compares, by label: the Bonus, then per strategy the main game,
    each of its bets and the Progressive's long-run return."""
    lines = {"Bonus (R4)": fraction_of(figures["bonus"]["rtp"])}
    for name, play in figures["strategies"].items():
        lines[f"{name}: main game (R3)"] = fraction_of(play["main"]["rtp"])
        lines.update({f"{name}: {bet} bet": fraction_of(entry["rtp"]) for bet, entry in play["main"]["by_bet"].items()})
        lines[f"{name}: Progressive, long run (R5)"] = fraction_of(play["progressive"]["long_run_return"])
    return lines


def rtp_change(left_sha256: str, right_sha256: str) -> dict[str, Any]:
    """Two versions' figures side by side with the change of each (right − left); a side not
    computed yet is None (its page says "computing…")."""
    views = figures_of(left_sha256), figures_of(right_sha256)
    left, right = (None if view is None else _lines(view.figures) for view in views)
    labels = list(dict.fromkeys([*(left or {}), *(right or {})]))
    return {"computed": [view is not None for view in views],
            "rows": [{"figure": label,
                      "left": None if left is None or label not in left else exact(left[label]),
                      "right": None if right is None or label not in right else exact(right[label]),
                      "change": exact(right[label] - left[label]) if left and right and label in left
                      and label in right else None}
                     for label in labels]}
