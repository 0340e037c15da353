"""The parts of the table page that are not a round (issue 13), each built by one function so that
a panel can grow without touching the rest of :mod:`.viewing`:

- :func:`rules_panel`: the rule sheet in the game: the R3 Ante qualifier, the R4 Bonus pays and
  the R5 prizes in the viewer's currency (R6) with the viewer's possible share of each;
- :func:`last_wins` and :func:`wins_in`: the progressive panel's last jackpot wins of the table's
  pool (R5: amount, prize, table, date and how many shared it), read from the awards the pool's
  history keeps, then put in each viewer's currency (R6);
- :func:`chips`: the chip selector's values in the viewer's currency (R6);
- :func:`recent_results`: the results strip, the table's last finished rounds (R3, R9);
- :func:`hand_part`: a hand named precisely with its five cards (R7), for rounds and the strip.

Amounts are decimal strings, times ISO 8601 in UTC; pages format both for the player's language.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import func, select

from ..core.cards import Card, format_cards
from ..core.evaluator import evaluate
from ..core.hand_names import HandName, name_of, name_of_hole
from ..core.money import format_amount, round_down
from ..core.paytable import BONUS_LINES, CurrencySpec, Paytable
from ..extensions import db
from ..models import AwardRecord, GameRound, GameTable, MovementKind, PoolMovement
from . import queries
from .kept import kept
from .round_rows import load_round

# --- hands (R7) --------------------------------------------------------------------------------------------


def name_part(name: HandName) -> dict[str, Any]:
    """A precise hand name as a message id with rank-name arguments (pages translate both)."""
    return {"id": name.template, "args": name.args, "text": name.english()}


def hand_part(hole: tuple[Card, ...], board: tuple[Card, ...]) -> dict[str, Any] | None:
    """R7: the hand these cards make so far, named precisely, with the five cards that make it
    (none before the flop: two hole cards are named as they are, R2.3)."""
    if len(hole) < 2:
        return None
    if len(board) < 3:  # a live round's flop comes card by card: R7 needs five cards
        return {"name": name_part(name_of_hole(hole)), "best": []}
    value = evaluate(hole + board)
    return {"name": name_part(name_of(value)), "best": format_cards(value.best_five)}


# --- the chip selector -------------------------------------------------------------------------------------

#: chip denominations as multiples of the table's minimum Ante
CHIP_STEPS = (1, 5, 25, 100)


def chips(table: GameTable, spec: CurrencySpec) -> list[str]:
    """Chip values in the player's currency (R6): multiples of the minimum Ante up to the maximum."""
    low = (table.ante_min or Decimal(1)) * spec.multiplier
    high = None if table.ante_max is None else table.ante_max * spec.multiplier
    return [format_amount(low * step) for step in CHIP_STEPS if high is None or low * step <= high]


# --- the rules panel ---------------------------------------------------------------------------------------

def sharers(progressive: Collection[int], viewer: int) -> int:
    """R5: how many would share a prize of the current round with the viewer in it, given who
    has made the Progressive bet on it (player ids)."""
    return len(progressive) + (0 if viewer in progressive else 1)


def rules_panel(paytable: Paytable, spec: CurrencySpec, sharers: int) -> dict[str, Any]:
    """The rules panel: the R3 Ante qualifier, the R4 Bonus pays, the R5 prizes in the viewer's
    currency (R6: base units × multiplier) and the viewer's possible share of each fixed prize."""
    pays = paytable.progressive

    def prize(amount: Decimal) -> dict[str, str]:
        local = amount * spec.multiplier
        return {"amount": format_amount(local), "share": format_amount(round_down(local / sharers, spec.unit))}

    return {"ante_qualifier": paytable.main.ante_qualifier.slug,
            "bonus": [{"line": line, "odds": paytable.bonus.odds(line)} for line in BONUS_LINES],
            "p1": {street: format_amount(pays.p1_share(street) * 100) for street in ("flop", "turn", "river")},
            "p2": {name: prize(getattr(pays, f"p2_{name}")) for name in ("straight_flush", "four_of_a_kind")},
            "p3": {name: prize(getattr(pays, f"p3_{name}"))
                   for name in ("royal_flush", "straight_flush", "four_of_a_kind")},
            "contribution": format_amount(pays.contribution * 100), "sharers": sharers}


# --- the progressive panel: the pool's last jackpot wins (R5) -------------------------------------------------

#: how many of the pool's last wins the progressive panel lists
LAST_WINS = 5


@dataclass(frozen=True, slots=True)
class JackpotWin:
    """One prize of one round (R5), in base units: every bettor's share of it added up."""

    round_id: int
    prize: str
    hand: str
    street: str | None
    base_amount: Decimal
    share_of: int
    table: str
    at: dt.datetime


#: how many pools' last wins a process keeps (they change only with a new prize share: :mod:`.kept`)
KEPT_WINS = 256


def last_wins(pool_id: int, awards: tuple[int, int | None]) -> list[JackpotWin]:
    """The pool's last prizes, newest first (:func:`_last_wins`), read again only once the prize
    shares of all pools (``awards``: how many and the newest, :func:`.queries.panels`) change;
    none before the first."""
    if not awards[0]:
        return []
    wins: list[JackpotWin] = kept("last wins", KEPT_WINS).get([(pool_id, *awards)],
                                                              lambda keys: {keys[0]: _last_wins(pool_id)})[0]
    return wins


def _last_wins(pool_id: int, limit: int = LAST_WINS) -> list[JackpotWin]:
    """The pool's last prizes, newest first: the awards of the rounds whose prizes the pool's
    history records (R5), each prize once with all its shares added (a pool is shared by tables)."""
    paid = select(PoolMovement.round_id).where(PoolMovement.pool_id == pool_id,
                                                PoolMovement.kind == MovementKind.PRIZE.value)
    rows = db.session.execute(
        select(AwardRecord.round_id, AwardRecord.prize_table, AwardRecord.hand, AwardRecord.street,
               func.sum(AwardRecord.base_amount), func.max(AwardRecord.share_of), GameTable.name,
               GameRound.finished_at)
        .join(GameRound, GameRound.id == AwardRecord.round_id).join(GameTable, GameTable.id == GameRound.table_id)
        .where(AwardRecord.round_id.in_(paid))
        .group_by(AwardRecord.round_id, AwardRecord.prize_table, AwardRecord.hand, AwardRecord.street,
                  GameTable.name, GameRound.finished_at)
        .order_by(GameRound.finished_at.desc(), AwardRecord.round_id.desc(), AwardRecord.prize_table)
        .limit(limit))
    # awards are saved with their round's finished_at (round_rows.save_result): never None here
    return [JackpotWin(round_id, prize, hand, street, Decimal(total), share_of, table, cast(dt.datetime, at))
            for round_id, prize, hand, street, total, share_of, table, at in rows]


def wins_in(wins: list[JackpotWin], spec: CurrencySpec) -> list[dict[str, Any]]:
    """R6: the wins in the viewer's currency (base units × multiplier, down to the currency's unit)."""
    return [{"round_id": win.round_id, "prize": win.prize, "hand": win.hand, "street": win.street,
             "amount": format_amount(round_down(win.base_amount * spec.multiplier, spec.unit)),
             "share_of": win.share_of, "table": win.table, "at": win.at.isoformat()} for win in wins]


# --- the results strip -------------------------------------------------------------------------------------

#: how many finished rounds the table's results strip shows
RECENT_ROUNDS = 8

#: how many strip entries a process keeps (a finished round's never changes: :mod:`.kept`)
STRIP_ENTRIES = 4096


def _strip_entry(row: GameRound) -> dict[str, Any]:
    """One finished round as the results strip shows it (R3: who won, with which hands; R9 void)."""
    cards = load_round(row).cards
    board = tuple(cards.board)
    hands = [hand_part(tuple(cards.player), board), hand_part(tuple(cards.dealer), board)]
    return {"number": row.number, "result": row.result, "void": row.void_reason,
            "player": hands[0] and hands[0]["name"], "dealer": hands[1] and hands[1]["name"]}


def recent_results(finished: Sequence[int]) -> list[dict[str, Any]]:
    """The results strip: the table's last finished rounds (their ids, newest first:
    :func:`.queries.finished_rounds`); only a round not shown before is read."""
    def build(missing: list[int]) -> dict[int, dict[str, Any]]:
        rows = queries.rounds_with_bets(missing)
        return {round_id: _strip_entry(rows[round_id]) for round_id in missing}

    return kept("strip entries", STRIP_ENTRIES).get(finished, build)
