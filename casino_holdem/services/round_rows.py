"""Stored rounds and the core's :class:`~casino_holdem.core.round.Round`: the one place rows
become the state machine, and the state machine's changes and results become rows again.

The database is the dealer's memory, never the process: every service transaction loads the core
round from its rows (:func:`load_round`), applies one operation through the core (which checks
R1, R2, R8, R9), and writes back what changed (:func:`save_round`, :func:`save_result`). The
money those changes move is posted by :mod:`.round_postings`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy.orm.attributes import set_committed_value

from ..core.cards import format_cards, parse_cards
from ..core.money import format_amount
from ..core.paytable import Paytable
from ..core.round import Action, AutoReason, Bettor, Decision, Limits, Phase, Round, Timers
from ..core.rules import Settlement, Stage, Void, VoidReason
from ..core.shuffle import deck_text, parse_deck
from ..extensions import db
from ..models import AwardRecord, Bet, DecisionRecord, GameRound, GameTable
from .inserted import insert_rows
from .paytable_versions import stored_paytable


@dataclass(frozen=True, slots=True)
class Saved:
    """What :func:`save_round` wrote: each bet's new decisions (in bet order) and whether cards
    were dealt."""

    decisions: list[tuple[Bet, DecisionRecord]] = field(default_factory=list)
    dealt: bool = False


def table_paytable(table: GameTable | GameRound) -> Paytable:
    """The exact paytable a table (or a round) names: its bytes kept in the database, else its file
    (refused if the file's bytes changed)."""
    return stored_paytable(table.paytable_id, table.paytable_version, table.paytable_sha256)


def table_limits(table: GameTable) -> Limits:
    """R1, R2.1, R6: the table's limits in base units and its cap on bettors."""
    return Limits(table.ante_min, table.ante_max, table.bonus_min, table.bonus_max, table.max_bettors)


def table_timers(table: GameTable) -> Timers:
    """R8: the betting window and each decision window."""
    return Timers(dt.timedelta(seconds=table.betting_seconds), dt.timedelta(seconds=table.decision_seconds))


def bettor_of(bet: Bet) -> Bettor:
    """A stored bet as the core's :class:`Bettor`, its decisions included (R8 automatic ones with
    their reason)."""
    decisions = {d.street: Decision(d.street, Action(d.action),
                                    None if d.automatic is None else AutoReason(d.automatic), d.decided_at)
                 for d in bet.decisions}
    return Bettor(str(bet.player_id), bet.currency, bet.ante, bet.bonus, bet.progressive, decisions, bet.connected)


def load_round(round_row: GameRound) -> Round:
    """The core state machine of a stored round: its deck (a live round's: the cards entered so
    far, R1), bets, decisions, phase and deadline. Its bettors are the bets the row has loaded: a
    bettor's own bet or decision loads only theirs (:func:`.queries.latest_round`'s ``bettor``),
    the dealer's steps every one."""
    void = (Void(VoidReason(round_row.void_reason), Stage(round_row.void_stage))
            if round_row.void_reason and round_row.void_stage else None)
    live = round_row.dealing == "live"
    deck = parse_cards(round_row.deck.split(), what="deck") if live else parse_deck(round_row.deck)
    return Round(table_paytable(round_row), deck, table_limits(round_row.table),
                 table_timers(round_row.table), Phase(round_row.phase), round_row.deadline,
                 {str(bet.player_id): bettor_of(bet) for bet in round_row.bets}, round_row.dealt_count, void, live)


def save_round(round_row: GameRound, core: Round, now: dt.datetime,
               request_ids: Mapping[int, str] | None = None) -> Saved:
    """Write the core round back: phase, deadline, cards dealt, connection states (R8) and every
    decision not yet stored, with the client's request id for the players' own ones. Only what
    changed is set: a row set to its own values is still flushed by the unit of work, for
    nothing (issue 10: a player's decision changes neither the round nor the bet's connection)."""
    dealt_before = round_row.dealt_count
    _set_changed(round_row, phase=core.phase.value, deadline=core.deadline, dealt_count=core.dealt_count)
    if core.live:  # R1: a live round's deck grows as its cards are entered
        _set_changed(round_row, deck=deck_text(core.deck))
    new: list[tuple[Bet, dict[str, Any]]] = []
    for bet in round_row.bets:
        bettor = core.bettors[str(bet.player_id)]
        _set_changed(bet, connected=bettor.connected)
        known = {decision.street for decision in bet.decisions}
        new += [(bet, {"bet_id": bet.id, "street": street, "action": decision.action.value,
                       "decided_at": decision.at or now,
                       "automatic": None if decision.automatic is None else decision.automatic.value,
                       "request_id": (request_ids or {}).get(bet.player_id)})
                for street, decision in bettor.decisions.items() if street not in known]
    return Saved(_stored_decisions(new), dealt=core.dealt_count != dealt_before)


def _set_changed(row: Any, **values: Any) -> None:
    """Set each of ``values`` on ``row`` that differs from what it holds."""
    for name, value in values.items():
        if getattr(row, name) != value:
            setattr(row, name, value)


def _stored_decisions(new: list[tuple[Bet, dict[str, Any]]]) -> list[tuple[Bet, DecisionRecord]]:
    """Insert the new decisions together by one plain statement (:mod:`.inserted`: with the rows
    set only when changed, a player's decision went from 10,684 to 8,014 Python calls by the
    profiler over ``bench/request_cost.py``'s requests) and give each bet its row."""
    stored = []
    for (bet, _), row in zip(new, insert_rows(DecisionRecord, [values for _, values in new]), strict=True):
        set_committed_value(row, "bet", bet)
        set_committed_value(bet, "decisions", [*bet.decisions, row])
        stored.append((bet, row))
    return stored


def save_result(round_row: GameRound, core: Round, result: Settlement, pool_before: Decimal,
                now: dt.datetime) -> None:
    """Record a settled or void round (R2.7, R9): its phase, each bettor's outcome and awards (R5),
    the hands and the pool it was settled against."""
    round_row.phase, round_row.deadline = core.phase.value, None
    bets = {str(bet.player_id): bet for bet in round_row.bets}
    for bettor in result.bettors:
        bet = bets[bettor.bettor_id]
        bet.returned = bettor.returned
        bet.outcome = {name: {"stake": format_amount(r.stake), "outcome": r.outcome.value,
                              "returned": format_amount(r.returned)} for name, r in bettor.bets.items()}
        db.session.add_all(AwardRecord(round_id=round_row.id, bet_id=bet.id, prize_table=a.table, hand=a.hand.slug,
                                       street=a.street, share_of=a.share_of, amount=a.amount,
                                       base_amount=a.base_amount)
                           for a in bettor.awards)
    round_row.pool_before, round_row.result, round_row.finished_at = pool_before, result.result.value, now
    round_row.player_hand = None if result.player_hand is None else result.player_hand.category.slug
    round_row.dealer_hand = None if result.dealer_hand is None else result.dealer_hand.category.slug
    db.session.flush()


def reveal(round_row: GameRound, result: Settlement) -> dict[str, Any]:
    """R1: what becomes public once a round is over (the deck and nonce behind its commitment,
    the Dealer's cards), for the audit log."""
    cards = result.cards
    return {"deck": round_row.deck, "nonce": round_row.nonce, "player": format_cards(cards.player),
            "dealer": format_cards(cards.dealer), "board": format_cards(cards.board), "result": result.result.value}
