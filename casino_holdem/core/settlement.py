"""The words and records of a settlement (R2-R6, R9): the bets and streets, the outcomes, R9's
reasons and stages, the dealt cards and stakes that go in, and the results that come out.

The rules that fill these records are :mod:`.rules` (R3, R4, the whole round, R9) and
:mod:`.progressive` (R5, R6); :mod:`.rules` hands every name here on to its callers, so a
caller imports a settlement and its records from one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from .cards import Card
from .evaluator import Category, HandValue
from .money import ZERO
from .paytable import Paytable

MAIN_BETS = ("ante", "flop", "turn", "river")
ALL_BETS = (*MAIN_BETS, "bonus", "progressive")
STREETS = ("flop", "turn", "river")
#: R2.4-R2.6: how many board cards there are once each street is dealt
BOARD_SIZE: Mapping[str, int] = {"flop": 3, "turn": 4, "river": 5}


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    VOID = "void"
    NONE = "none"


class Result(StrEnum):
    PLAYER_WINS = "player_wins"
    DEALER_WINS = "dealer_wins"
    TIE = "tie"
    VOID = "void"


class VoidReason(StrEnum):
    """R9: the incidents that void a round."""

    CARD_EXPOSED_DURING_BETTING = "card_exposed_during_betting"
    DROPPED_CARD_SEEN = "dropped_card_seen"
    MISDEAL = "misdeal"
    SHUFFLER_JAM = "shuffler_jam"
    OPERATOR = "operator"


class Stage(StrEnum):
    """R9: the step of the round during which an incident happened."""

    BETTING = "betting"
    HOLE_CARDS = "hole_cards"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"


@dataclass(frozen=True, slots=True)
class Void:
    reason: VoidReason
    stage: Stage



@dataclass(frozen=True, slots=True)
class DealtCards:
    """The cards of a round as far as they were dealt (R1): Player, Dealer, board in dealing order."""

    player: tuple[Card, ...] = ()
    dealer: tuple[Card, ...] = ()
    board: tuple[Card, ...] = ()

    @property
    def complete(self) -> bool:
        return len(self.player) == 2 and len(self.dealer) == 2 and len(self.board) == 5

    @property
    def count(self) -> int:
        """How many of the round's cards are out, burn cards aside."""
        return len(self.player) + len(self.dealer) + len(self.board)


@dataclass(frozen=True, slots=True)
class Stake:
    """One bettor's wagers as they stand when the round ends (R2), in the bettor's currency.

    ``progressive`` is the stake of the fixed Progressive bet (the currency's multiplier, R6) or
    zero; ``flop``/``turn``/``river`` are zero when not made; ``folded`` marks a pre-flop fold.
    """

    bettor_id: str
    currency: str
    ante: Decimal
    bonus: Decimal = ZERO
    progressive: Decimal = ZERO
    flop: Decimal = ZERO
    turn: Decimal = ZERO
    river: Decimal = ZERO
    folded: bool = False

    def amount(self, bet: str) -> Decimal:
        return Decimal(getattr(self, bet))

    @property
    def staked(self) -> Decimal:
        return sum((self.amount(bet) for bet in ALL_BETS), ZERO)

    @property
    def made_flop_bet(self) -> bool:
        """R5: P1 and P2 go to Progressive bettors who made the Flop bet."""
        return not self.folded and self.flop > 0


@dataclass(frozen=True, slots=True)
class BetResult:
    stake: Decimal
    outcome: Outcome
    returned: Decimal
    category: str | None = None


@dataclass(frozen=True, slots=True)
class Award:
    """One bettor's share of one progressive prize (R5), ``amount`` in the bettor's currency (R6)."""

    table: str
    hand: Category
    street: str | None
    share_of: int
    amount: Decimal
    base_amount: Decimal


@dataclass(frozen=True, slots=True)
class BettorResult:
    bettor_id: str
    currency: str
    bets: Mapping[str, BetResult]
    awards: tuple[Award, ...] = ()

    @property
    def staked(self) -> Decimal:
        return sum((bet.stake for bet in self.bets.values()), ZERO)

    @property
    def returned(self) -> Decimal:
        return sum((bet.returned for bet in self.bets.values()), ZERO)

    @property
    def net(self) -> Decimal:
        return self.returned - self.staked


@dataclass(frozen=True, slots=True)
class PoolResult:
    """Base units. ``after == before + contributions - paid`` exactly; ``top_up`` is the house's
    seed refill (R5) applied after the round, outside that equation."""

    before: Decimal
    contributions: Decimal
    paid: Decimal
    after: Decimal
    top_up: Decimal = ZERO


@dataclass(frozen=True, slots=True)
class Settlement:
    paytable: Paytable
    cards: DealtCards
    player_hand: HandValue | None
    dealer_hand: HandValue | None
    result: Result
    pool: PoolResult
    bettors: tuple[BettorResult, ...]
    void: Void | None = None
    awards_by_table: Mapping[str, Decimal] = field(default_factory=dict)
