"""What one viewer may see: every page, API response and server-sent event about a table or a
round is built here, and only here.

:func:`round_seen_by` is the one function that decides what a viewer sees of a round. It puts
together two parts, so that the part everyone shares can be built once per change of a table and
each viewer's own part added to it cheaply (:class:`RoundSight`):

- the public part: the round's number, phase and deadline, its paytable and deck commitment, the
  Player's cards and the board as dealt (R1), how many bet; the Dealer's cards, the deck and its
  nonce only once the round is settled or void (R1, R2.7);
- the viewer's own part: their bets and decisions (R8 automatic ones with their reason), what
  their buttons would cost now (R2.3-R2.5), their awards (R5, with the number of bettors the
  prize was shared among) and what every bet returned. Other players' bets are theirs alone.

:func:`table_view` and :func:`lobby_view` add the table, its limits in the viewer's currency
(R6), the jackpot meter (R6: pool × multiplier), the viewer's balance and the table's panels
(rules, last jackpot wins, results strip, chips: :mod:`.table_parts`). The house (the
operator's commands, audits; never a player's page) sees every bettor: :func:`house_round`.
Amounts are decimal strings, times ISO 8601 in UTC.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import bindparam, select

from ..core.cards import format_cards
from ..core.money import format_amount
from ..core.paytable import CurrencySpec, Paytable
from ..core.phases import ANTE_MULTIPLE, Action
from ..core.round import FINISHED, Bettor, Phase, Round
from ..extensions import db
from ..models import AwardRecord, Bet, GameRound, GameTable, IncidentRecord, Player
from . import jackpot, paytable_figures, queries, table_parts, tables, wallet
from .errors import Unprocessable
from .kept import kept
from .round_rows import load_round, table_paytable
from .table_parts import JackpotWin, chips, hand_part, last_wins, recent_results, rules_panel, sharers, wins_in
from .transaction import clock, reading
from .windows import countdown

#: R1: what a live round's recall says instead of a deck commitment
NO_COMMITMENT = "none: a live round's cards are dealt by hand and entered as dealt; there is no deck to commit to"
#: the bets of R2 as a bettor's columns
BETS = ("ante", "bonus", "progressive", "flop", "turn", "river")


# --- a round: the public part and each viewer's own part ----------------------------------------------

def _bettor_part(bet: Bet, bettor: Bettor) -> dict[str, Any]:
    """One bettor's bets, decisions and outcome: shown to that bettor, and to the house."""
    return {"currency": bet.currency, **{name: format_amount(getattr(bet, name)) for name in BETS},
            "folded": bettor.folded, "connected": bet.connected,
            "decisions": {d.street: {"action": d.action, "automatic": d.automatic} for d in bet.decisions},
            "returned": None if bet.returned is None else format_amount(bet.returned), "outcome": bet.outcome}


def _award_part(award: AwardRecord) -> dict[str, Any]:
    """R5: one share of a progressive prize, with how many it was shared among."""
    return {"table": award.prize_table, "hand": award.hand, "street": award.street, "share_of": award.share_of,
            "amount": format_amount(award.amount)}


def _countdown(round_row: GameRound, bettors: int) -> dict[str, Any]:
    """The deadline the players count down to, and how often an empty betting window opens again
    (:func:`.windows.countdown`, R2.1: a round nobody has bet on)."""
    deadline, repeats = countdown(round_row.deadline, round_row.table.betting_seconds, clock(None),
                                  idle=round_row.phase == Phase.BETTING.value and not bettors)
    return {"deadline": None if deadline is None else deadline.isoformat(), "repeats_every": repeats}


def incident_notices(round_id: int) -> list[str]:
    """R9: the short notices of the round's incidents that did not void it, oldest first."""
    return list(db.session.scalars(_NOTICES, {"round_id": round_id}))


#: :func:`incident_notices`' read, built once with its parameter named (issue 10: every state build asks it)
_NOTICES = (select(IncidentRecord.notice)
            .where(IncidentRecord.round_id == bindparam("round_id"), IncidentRecord.notice.is_not(None))
            .order_by(IncidentRecord.id))


def _round_part(round_row: GameRound, core: Round) -> dict[str, Any]:
    """R1, R2.7: the round without its bettors: the Dealer's cards, the deck and the nonce only
    once it is settled or void (its awards are filled in for each audience)."""
    finished = round_row.phase in FINISHED
    cards = core.cards
    view: dict[str, Any] = {
        "round_id": round_row.id, "table_id": round_row.table_id, "number": round_row.number,
        "phase": round_row.phase, "commitment": round_row.commitment, "dealing": round_row.dealing,
        **_countdown(round_row, len(round_row.bets)),
        "paytable": {"id": round_row.paytable_id, "version": round_row.paytable_version,
                     "sha256": round_row.paytable_sha256},
        "cards": {"player": format_cards(cards.player), "board": format_cards(cards.board),
                  "dealer": format_cards(cards.dealer) if finished else []},
        "hands": {"player": hand_part(tuple(cards.player), tuple(cards.board)),
                  "dealer": hand_part(tuple(cards.dealer), tuple(cards.board)) if finished else None},
    }
    if finished:
        view["reveal"] = {"deck": round_row.deck, "nonce": round_row.nonce}
        if round_row.commitment is None:
            view["reveal"]["commitment"] = NO_COMMITMENT
        view["result"] = {"result": round_row.result, "player_hand": round_row.player_hand,
                          "dealer_hand": round_row.dealer_hand,
                          "void": ({"reason": round_row.void_reason, "stage": round_row.void_stage}
                                   if round_row.void_reason else None),
                          "awards": []}
    return view


@dataclass(frozen=True, slots=True)
class OwnPart:
    """What only this viewer may see of a round: ``you`` and their shares of prizes (R5)."""

    you: dict[str, Any]
    awards: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RoundSight:
    """A round read once: its :attr:`public` part is built once; :meth:`seen_by` adds a viewer's
    own part to it."""

    row: GameRound
    core: Round
    awards: tuple[AwardRecord, ...]
    public: dict[str, Any]
    #: each bettor's bet, by player id, and who made the Progressive bet (R5): a build asks both
    #: for each of its viewers
    bets: dict[int, Bet] = field(default_factory=dict)
    progressive: frozenset[int] = frozenset()

    @classmethod
    def of(cls, round_row: GameRound) -> RoundSight:
        core = load_round(round_row)
        progressive = frozenset(bet.player_id for bet in round_row.bets if bet.progressive > 0)
        awards = tuple(db.session.scalars(select(AwardRecord).where(AwardRecord.round_id == round_row.id)
                                          .order_by(AwardRecord.id))) if round_row.phase in FINISHED else ()
        public = {**_round_part(round_row, core), "table_name": round_row.table.name,
                  "opened_at": round_row.opened_at.isoformat(),
                  "finished_at": None if round_row.finished_at is None else round_row.finished_at.isoformat(),
                  "bettor_count": len(round_row.bets), "notices": incident_notices(round_row.id),
                  "progressive_participants": len(progressive)}
        return cls(round_row, core, awards, public, {bet.player_id: bet for bet in round_row.bets}, progressive)

    def own_part(self, viewer: int) -> OwnPart:
        """The viewer's bets, decisions, what their buttons would cost now (R2.3: the Flop bet is
        2 × Ante; R2.4-R2.5: a later bet 1 × Ante), and, at the end, what each bet returned, their
        awards and the net result. ``allowed_actions`` is empty once the window has closed (R8)."""
        bettor = self.core.bettors.get(str(viewer))
        if bettor is None:  # a watcher: nothing of theirs to read
            return _watcher(viewer)
        open_window = self.row.deadline is None or clock(None) < self.row.deadline
        you: dict[str, Any] = {"player_id": viewer, "has_bet": True,
                               "allowed_actions": ([a.value for a in self.core.allowed_actions(str(viewer))]
                                                   if open_window else [])}
        bet = self.bets.get(viewer)
        if bet is None:
            return OwnPart({**you, "bet": None})
        staked = bettor.committed
        you["bet"] = _bettor_part(bet, bettor)
        you["staked"] = format_amount(staked)
        you["costs"] = {"flop": format_amount(bet.ante * ANTE_MULTIPLE[Action.FLOP]),
                        "bet": format_amount(bet.ante * ANTE_MULTIPLE[Action.BET])}
        you["net"] = None if bet.returned is None else format_amount(bet.returned - staked)
        return OwnPart(you, [_award_part(award) for award in self.awards if award.bet_id == bet.id])

    def seen_by(self, viewer: int | None) -> dict[str, Any]:
        """The public part, with the viewer's own part when the viewer is a player."""
        return _seen_by(self.public, viewer, self.own_part)

    def settled(self) -> SettledSight:
        """This finished round as every viewer will ever see it (:class:`SettledSight`)."""
        assert self.row.phase in FINISHED, "only a finished round never changes"
        return SettledSight(self.public, {viewer: self.own_part(viewer) for viewer in self.bets})

    def house(self) -> dict[str, Any]:
        """Every bettor's part and every award: for the house, never for a player."""
        view = _round_part(self.row, self.core)
        view["bettors"] = [{"player_id": bet.player_id, **_bettor_part(bet, self.core.bettors[str(bet.player_id)])}
                           for bet in self.row.bets]
        if "result" in view:
            view["result"]["awards"] = [{"bet_id": award.bet_id, **_award_part(award)} for award in self.awards]
        return view


def _watcher(viewer: int) -> OwnPart:
    """The own part of a viewer who did not bet on the round: nothing of theirs to show."""
    return OwnPart({"player_id": viewer, "has_bet": False, "allowed_actions": [], "bet": None})


def _seen_by(public: dict[str, Any], viewer: int | None, own_part: Callable[[int], OwnPart]) -> dict[str, Any]:
    """A round's public part, with the viewer's own part when the viewer is a player (R1: nobody
    else's bets)."""
    view = dict(public)
    if viewer is None:
        return view
    own = own_part(viewer)
    if "result" in view:
        view["result"] = {**view["result"], "awards": own.awards}
    view["you"] = own.you
    return view


@dataclass(frozen=True, slots=True)
class SettledSight:
    """A settled or void round as each viewer sees it, built once (:meth:`RoundSight.settled`): it
    never changes again (R2.7, R9), and it stays on the felt as the table's last round for the
    whole of the next one, so each change of the table takes it from here (issue 10, :mod:`.kept`)."""

    public: dict[str, Any]
    own: dict[int, OwnPart]

    def seen_by(self, viewer: int | None) -> dict[str, Any]:
        return _seen_by(self.public, viewer, lambda player: self.own.get(player) or _watcher(player))


#: how many finished rounds a process keeps as seen (a table's last round: one or two each)
KEPT_SETTLED = 1024


def settled_sight(round_id: int) -> SettledSight:
    """The finished round ``round_id`` as its viewers see it, read and built once per process (:mod:`.kept`)."""
    sight: SettledSight = kept("settled rounds", KEPT_SETTLED).get(
        [round_id], lambda missing: {round_id: RoundSight.of(queries.round_with_bets(round_id)).settled()})[0]
    return sight


def round_seen_by(round_row: GameRound, viewer: int | None) -> dict[str, Any]:
    """The round as ``viewer`` (a player id, None for the public) may see it (module docstring):
    the one way a round reaches a player."""
    return RoundSight.of(round_row).seen_by(viewer)


def house_round(round_row: GameRound) -> dict[str, Any]:
    """The round as the house sees it: every bettor, but the Dealer's cards, the deck and the
    nonce still only once it is over (R1)."""
    return RoundSight.of(round_row).house()


# --- a table, in the viewer's currency ----------------------------------------------------------------

def currency_of(spec: CurrencySpec) -> dict[str, Any]:
    """The currency as a page needs it to show amounts: code, smallest unit and its decimals."""
    exponent = spec.unit.as_tuple().exponent
    return {"code": spec.code, "unit": format_amount(spec.unit),
            "decimals": max(0, -exponent) if isinstance(exponent, int) else 0}


def _scaled(amount: Decimal | None, spec: CurrencySpec) -> str | None:
    """R6: a base-unit table limit in the player's currency."""
    return None if amount is None else format_amount(amount * spec.multiplier)


def _table_currency(table: GameTable, currency: str) -> CurrencySpec | None:
    """R6: the viewer's currency as the table's own paytable defines it (None: not taken there)."""
    try:
        return table_paytable(table).currency(currency)
    except KeyError:
        return None


def _table_live(table: GameTable, current: tuple[GameRound, int] | None, meter: Decimal) -> dict[str, Any]:
    """What a table's lobby entry shows that changes while the lobby is open: its jackpot meter in
    the viewer's currency (R5, R6), whether it is suspended, and its ``current`` round with how
    many bet on it and the countdown (R2.1). The lobby's stream sends only this (issue 10)."""
    return {
        "id": table.id,
        "jackpot": format_amount(meter),
        "suspended": table.suspended_reason is not None,  # issue 11: no bets until resumed (R2)
        "round": None if current is None else {
            "round_id": current[0].id, "number": current[0].number, "phase": current[0].phase,
            "bettors": current[1], **_countdown(*current)},
    }


def _table_summary(table: GameTable, current: tuple[GameRound, int] | None, spec: CurrencySpec,
                   meter: Decimal) -> dict[str, Any]:
    """A table and its ``current`` round (with how many bet on it) as the lobby lists them, in the
    viewer's currency (R6): its settings and paytable, and what changes (:func:`_table_live`)."""
    return {
        "name": table.name,
        "paytable": {"id": table.paytable_id, "version": table.paytable_version, "sha256": table.paytable_sha256},
        "limits": {name: _scaled(getattr(table, name), spec)
                   for name in ("ante_min", "ante_max", "bonus_min", "bonus_max")},
        "progressive_bet": format_amount(spec.multiplier),
        "max_bettors": table.max_bettors,
        "betting_seconds": table.betting_seconds, "decision_seconds": table.decision_seconds,
        **_table_live(table, current, meter),
    }


def _balance(player_id: int) -> dict[str, str]:
    return _formatted(wallet.balance(player_id))


def _formatted(money: wallet.Balance) -> dict[str, str]:
    return {"balance": format_amount(money.balance), "reserved": format_amount(money.reserved),
            "available": format_amount(money.available)}


def _balances(currencies: Mapping[int, str], known: Sequence[GameRound] = ()) -> dict[int, dict[str, str]]:
    """Many viewers' balances (id → currency) in a few reads (:func:`.wallet.balances_of`); none
    for none."""
    if not currencies:
        return {}
    return {player_id: _formatted(money) for player_id, money in wallet.balances_of(currencies, known).items()}


# --- what pages, the API and event streams ask for (one transaction each) ---------------------------------

@dataclass(frozen=True, slots=True)
class TableSight:
    """A table read once (issue 10: one build per change, however many watch): its current and last
    rounds as :class:`RoundSight` and its pool's meters; :meth:`seen_by` adds a viewer's own parts.
    What every viewer in one currency sees alike is built once per currency (:meth:`_in_currency`)
    and shared by their views, so a stream's frame encodes it once too (:mod:`casino_holdem.events.wire`)."""

    table: GameTable
    current: RoundSight | None
    last: SettledSight | None
    meters: dict[str, Decimal]
    recent: list[dict[str, Any]]
    paytable: Paytable
    wins: list[JackpotWin]
    returns: dict[str, Any] | None      # issue 13: each bet's exact return (None while computing)
    shared: dict[Any, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, table_id: int) -> TableSight:
        table = queries.get(GameTable, table_id)
        current = queries.latest_round(table.id)
        finished = queries.finished_rounds(table.id, table_parts.RECENT_ROUNDS)
        # the last finished round, unless it is the current one (R2.7: on the felt until the next opens)
        last = finished[0] if finished and (current is None or current.id != finished[0]) else None
        panels = queries.panels(table.pool_id, table.paytable_sha256)
        return cls(table, None if current is None else RoundSight.of(current),
                   None if last is None else settled_sight(last),
                   jackpot.meters_of(panels.pool_amount), recent_results(finished), table_paytable(table),
                   last_wins(table.pool_id, panels.awards),
                   paytable_figures.player_returns(panels.figures, panels.figures_at))

    def bettors(self) -> set[int]:
        """The players whose own part (and balance) this table's change may have changed."""
        return {*(self.current.bets if self.current else ()), *(self.last.own if self.last else ())}

    def _in_currency(self, currency: str) -> dict[str, Any]:
        """The parts of the view that depend only on the viewer's currency (R6), built once."""
        if currency not in self.shared:
            spec = _table_currency(self.table, currency)
            if spec is None:
                raise Unprocessable(f"currency: table {self.table.name} does not take {currency} (R6)", "currency")
            current = None if self.current is None else (self.current.row, len(self.current.row.bets))
            self.shared[currency] = {
                "spec": spec, "server_time": clock(None).isoformat(), "currency": currency_of(spec),
                "table": {**_table_summary(self.table, current, spec, self.meters[currency]),
                          "is_open": queries.takes_rounds(self.table), "chips": chips(self.table, spec)},
                "jackpot_wins": wins_in(self.wins, spec)}
        return self.shared[currency]  # type: ignore[no-any-return]

    def _rules(self, currency: str, spec: CurrencySpec, sharing: int) -> dict[str, Any]:
        """The rules panel for a viewer in ``currency`` whose prize would be shared ``sharing`` ways (R5)."""
        key = (currency, sharing)
        if key not in self.shared:
            self.shared[key] = {**rules_panel(self.paytable, spec, sharing), "returns": self.returns}
        return self.shared[key]  # type: ignore[no-any-return]

    def seen_by(self, viewer: int, currency: str, balance: dict[str, str] | None = None) -> dict[str, Any]:
        """The table page's state for ``viewer`` (their ``balance`` is read unless given)."""
        alike = self._in_currency(currency)
        return {"server_time": alike["server_time"], "currency": alike["currency"], "table": alike["table"],
                "round": None if self.current is None else self.current.seen_by(viewer),
                "last_round": None if self.last is None else self.last.seen_by(viewer),
                "recent": self.recent, "balance": balance if balance is not None else _balance(viewer),
                "rules": self._rules(currency, alike["spec"],
                                     sharers(() if self.current is None else self.current.progressive, viewer)),
                "jackpot_wins": alike["jackpot_wins"]}


@dataclass(frozen=True, slots=True)
class LobbySight:
    """Every open table read once; :meth:`seen_by` lists those that take the viewer's currency,
    built once per currency and shared by the views of every viewer in it."""

    tables: list[tuple[GameTable, tuple[GameRound, int] | None]]
    meters: dict[int, dict[str, Decimal]]
    shared: dict[tuple[str, bool], dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def of(cls) -> LobbySight:
        rows = list(db.session.scalars(select(GameTable).where(GameTable.is_open.is_(True)).order_by(GameTable.id)))
        current = queries.latest_rounds([row.id for row in rows])
        return cls([(row, current.get(row.id)) for row in rows],
                   {pool_id: dict(jackpot.pool_view(pool_id).meters) for pool_id in {row.pool_id for row in rows}})

    def seen_by(self, currency: str, balance: dict[str, str], *, live: bool = False) -> dict[str, Any]:
        """R6: limits and jackpot meters in the viewer's currency; with ``live``, only what
        changes (:func:`_table_live`: the stream's frames, sent to every lobby each second, carry
        no settings the page already shows)."""
        if (currency, live) not in self.shared:
            spec = wallet.currency_spec(currency)
            self.shared[currency, live] = {
                "server_time": clock(None).isoformat(), "currency": currency_of(spec),
                "tables": [_table_live(row, current, self.meters[row.pool_id][currency]) if live else
                           _table_summary(row, current, table_spec, self.meters[row.pool_id][currency])
                           for row, current in self.tables
                           if (table_spec := _table_currency(row, currency))]}
        return {**self.shared[currency, live], "balance": balance}


@reading
def table_view(table_id: int, viewer: int) -> dict[str, Any]:
    """The table page's state: the table in the viewer's currency with its chips, the current
    round and the last finished one (its showdown stays in view while the next round takes bets)
    through :func:`round_seen_by`, the viewer's balance, and the server's clock (countdowns are
    computed against it, not the browser's)."""
    sight = TableSight.of(table_id)
    return sight.seen_by(viewer, queries.player_currency(viewer))


@reading
def lobby_view(viewer: int, *, live: bool = False) -> dict[str, Any]:
    """Every open table that takes the viewer's currency, with its limits and jackpot meter in
    that currency (R6), how many are betting, the phase and its deadline; with ``live``, the
    lobby stream's form: each table's id and what changes (:meth:`LobbySight.seen_by`)."""
    return LobbySight.of().seen_by(queries.player_currency(viewer), _balance(viewer), live=live)


#: a stream's viewer as the fan-out knows them: player id → (currency, the balance last sent, or None
#: when it moved since: a posting named them, :mod:`casino_holdem.events.publish`)
Watchers = dict[int, tuple[str, dict[str, str] | None]]


@dataclass(frozen=True, slots=True)
class Views:
    """One build's states by viewer, and the balances it read afresh: a balance not read was the
    watcher's own, passed in, so only these are news for the viewer's other streams."""

    by_viewer: dict[int, dict[str, Any]]
    read: dict[int, dict[str, str]]


@reading
def viewers_of(viewers: Iterable[int]) -> dict[int, tuple[str, dict[str, str]]]:
    """Streams' viewers, admitted together: each one's currency (R6) and balance, in a few reads
    however many; an unknown player is left out."""
    found = db.session.execute(select(Player.id, Player.currency).where(Player.id.in_(set(viewers))))
    currencies: dict[int, str] = {player_id: currency for player_id, currency in found}
    balances = _balances(currencies)
    return {viewer: (currency, balances[viewer]) for viewer, currency in currencies.items()}


def _moved(watchers: Watchers) -> set[int]:
    """The watchers whose balance is to be read afresh."""
    return {viewer for viewer, (_, balance) in watchers.items() if balance is None}


@reading
def table_views(table_id: int, watchers: Watchers) -> Views:
    """Issue 10: the table's state for every watcher from ONE read of the table: the public part
    is built once; each watcher gets their own part, and a fresh balance only if they bet on one
    of its rounds or their balance moved elsewhere (nobody else's money moved). A watcher whose
    currency the table does not take gets nothing."""
    sight = TableSight.of(table_id)
    read = _balances({viewer: watchers[viewer][0] for viewer in sight.bettors() & watchers.keys() | _moved(watchers)},
                     [sight.current.row] if sight.current else [])
    views = {}
    for viewer, (currency, balance) in watchers.items():
        if _table_currency(sight.table, currency) is not None:
            views[viewer] = sight.seen_by(viewer, currency, read.get(viewer, balance))
    return Views(views, read)


@reading
def lobby_views(watchers: Watchers) -> Views:
    """Issue 10: the lobby stream's state (``live``) for every watcher from one read of the open
    tables (R6: each in their currency); the balances of those whose money moved are read afresh
    (a deposit, a bet at a table they do not watch), the others' are the ones passed in."""
    sight = LobbySight.of()
    read = _balances({viewer: watchers[viewer][0] for viewer in _moved(watchers)})
    balances = {viewer: balance for viewer, (_, balance) in watchers.items() if balance is not None} | read
    return Views({viewer: sight.seen_by(currency, balances[viewer], live=True)
                  for viewer, (currency, _) in watchers.items()}, read)


@reading
def round_view(round_id: int, viewer: int) -> dict[str, Any]:
    """:func:`round_seen_by` of any round by id, read with its bets and their decisions in three
    statements however many bet (a player's recall of a round they played, issue 10)."""
    return round_seen_by(queries.round_with_bets(round_id), viewer)


@reading
def current_round_view(table_id: int, viewer: int) -> dict[str, Any] | None:
    """:func:`round_seen_by` of the table's current round (None before its first round)."""
    current = queries.latest_round(queries.get(GameTable, table_id).id)
    return None if current is None else round_seen_by(current, viewer)


@reading
def me_view(viewer: int) -> dict[str, Any]:
    """The logged-in player: name, account currency (R6) and balance."""
    player = queries.get(Player, viewer)
    return {"id": player.id, "username": player.username,
            "currency": currency_of(wallet.currency_spec(player.currency)), "balance": _balance(viewer)}


# --- what the house sees (operators and audits; never a player's page) --------------------------------------

@reading
def house_view(round_id: int) -> dict[str, Any]:
    """:func:`house_round` of any round by id (its bets read as :func:`round_view` reads them)."""
    return house_round(queries.round_with_bets(round_id))


@reading
def house_table_view(table_id: int) -> dict[str, Any]:
    """A table's settings and its current round as the house sees it."""
    table = queries.get(GameTable, table_id)
    current = queries.latest_round(table.id)
    return {"table": asdict(tables.view_of(table)), "round": None if current is None else house_round(current)}
