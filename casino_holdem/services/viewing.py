"""What one viewer may see: every page, API response and server-sent event is built here.

:func:`public_view` is the single place a round becomes something sent to a browser. It starts
from :func:`tables.round_view_of` (R1, R2.7: the Dealer's cards, the deck and its nonce only
once the round is settled or void) and keeps, of the bettors, only the viewer's own bets and
awards: other players' bets are theirs alone. :func:`table_view` and :func:`lobby_view` add the
table, its limits in the viewer's currency (R6), the jackpot meter (R6: pool × multiplier) and the
viewer's balance. Amounts are decimal strings, times ISO 8601 in UTC.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import select

from ..core.money import format_amount
from ..core.paytable import CurrencySpec
from ..core.phases import ANTE_MULTIPLE, Action
from ..extensions import db
from ..models import Bet, GameRound, GameTable, Player
from . import jackpot, tables, wallet
from .errors import NotFound, Unprocessable
from .unit import clock, transactional

#: chip denominations as multiples of the table's minimum Ante
CHIP_STEPS = (1, 5, 25, 100)


def currency_of(spec: CurrencySpec) -> dict[str, Any]:
    """The currency as a page needs it to show amounts: code, smallest unit and its decimals."""
    exponent = spec.unit.as_tuple().exponent
    return {"code": spec.code, "unit": format_amount(spec.unit),
            "decimals": max(0, -exponent) if isinstance(exponent, int) else 0}


def _you(view: dict[str, Any], bettors: list[dict[str, Any]], bet: Bet | None) -> dict[str, Any]:
    """The viewer's own part of a round: their bets, decisions (R8 automatic ones with their
    reason), what each decision would cost now (R2.3: Flop 2 × Ante; R2.4-R2.5: 1 × Ante), and,
    at the end, what every bet returned and the net result."""
    you = dict(view["you"])
    if bet is None:
        return {**you, "bet": None}
    mine = next(b for b in bettors if b["player_id"] == bet.player_id)
    staked = wallet.bettor_of(bet).committed
    you["bet"] = {key: value for key, value in mine.items() if key != "player_id"}
    you["staked"] = format_amount(staked)
    # what the buttons would take: R2.3 the Flop bet is 2 × Ante, R2.4-R2.5 a later bet 1 × Ante
    you["costs"] = {"flop": format_amount(bet.ante * ANTE_MULTIPLE[Action.FLOP]),
                    "bet": format_amount(bet.ante * ANTE_MULTIPLE[Action.BET])}
    you["net"] = None if bet.returned is None else format_amount(bet.returned - staked)
    return you


def public_view(round_row: GameRound, viewer: int | None) -> dict[str, Any]:
    """The round as ``viewer`` (a player id, None for the public) may see it.

    Hidden information (R1): the Dealer's hole cards, the undealt deck and the deck's nonce
    appear only once the round is settled or void (they come from ``round_view_of``). Privacy:
    of the bettors only their number and the viewer's own bets, decisions and awards (R5: with
    the number of bettors the prize was shared among, ``share_of``) are shown."""
    view = tables.round_view_of(round_row, viewer)
    bettors = view.pop("bettors")
    bet = tables.bet_of(round_row, viewer) if viewer is not None else None
    view["table_name"] = round_row.table.name
    view["opened_at"] = round_row.opened_at.isoformat()
    view["finished_at"] = None if round_row.finished_at is None else round_row.finished_at.isoformat()
    view["bettor_count"] = len(bettors)
    if "result" in view:
        view["result"]["awards"] = [{key: value for key, value in award.items() if key != "bet_id"}
                                    for award in view["result"]["awards"]
                                    if bet is not None and award["bet_id"] == bet.id]
    if viewer is not None:
        view["you"] = _you(view, bettors, bet)
    return view


def _latest_round(table_id: int, *, finished: bool = False) -> GameRound | None:
    """The table's current round, or with ``finished`` its last settled or void one."""
    statement = select(GameRound).where(GameRound.table_id == table_id)
    if finished:
        statement = statement.where(GameRound.phase.in_(tables.FINISHED))
    return db.session.scalars(statement.order_by(GameRound.number.desc()).limit(1).options(tables.WITH_BETS)).first()


def _scaled(amount: Decimal | None, spec: CurrencySpec) -> str | None:
    """R6: a base-unit table limit in the player's currency."""
    return None if amount is None else format_amount(amount * spec.multiplier)


def _table_currency(table: GameTable, currency: str) -> CurrencySpec | None:
    """R6: the viewer's currency as the table's own paytable defines it (None: not taken there)."""
    try:
        return tables.table_paytable(table).currency(currency)
    except KeyError:
        return None


def _table_summary(table: GameTable, current: GameRound | None, spec: CurrencySpec, meter: Decimal) -> dict[str, Any]:
    """A table and its ``current`` round as the lobby lists them, in the viewer's currency (R6)."""
    return {
        "id": table.id, "name": table.name,
        "paytable": {"id": table.paytable_id, "version": table.paytable_version, "sha256": table.paytable_sha256},
        "limits": {name: _scaled(getattr(table, name), spec)
                   for name in ("ante_min", "ante_max", "bonus_min", "bonus_max")},
        "progressive_bet": format_amount(spec.multiplier),
        "jackpot": format_amount(meter),
        "max_bettors": table.max_bettors,
        "betting_seconds": table.betting_seconds, "decision_seconds": table.decision_seconds,
        "round": None if current is None else {
            "round_id": current.id, "number": current.number, "phase": current.phase, "bettors": len(current.bets),
            "deadline": None if current.deadline is None else current.deadline.isoformat()},
    }


def _chips(table: GameTable, spec: CurrencySpec) -> list[str]:
    """Chip values in the player's currency: multiples of the minimum Ante up to the maximum."""
    low = (table.ante_min or Decimal(1)) * spec.multiplier
    high = None if table.ante_max is None else table.ante_max * spec.multiplier
    return [format_amount(low * step) for step in CHIP_STEPS if high is None or low * step <= high]


def _viewer(player_id: int) -> tuple[Player, CurrencySpec]:
    player = db.session.get(Player, player_id)
    if player is None:
        raise NotFound(f"player: no player {player_id}", "player")
    return player, wallet.currency_spec(player.currency)


def _balance(player_id: int) -> dict[str, str]:
    money = wallet.balance(player_id)
    return {"balance": format_amount(money.balance), "reserved": format_amount(money.reserved),
            "available": format_amount(money.available)}


def _meters(table_rows: list[GameTable], currency: str) -> dict[int, Decimal]:
    """R6: each pool's meter in the viewer's currency (pool × multiplier, rounded down)."""
    return {pool_id: jackpot.pool_view(pool_id).meters[currency] for pool_id in {t.pool_id for t in table_rows}}


@transactional
def table_view(table_id: int, viewer: int) -> dict[str, Any]:
    """The table page's state: the table in the viewer's currency with its chips, the current
    round and the last finished one (its showdown stays in view while the next round takes bets)
    through :func:`public_view`, the viewer's balance, and the server's clock (countdowns are
    computed against it, not the browser's)."""
    table = db.session.get(GameTable, table_id)
    if table is None:
        raise NotFound(f"table: no table {table_id}", "table")
    player, _ = _viewer(viewer)
    spec = _table_currency(table, player.currency)
    if spec is None:
        raise Unprocessable(f"currency: table {table.name} does not take {player.currency} (R6)", "currency")
    current, last = _latest_round(table.id), _latest_round(table.id, finished=True)
    return {"server_time": clock(None).isoformat(), "currency": currency_of(spec),
            "table": {**_table_summary(table, current, spec, _meters([table], player.currency)[table.pool_id]),
                      "is_open": table.is_open, "chips": _chips(table, spec)},
            "round": None if current is None else public_view(current, viewer),
            "last_round": None if last is None or last is current else public_view(last, viewer),
            "balance": _balance(viewer)}


@transactional
def lobby_view(viewer: int) -> dict[str, Any]:
    """Every open table that takes the viewer's currency, with its limits and jackpot meter in
    that currency (R6), how many are betting, the phase and its deadline."""
    player, spec = _viewer(viewer)
    rows = db.session.scalars(select(GameTable).where(GameTable.is_open.is_(True)).order_by(GameTable.id))
    playable = [(row, table_spec) for row in rows if (table_spec := _table_currency(row, player.currency))]
    meters = _meters([row for row, _ in playable], player.currency)
    return {"server_time": clock(None).isoformat(), "currency": currency_of(spec),
            "tables": [_table_summary(row, _latest_round(row.id), table_spec, meters[row.pool_id])
                       for row, table_spec in playable],
            "balance": _balance(viewer)}


@transactional
def round_view(round_id: int, viewer: int) -> dict[str, Any]:
    """:func:`public_view` of any round by id."""
    round_row = db.session.get(GameRound, round_id)
    if round_row is None:
        raise NotFound(f"round: no round {round_id}", "round")
    return public_view(round_row, viewer)


@transactional
def rejoin(table_id: int, viewer: int) -> bool:
    """R8: a player whose connection was lost (or who left) comes back to the same round, which
    has gone on without them. Returns whether they had been away."""
    if db.session.get(GameTable, table_id) is None:
        raise NotFound(f"table: no table {table_id}", "table")
    away = db.session.scalars(
        select(Bet.id).join(GameRound).where(GameRound.table_id == table_id, Bet.player_id == viewer,
                                             Bet.connected.is_(False),
                                             GameRound.phase.notin_(tables.FINISHED))
    ).first()
    if away is not None:
        tables.reconnect(viewer, table_id)
    return away is not None


@transactional
def me_view(viewer: int) -> dict[str, Any]:
    """The logged-in player: name, account currency (R6) and balance."""
    player, spec = _viewer(viewer)
    return {"id": player.id, "username": player.username, "currency": currency_of(spec), "balance": _balance(viewer)}
