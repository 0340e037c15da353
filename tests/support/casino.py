"""Players with money, pools and tables made through the services as an operator would; rigged
decks dealt in R1's order; a fixed clock. :class:`RiggedCasino` drives rounds step by step for the
service tests; :class:`support.web.WebCasino` lets the web tests' players play through HTTP."""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import select

from casino_holdem.core.cards import FULL_DECK, Card, parse_cards
from casino_holdem.core.phases import BOARD_POSITIONS, DEALER_POSITIONS, PLAYER_POSITIONS
from casino_holdem.extensions import db
from casino_holdem.models import AuditEntry, GameRound, LedgerTransaction
from casino_holdem.services import dealer_steps, jackpot, operators, rounds, tables, verify, wallet
from casino_holdem.services.operators import OperatorView, Role

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
SECOND = dt.timedelta(seconds=1)
BETTING, DECISION = 10, 10
PASSWORD = "correct horse"
#: every test operator's password (long enough for an operator account)
OPERATOR_PASSWORD = "a long password"
#: the limits and timers of every test table unless a test says otherwise
TABLE_SETTINGS: dict[str, Any] = {"ante_min": Decimal(1), "ante_max": Decimal(500), "bonus_min": Decimal(1),
                                  "bonus_max": Decimal(100), "betting_seconds": BETTING, "decision_seconds": DECISION}


def staff(username: str, role: str) -> OperatorView:
    """An operator as the services take it, without an account row (id 0): for the tests that only
    need someone to act; a test of who is audited makes the account (:meth:`Casino.operator`)."""
    return OperatorView(0, username, Role(role), True)


def deck_with(player: str, dealer: str, board: str) -> tuple[Card, ...]:
    """A deck that deals these cards by R1's order (the rest in a fixed order)."""
    placed: dict[int, Card] = {}
    for positions, text in ((PLAYER_POSITIONS, player), (DEALER_POSITIONS, dealer), (BOARD_POSITIONS, board)):
        placed.update(zip(positions, parse_cards(text.split()), strict=True))
    rest = iter(card for card in FULL_DECK if card not in placed.values())
    return tuple(placed.get(i) or next(rest) for i in range(52))


#: R5 P1: the Player's Royal Flush made on the flop (90 % of the pool to the Flop bettors)
ROYAL_ON_THE_FLOP = deck_with("As Ks", "2c 3d", "Qs Js Ts 4h 5d")


class Casino:
    """What every casino under test has: funded players, seeded pools and tables, each made by one
    service call (inside an app context)."""

    def __init__(self) -> None:
        self.names = itertools.count(1)

    def funded_player(self, username: str, currency: str, amount: str) -> int:
        player = wallet.create_player(username, PASSWORD, currency)
        if Decimal(amount):
            wallet.deposit(player.id, amount, f"fund:{player.id}")
        return player.id

    def seeded_pool(self, seed: str) -> int:
        pool = jackpot.ensure_pool(f"pool{next(self.names)}")
        if Decimal(seed):
            jackpot.top_up(pool.id, seed, "test seed", None)
        return pool.id

    def linked_table(self, name: str, pool_id: int, **settings: Any) -> int:
        return tables.create_table(name, pool_id, **{**TABLE_SETTINGS, **settings}).id

    @staticmethod
    def operator(username: str, role: str) -> OperatorView:
        """A back-office account (issue 11): the services audit an action under its id and role."""
        return operators.find(username) or operators.create(username, OPERATOR_PASSWORD, role)


class RiggedCasino(Casino):
    """The service tests' casino: rounds dealt from rigged decks and moved at a clock the test holds."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        super().__init__()
        self.decks: list[tuple[Card, ...]] = []
        original = dealer_steps.secure_shuffle
        monkeypatch.setattr(dealer_steps, "secure_shuffle", lambda: self.decks.pop(0) if self.decks else original())

    def player(self, currency: str = "USD", amount: str = "1000") -> int:
        return self.funded_player(f"p{next(self.names)}", currency, amount)

    def pool(self, seed: str = "0") -> int:
        return self.seeded_pool(seed)

    def table(self, pool_id: int | None = None, **settings: Any) -> int:
        return self.linked_table(f"t{next(self.names)}", pool_id or self.pool(), **settings)

    def open(self, table_id: int, deck: Sequence[Card] | None = None, now: dt.datetime = T0) -> int:
        """Open the table's next round (on ``deck`` when given); returns its id."""
        if deck is not None:
            self.decks.append(tuple(deck))
        step = dealer_steps.advance(table_id, now)
        assert step is not None and step.event == "opened"
        return step.round_id

    def run(self, table_id: int, now: dt.datetime, steps: int = 10) -> list[str]:
        """Advance as far as due at ``now``; the events."""
        events = []
        for _ in range(steps):
            step = dealer_steps.advance(table_id, now)
            if step is None:
                break
            events.append(step.event)
        return events

    def play_royal(self, table_id: int, player_id: int, key: str) -> int:
        """R5 P1: a round dealt the Player's Royal Flush on the flop, where ``player_id`` bets
        (Ante 10 and Progressive) and makes the Flop bet, so shares the prize; returns its id."""
        round_id = self.open(table_id, ROYAL_ON_THE_FLOP)
        rounds.place_bets(player_id, table_id, "10", "0", True, request_id=key, now=T0)
        self.run(table_id, T0 + 10 * SECOND)
        rounds.decide(player_id, round_id, "flop", request_id=f"{key}-flop", now=T0 + 11 * SECOND)
        return round_id

    def to_showdown(self, table_id: int) -> None:
        """Deal the flop, turn and river of a round whose preflop decisions were made at T0 + 11 s
        (R8 checks for whoever lets a window pass), stopping before its settlement."""
        for seconds in (12, 30, 50):
            self.run(table_id, T0 + seconds * SECOND, steps=1)

    @staticmethod
    def balance(player_id: int) -> Decimal:
        return wallet.balance(player_id).balance

    @staticmethod
    def assert_sound() -> None:
        assert verify.audit_ledger() == []


def assert_each_step_taken_once() -> list[int]:
    """However many dealers ran: every street of every round dealt once, every settled round dealt
    its river and settled once (one settlement posting); returns the settled rounds."""
    entries = db.session.scalars(select(AuditEntry).where(AuditEntry.action.in_(("dealt", "round_settled")))).all()
    steps = Counter((entry.round_id, entry.action, entry.detail.get("street")) for entry in entries)
    assert steps and max(steps.values()) == 1
    settled = list(db.session.scalars(select(GameRound.id).where(GameRound.phase == "settled")))
    settlements = Counter(db.session.scalars(select(LedgerTransaction.round_id)
                                             .where(LedgerTransaction.kind == "settlement")))
    assert settled and set(settlements) == set(settled) and max(settlements.values()) == 1
    assert all(steps[(round_id, "dealt", "river")] == 1 for round_id in settled)
    return settled
