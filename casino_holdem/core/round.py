"""The round state machine (R1, R2, R8, R9).

A round moves only through named operations, each of which checks whether it is allowed now and
raises :class:`RuleViolation` citing the rule when it is not (the PokerKit way)::

    round = Round.open(paytable, deck, Limits(), Timers(), now)
    round.place_bets("p1", "USD", Decimal("10"), now=now)
    round.advance(later)                 # betting closed: hole cards dealt, phase PRE_FLOP
    round.act("p1", Action.FLOP, now=later)
    round.advance(later)                 # everyone acted: the flop is dealt at once

The clock is always a parameter (``now``); nothing here reads it, so freezegun, replays and the
scenario CLI drive rounds exactly. The same object serves the live tables (services rebuild it from
stored rows), the scenario CLI and replay, so a rule of play is implemented once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from .cards import Card, ensure_distinct
from .money import ZERO, is_multiple_of
from .paytable import Paytable
from .rules import DealtCards, Settlement, Stage, Stake, Void, VoidReason, settle, settle_void

#: R1 dealing order: positions in the shuffled deck.
PLAYER_POSITIONS = (0, 2)
DEALER_POSITIONS = (1, 3)
BURN_POSITIONS = (4, 8, 10)
BOARD_POSITIONS = (5, 6, 7, 9, 11)
#: how many cards have left the deck once each street is dealt (burns included)
DEALT_AFTER = {"hole_cards": 4, "flop": 8, "turn": 10, "river": 12}


class RuleViolation(Exception):
    """An operation the rules do not allow now; the message starts with the rule (``R2.3: …``)."""


class InvalidBet(RuleViolation):
    """A bet outside the limits, the currency's unit, or the rules (R2.1, R6); ``field`` names
    the bet at fault (``ante``, ``bonus``, ``currency``) so callers can point at it."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


class Phase(StrEnum):
    BETTING = "betting"          # R2.1: Ante, Bonus, Progressive accepted until the deadline
    PRE_FLOP = "pre_flop"        # R2.3: hole cards dealt; fold or Flop bet (2 × Ante)
    FLOP = "flop"                # R2.4: flop dealt; Turn bet (1 × Ante) or check
    TURN = "turn"                # R2.5: turn dealt; River bet (1 × Ante) or check
    SHOWDOWN = "showdown"        # R2.6-7: river dealt, waiting for settlement against the pool
    SETTLED = "settled"
    VOID = "void"                # R9


#: a round that is over: no money of it is in play any more (R2.7, R9)
FINISHED = (Phase.SETTLED, Phase.VOID)


class Action(StrEnum):
    FOLD = "fold"
    FLOP = "flop"    # the Flop bet, 2 × Ante (R2.3)
    BET = "bet"      # the Turn or River bet, 1 × Ante (R2.4, R2.5)
    CHECK = "check"


class AutoReason(StrEnum):
    """R8: why the house decided for a bettor."""

    TIMEOUT = "timeout"
    DISCONNECT = "disconnect"


#: which street's decision each decision phase asks for, what it allows, and the R8 default
DECISION_STREET = {Phase.PRE_FLOP: "preflop", Phase.FLOP: "flop", Phase.TURN: "turn"}
ALLOWED = {Phase.PRE_FLOP: (Action.FOLD, Action.FLOP), Phase.FLOP: (Action.BET, Action.CHECK),
           Phase.TURN: (Action.BET, Action.CHECK)}
AUTOMATIC = {Phase.PRE_FLOP: Action.FOLD, Phase.FLOP: Action.CHECK, Phase.TURN: Action.CHECK}
RULE = {Phase.PRE_FLOP: "R2.3", Phase.FLOP: "R2.4", Phase.TURN: "R2.5"}
NEXT_PHASE = {Phase.BETTING: Phase.PRE_FLOP, Phase.PRE_FLOP: Phase.FLOP,
              Phase.FLOP: Phase.TURN, Phase.TURN: Phase.SHOWDOWN}
#: R2.3-R2.5: the Flop bet is 2 × Ante; the Turn and River bets are 1 × Ante each
ANTE_MULTIPLE = {Action.FLOP: 2, Action.BET: 1}
DEALS_ON_ENTRY = {Phase.PRE_FLOP: "hole_cards", Phase.FLOP: "flop", Phase.TURN: "turn", Phase.SHOWDOWN: "river"}


@dataclass(frozen=True, slots=True)
class Timers:
    """Table settings (R8): the betting window and each decision window."""

    betting: dt.timedelta = dt.timedelta(seconds=15)
    decision: dt.timedelta = dt.timedelta(seconds=15)


@dataclass(frozen=True, slots=True)
class Limits:
    """Table limits in base units, scaled by the currency's multiplier (R6); None = no limit."""

    ante_min: Decimal | None = None
    ante_max: Decimal | None = None
    bonus_min: Decimal | None = None
    bonus_max: Decimal | None = None
    max_bettors: int | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    street: str
    action: Action
    automatic: AutoReason | None = None
    at: dt.datetime | None = None


@dataclass(slots=True)
class Bettor:
    id: str
    currency: str
    ante: Decimal
    bonus: Decimal = ZERO
    progressive: Decimal = ZERO
    decisions: dict[str, Decision] = field(default_factory=dict)
    connected: bool = True

    @property
    def folded(self) -> bool:
        decision = self.decisions.get("preflop")
        return decision is not None and decision.action is Action.FOLD

    def stake(self) -> Stake:
        """The bets as they stand (R2): Flop 2 × Ante, Turn/River 1 × Ante when made."""
        def made(street: str, action: Action) -> Decimal:
            decision = self.decisions.get(street)
            return self.ante * ANTE_MULTIPLE[action] if decision is not None and decision.action is action else ZERO

        return Stake(self.id, self.currency, self.ante, self.bonus, self.progressive,
                     flop=made("preflop", Action.FLOP), turn=made("flop", Action.BET),
                     river=made("turn", Action.BET), folded=self.folded)

    @property
    def committed(self) -> Decimal:
        """Everything this bettor has staked so far."""
        return self.stake().staked

    @property
    def exposure(self) -> Decimal:
        """The most this bettor can still be asked for in this round: the Flop bet and both later
        bets (2 + 1 + 1 × Ante) less what is already made. Services reserve it (issue 5)."""
        if self.folded:
            return ZERO
        stake = self.stake()
        most = ANTE_MULTIPLE[Action.FLOP] + 2 * ANTE_MULTIPLE[Action.BET]
        return self.ante * most - (stake.flop + stake.turn + stake.river)


@dataclass(slots=True)
class Round:
    paytable: Paytable
    deck: tuple[Card, ...]
    limits: Limits = Limits()
    timers: Timers = Timers()
    phase: Phase = Phase.BETTING
    deadline: dt.datetime | None = None
    bettors: dict[str, Bettor] = field(default_factory=dict)
    dealt_count: int = 0
    void_info: Void | None = None

    @classmethod
    def open(cls, paytable: Paytable, deck: Sequence[Card], limits: Limits, timers: Timers,
             now: dt.datetime) -> Round:
        """R1: a fresh round on a freshly shuffled 52-card deck, betting open until the deadline."""
        if len(deck) != 52:
            raise RuleViolation(f"R1: a deck has 52 cards, not {len(deck)}")
        ensure_distinct(deck, what="deck")
        return cls(paytable, tuple(deck), limits, timers, Phase.BETTING, now + timers.betting)

    # --- what has been dealt (R1) ---------------------------------------------------------

    def _at(self, positions: Sequence[int]) -> tuple[Card, ...]:
        return tuple(self.deck[p] for p in positions if p < self.dealt_count)

    @property
    def cards(self) -> DealtCards:
        return DealtCards(self._at(PLAYER_POSITIONS), self._at(DEALER_POSITIONS), self._at(BOARD_POSITIONS))

    @property
    def stage(self) -> Stage:
        """R9: the step now under way, as a void's ``stage``."""
        return {Phase.BETTING: Stage.BETTING, Phase.PRE_FLOP: Stage.HOLE_CARDS, Phase.FLOP: Stage.FLOP,
                Phase.TURN: Stage.TURN}.get(self.phase, Stage.RIVER)

    # --- R2.1: betting ------------------------------------------------------------------

    def place_bets(self, bettor_id: str, currency: str, ante: Decimal, bonus: Decimal = ZERO,
                   progressive: bool = False, *, now: dt.datetime) -> Bettor:
        """R2.1: an Ante within the limits; with it, optionally a Bonus and the Progressive bet."""
        if self.phase is not Phase.BETTING or (self.deadline is not None and now >= self.deadline):
            raise RuleViolation("R2.1: betting is closed for this round")
        if bettor_id in self.bettors:
            raise RuleViolation(f"R2.1: {bettor_id} has already placed bets on this round")
        if self.limits.max_bettors is not None and len(self.bettors) >= self.limits.max_bettors:
            raise RuleViolation(f"R1: the table is full ({self.limits.max_bettors} bettors)")
        try:
            spec = self.paytable.currency(currency)
        except KeyError as error:
            raise InvalidBet(f"R6: {error.args[0]}", "currency") from None
        for name, amount, low, high in (("ante", ante, self.limits.ante_min, self.limits.ante_max),
                                        ("bonus", bonus, self.limits.bonus_min, self.limits.bonus_max)):
            if name == "bonus" and amount == 0:
                continue
            if amount <= 0:
                raise InvalidBet(f"R2.1: {name} {amount}: must be positive", name)
            if not is_multiple_of(amount, spec.unit):
                raise InvalidBet(f"R6: {name} {amount}: not a whole number of the smallest {currency} unit {spec.unit}", name)
            if low is not None and amount < low * spec.multiplier:
                raise InvalidBet(f"R2.1: {name} {amount}: below the table minimum {low * spec.multiplier} {currency}", name)
            if high is not None and amount > high * spec.multiplier:
                raise InvalidBet(f"R2.1: {name} {amount}: above the table maximum {high * spec.multiplier} {currency}", name)
        bettor = Bettor(bettor_id, currency, ante, bonus, spec.multiplier if progressive else ZERO)
        self.bettors[bettor_id] = bettor
        return bettor

    # --- R2.3-R2.5 and R8: decisions --------------------------------------------------------

    def _pending(self) -> list[Bettor]:
        street = DECISION_STREET.get(self.phase)
        if street is None:
            return []
        return [b for b in self.bettors.values() if not b.folded and street not in b.decisions]

    def why_not(self, bettor_id: str, action: Action) -> str | None:
        """Why ``action`` is not allowed for this bettor now, or None when it is."""
        bettor = self.bettors.get(bettor_id)
        if bettor is None:
            return f"R2.1: {bettor_id} has no bets on this round"
        street = DECISION_STREET.get(self.phase)
        if street is None:
            return f"R2: no decision is due while the round is {self.phase.value}"
        if bettor.folded:
            return f"R2.3: {bettor_id} folded and takes no further part"
        if street in bettor.decisions:
            return f"{RULE[self.phase]}: {bettor_id} has already decided on the {street.replace('preflop', 'pre-flop')}"
        if action not in ALLOWED[self.phase]:
            allowed = " or ".join(a.value for a in ALLOWED[self.phase])
            return f"{RULE[self.phase]}: {action.value} is not allowed now ({allowed})"
        return None

    def allowed_actions(self, bettor_id: str) -> tuple[Action, ...]:
        return tuple(a for a in ALLOWED.get(self.phase, ()) if self.why_not(bettor_id, a) is None)

    def act(self, bettor_id: str, action: Action, *, now: dt.datetime,
            automatic: AutoReason | None = None) -> Decision:
        """Record one bettor's decision for the current street (once)."""
        reason = self.why_not(bettor_id, action)
        if reason:
            raise RuleViolation(reason)
        decision = Decision(DECISION_STREET[self.phase], action, automatic, now)
        self.bettors[bettor_id].decisions[decision.street] = decision
        return decision

    def decide_automatically(self, bettor_id: str, reason: AutoReason, *, now: dt.datetime) -> Decision:
        """R8: no decision or a disconnection → Fold before the flop is dealt, Check after it."""
        return self.act(bettor_id, AUTOMATIC[self.phase], now=now, automatic=reason)

    def disconnect(self, bettor_id: str, *, now: dt.datetime) -> list[Decision]:
        """R8: a disconnected bettor's due decision is taken for them now, and later ones as they come."""
        bettor = self.bettors.get(bettor_id)
        if bettor is None:
            return []
        bettor.connected = False
        return self._decide_for_disconnected(now)

    def reconnect(self, bettor_id: str) -> None:
        """R8: the bettor rejoins the same round, which has gone on without them."""
        if bettor_id in self.bettors:
            self.bettors[bettor_id].connected = True

    def _decide_for_disconnected(self, now: dt.datetime) -> list[Decision]:
        return [self.decide_automatically(b.id, AutoReason.DISCONNECT, now=now)
                for b in self._pending() if not b.connected]

    # --- moving on ---------------------------------------------------------------------

    @property
    def ready_to_advance(self) -> bool:
        """Every active bettor has decided, or nobody is left to decide (R2)."""
        return self.phase in DECISION_STREET and not self._pending()

    def due(self, now: dt.datetime) -> bool:
        """Whether :meth:`advance` would move the round at ``now``."""
        if self.phase is Phase.BETTING:
            return self.deadline is not None and now >= self.deadline and bool(self.bettors)
        if self.phase in DECISION_STREET:
            return self.ready_to_advance or (self.deadline is not None and now >= self.deadline)
        return False

    def advance(self, now: dt.datetime) -> list[Decision]:
        """Move one step when it is due: close betting and deal the hole cards, or close a decision
        window (R8: automatic fold/check for whoever has not decided) and deal the next street.
        Returns the automatic decisions it took. A betting window with no bets is simply
        reopened: a round nobody bet on is never dealt."""
        if self.phase is Phase.BETTING and not self.bettors and self.deadline is not None and now >= self.deadline:
            self.deadline = now + self.timers.betting
            return []
        if not self.due(now):
            return []
        automatic = [self.decide_automatically(b.id, AutoReason.TIMEOUT, now=now) for b in self._pending()]
        self.phase = NEXT_PHASE[self.phase]
        self.dealt_count = DEALT_AFTER[DEALS_ON_ENTRY[self.phase]]
        self.deadline = now + self.timers.decision if self.phase in DECISION_STREET else None
        return automatic + self._decide_for_disconnected(now)

    def stakes(self) -> list[Stake]:
        return [bettor.stake() for bettor in self.bettors.values()]

    def settle(self, pool_before: Decimal) -> Settlement:
        """R2.7: showdown. ``pool_before`` is the pool without this round's contributions."""
        if self.phase is not Phase.SHOWDOWN:
            raise RuleViolation(f"R2.7: the round is {self.phase.value}, not at showdown")
        settlement = settle(self.paytable, self.cards, self.stakes(), pool_before)
        self.phase = Phase.SETTLED
        return settlement

    def void(self, reason: VoidReason, pool_before: Decimal, stage: Stage | None = None,
             dealt: DealtCards | None = None) -> Settlement:
        """R9: void the round. ``stage`` defaults to the step under way; ``dealt`` describes a
        partial deal entered from a live dealer's console (default: what this round dealt)."""
        if self.phase in (Phase.SETTLED, Phase.VOID):
            raise RuleViolation(f"R9: the round is already {self.phase.value}")
        self.void_info = Void(reason, stage or self.stage)
        self.phase = Phase.VOID
        self.deadline = None
        return settle_void(self.paytable, dealt or self.cards, self.stakes(), pool_before, self.void_info)
