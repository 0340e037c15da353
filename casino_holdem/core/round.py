"""The round state machine (R1, R2, R8, R9) on top of the phase table of :mod:`.phases`.

A round moves only through named operations. Each has a ``verify_*`` that raises the
:class:`~.errors.RuleViolation` saying why it is not allowed now (citing the rule), a ``can_*``
that answers yes or no, and the operation itself, which verifies first (the PokerKit way)::

    round = Round.open(paytable, deck, Limits(), Timers(), now)
    round.can_bet("p1", "USD", Decimal("10"), now=now)             # True
    round.place_bets("p1", "USD", Decimal("10"), now=now)
    round.advance(later)                 # betting closed: hole cards dealt, phase PRE_FLOP
    round.verify_decision("p1", Action.CHECK, now=later)           # RuleViolation("R2.3: …")
    round.act("p1", Action.FLOP, now=later)
    round.advance(later)                 # everyone acted: the flop is dealt at once

The clock is always a parameter (``now``); nothing here reads it, so freezegun, replays and the
scenario CLI drive rounds exactly. The same object serves the live tables (services rebuild it from
stored rows), the scenario CLI and replay, so a rule of play is implemented once.

Where each rule lives: R1 dealing order :data:`.phases.DEALING_ORDER`, :attr:`Round.cards`;
R2.1 bets :meth:`Round.verify_bet`; R2.2-R2.6 phases :data:`.phases.PHASES`, :meth:`Round.advance`;
R2.3-R2.5 decisions :meth:`Round.verify_decision`; R2.7 :meth:`Round.settle`; R8 automatic
decisions and the decision window :meth:`Round.decide_automatically`, :meth:`Round.disconnect`,
:meth:`Round.verify_decision`; R9 :meth:`Round.void`; live dealing (cards entered one by one, R1)
:mod:`.live`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from .cards import Card, ensure_distinct
from .errors import InvalidBet, RuleViolation
from .live import LiveDealing
from .money import ZERO, is_multiple_of
from .paytable import Paytable
from .phases import (
    DEALING_ORDER,
    DECISION_PHASES,
    FINISHED,
    PHASES,
    Action,
    AutoReason,
    Phase,
    PhaseRules,
    Receiver,
)
from .rules import DealtCards, Settlement, Stage, Stake, Void, VoidReason, settle, settle_void

#: the round's API, with the phase and error names its callers need next to it
__all__ = ["FINISHED", "WINDOW_CLOSED", "Action", "AutoReason", "Bettor", "Decision", "InvalidBet", "Limits", "Phase",
           "Round", "RuleViolation", "Timers"]

#: R8: what a decision made after its window closed is told
WINDOW_CLOSED = "the decision window has closed; the house decides (fold before the flop, check after)"
#: R2.1, R8: a bet after the betting window of a round with bets
BETTING_CLOSED = "betting is closed for this round"


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
        """R2.3: a fold (only the pre-flop decision allows one) ends the bettor's main game."""
        return any(decision.action is Action.FOLD for decision in self.decisions.values())

    def stake(self) -> Stake:
        """The bets as they stand (R2): Flop 2 × Ante, Turn/River 1 × Ante when made."""
        made: dict[str, Decimal] = {}
        for street, rules in DECISION_PHASES.items():
            decision = self.decisions.get(street)
            if rules.bet is not None and decision is not None and decision.action is rules.bet.action:
                made[rules.bet.name] = self.ante * rules.bet.antes
        return Stake(self.id, self.currency, self.ante, self.bonus, self.progressive, flop=made.get("flop", ZERO),
                     turn=made.get("turn", ZERO), river=made.get("river", ZERO), folded=self.folded)

    @property
    def committed(self) -> Decimal:
        """Everything this bettor has staked so far."""
        return self.stake().staked

    @property
    def exposure(self) -> Decimal:
        """The most this bettor can still be asked for in this round: the Flop bet and both later
        bets (2 + 1 + 1 × Ante) less what is already made. Services reserve it."""
        if self.folded:
            return ZERO
        stake = self.stake()
        most = sum(rules.bet.antes for rules in DECISION_PHASES.values() if rules.bet is not None)
        return self.ante * most - (stake.flop + stake.turn + stake.river)


@dataclass(slots=True)
class Round(LiveDealing):
    paytable: Paytable
    deck: tuple[Card, ...]
    limits: Limits = Limits()
    timers: Timers = Timers()
    phase: Phase = Phase.BETTING
    deadline: dt.datetime | None = None
    bettors: dict[str, Bettor] = field(default_factory=dict)
    dealt_count: int = 0
    void_info: Void | None = None
    live: bool = False

    @classmethod
    def open(cls, paytable: Paytable, deck: Sequence[Card], limits: Limits, timers: Timers,
             now: dt.datetime) -> Round:
        """R1: a fresh round on a freshly shuffled 52-card deck, betting open until the deadline."""
        if len(deck) != 52:
            raise RuleViolation("R1", f"a deck has 52 cards, not {len(deck)}", field="deck")
        ensure_distinct(deck, what="deck")
        return cls(paytable, tuple(deck), limits, timers, Phase.BETTING, now + timers.betting)

    @classmethod
    def open_live(cls, paytable: Paytable, limits: Limits, timers: Timers, now: dt.datetime) -> Round:
        """R1: a fresh round on a live table: no deck yet, its cards come from the dealer's console."""
        return cls(paytable, (), limits, timers, Phase.BETTING, now + timers.betting, live=True)

    @property
    def rules(self) -> PhaseRules:
        """What the current phase deals, asks and allows (:data:`.phases.PHASES`)."""
        return PHASES[self.phase]

    # --- what has been dealt (R1) ---------------------------------------------------------

    def _dealt_to(self, receiver: Receiver) -> tuple[Card, ...]:
        return tuple(self.deck[step.position] for step in DEALING_ORDER[:self.dealt_count] if step.receiver is receiver)

    @property
    def cards(self) -> DealtCards:
        """R1: the Player's, the Dealer's and the board's cards dealt so far, in dealing order."""
        return DealtCards(self._dealt_to(Receiver.PLAYER), self._dealt_to(Receiver.DEALER),
                          self._dealt_to(Receiver.BOARD))

    @property
    def stage(self) -> Stage:
        """R9: the step now under way, as a void's ``stage``."""
        return self.rules.stage

    def _window_closed(self, now: dt.datetime) -> bool:
        return self.deadline is not None and now >= self.deadline

    # --- R2.1: betting ------------------------------------------------------------------

    def verify_bet(self, bettor_id: str, currency: str, ante: Decimal, bonus: Decimal = ZERO, *,
                   now: dt.datetime) -> None:
        """R2.1: an Ante within the limits and, optionally, a Bonus within its own, each a whole
        number of the currency's unit (R6), once per bettor, while betting is open. Raises
        :class:`~.errors.InvalidBet` naming the bet at fault, or :class:`~.errors.RuleViolation`."""
        if self.phase is not Phase.BETTING or self._window_closed(now):
            raise RuleViolation("R2.1", BETTING_CLOSED)
        if bettor_id in self.bettors:
            raise RuleViolation("R2.1", f"{bettor_id} has already placed bets on this round")
        if self.limits.max_bettors is not None and len(self.bettors) >= self.limits.max_bettors:
            raise RuleViolation("R1", f"the table is full ({self.limits.max_bettors} bettors)")
        try:
            spec = self.paytable.currency(currency)
        except KeyError as error:
            raise InvalidBet("R6", error.args[0], "currency") from None
        for name, amount, low, high in (("ante", ante, self.limits.ante_min, self.limits.ante_max),
                                        ("bonus", bonus, self.limits.bonus_min, self.limits.bonus_max)):
            if name == "bonus" and amount == 0:
                continue
            if amount <= 0:
                raise InvalidBet("R2.1", f"{name} {amount}: must be positive", name)
            if not is_multiple_of(amount, spec.unit):
                raise InvalidBet("R6", f"{name} {amount}: not a whole number of the smallest {currency} unit "
                                 f"{spec.unit}", name)
            if low is not None and amount < low * spec.multiplier:
                raise InvalidBet("R2.1", f"{name} {amount}: below the table minimum {low * spec.multiplier} "
                                 f"{currency}", name)
            if high is not None and amount > high * spec.multiplier:
                raise InvalidBet("R2.1", f"{name} {amount}: above the table maximum {high * spec.multiplier} "
                                 f"{currency}", name)

    def can_bet(self, bettor_id: str, currency: str, ante: Decimal, bonus: Decimal = ZERO, *,
                now: dt.datetime) -> bool:
        """Whether :meth:`place_bets` would accept these bets now."""
        try:
            self.verify_bet(bettor_id, currency, ante, bonus, now=now)
        except RuleViolation:
            return False
        return True

    def place_bets(self, bettor_id: str, currency: str, ante: Decimal, bonus: Decimal = ZERO,
                   progressive: bool = False, *, now: dt.datetime) -> Bettor:
        """R2.1: place the Ante, the Bonus and the Progressive bet (R6: the currency's multiplier)."""
        self.verify_bet(bettor_id, currency, ante, bonus, now=now)
        multiplier = self.paytable.currency(currency).multiplier
        bettor = Bettor(bettor_id, currency, ante, bonus, multiplier if progressive else ZERO)
        self.bettors[bettor_id] = bettor
        return bettor

    # --- R2.3-R2.5 and R8: decisions --------------------------------------------------------

    def _pending(self) -> list[Bettor]:
        street = self.rules.street
        if street is None or self.awaiting_cards:  # R8: nothing is asked before the cards are out
            return []
        return [b for b in self.bettors.values() if not b.folded and street not in b.decisions]

    def _refusal(self, bettor_id: str, action: Action, now: dt.datetime | None) -> RuleViolation | None:
        """Why ``action`` is not allowed for this bettor now (None: it is); without ``now`` the
        decision window is not looked at (the house's own R8 decisions come after it closed)."""
        rules, bettor = self.rules, self.bettors.get(bettor_id)

        def refused(rule: str, problem: str) -> RuleViolation:
            return RuleViolation(rule, problem, field="action")

        if bettor is None:
            return refused("R2.1", f"{bettor_id} has no bets on this round")
        if rules.street is None:
            return refused("R2", f"no decision is due while the round is {self.phase.value}")
        if self.awaiting_cards:
            return refused("R8", f"the cards of the {rules.street} are still being dealt")
        if bettor.folded:
            return refused("R2.3", f"{bettor_id} folded and takes no further part")
        if rules.street in bettor.decisions:
            return refused(rules.rule, f"{bettor_id} has already decided on the "
                                       f"{rules.street.replace('preflop', 'pre-flop')}")
        if action not in rules.allowed:
            allowed = " or ".join(a.value for a in rules.allowed)
            return refused(rules.rule, f"{action.value} is not allowed now ({allowed})")
        if now is not None and self._window_closed(now):
            return refused("R8", WINDOW_CLOSED)
        return None

    def verify_decision(self, bettor_id: str, action: Action, *, now: dt.datetime, street: str | None = None) -> None:
        """Raise the :class:`~.errors.RuleViolation` that says why this bettor cannot take
        ``action`` at ``now``: no bets, no decision due, folded (R2.3), already decided, an
        action the street does not allow (R2.3-R2.5), the decision window closed (R8), or — when
        the bettor names the ``street`` they decide on — a decision meant for a street whose window
        has closed, which must never land on the next one (R8)."""
        if street is not None and street != self.rules.street:
            raise RuleViolation("R8", f"the decision for the {street} came after its window closed; the house "
                                f"decided it (now deciding: {self.rules.street or 'nothing'})", field="street")
        refusal = self._refusal(bettor_id, action, now)
        if refusal is not None:
            raise refusal

    def can_decide(self, bettor_id: str, action: Action, *, now: dt.datetime) -> bool:
        """Whether :meth:`act` would accept this decision at ``now``."""
        return self._refusal(bettor_id, action, now) is None

    def allowed_actions(self, bettor_id: str, now: dt.datetime | None = None) -> tuple[Action, ...]:
        """The actions this bettor may take now; with ``now``, none once the window has closed (R8)."""
        return tuple(a for a in self.rules.allowed if self._refusal(bettor_id, a, now) is None)

    def act(self, bettor_id: str, action: Action, *, now: dt.datetime,
            automatic: AutoReason | None = None, street: str | None = None) -> Decision:
        """Record one bettor's decision for the current street (once). A bettor's own decision is
        verified at ``now`` (and against the ``street`` it names); an ``automatic`` one (R8) is the
        house's, taken when the window closes."""
        if automatic is None:
            self.verify_decision(bettor_id, action, now=now, street=street)
        elif (refusal := self._refusal(bettor_id, action, None)) is not None:
            raise refusal
        assert self.rules.street is not None  # a street is due, or _refusal would have said so
        decision = Decision(self.rules.street, action, automatic, now)
        self.bettors[bettor_id].decisions[decision.street] = decision
        return decision

    def decide_automatically(self, bettor_id: str, reason: AutoReason, *, now: dt.datetime) -> Decision:
        """R8: no decision or a disconnection → Fold before the flop is dealt, Check after it."""
        automatic = self.rules.automatic
        if automatic is None:
            raise RuleViolation("R8", f"no decision is due while the round is {self.phase.value}", field="action")
        return self.act(bettor_id, automatic, now=now, automatic=reason)

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

    # --- moving on (R2, R8) -------------------------------------------------------------

    @property
    def ready_to_advance(self) -> bool:
        """Every active bettor has decided, or nobody is left to decide (R2)."""
        return self.rules.street is not None and not self._pending()

    def due(self, now: dt.datetime) -> bool:
        """Whether :meth:`advance` would move the round at ``now``."""
        if self.phase is Phase.BETTING:
            return self._window_closed(now) and bool(self.bettors)
        if self.rules.street is not None and not self.awaiting_cards:
            return self.ready_to_advance or self._window_closed(now)
        return False

    def advance(self, now: dt.datetime) -> list[Decision]:
        """Move one step when it is due: close betting and deal the hole cards, or close a decision
        window (R8: automatic fold/check for whoever has not decided) and deal the next street.
        Returns the automatic decisions it took. A betting window with no bets is simply
        reopened: a round nobody bet on is never dealt."""
        if self.phase is Phase.BETTING and not self.bettors and self._window_closed(now):
            self.deadline = now + self.timers.betting
            return []
        if not self.due(now) or self.rules.next is None:
            return []
        automatic = [self.decide_automatically(b.id, AutoReason.TIMEOUT, now=now) for b in self._pending()]
        self.phase = self.rules.next
        if self.live:  # R1: the console deals them; R8: the window starts with the last of them
            self.deadline = None
            return automatic
        self.dealt_count += len(self.rules.deals_on_entry)  # R1: the steps this phase deals, in order
        return automatic + self._start_decision_window(now)

    def _start_decision_window(self, now: dt.datetime) -> list[Decision]:
        """R8: the cards of the street are out: the decision window opens now, and whoever is
        disconnected is decided for at once."""
        self.deadline = now + self.timers.decision if self.rules.street is not None else None
        return self._decide_for_disconnected(now)

    # --- the end: R2.7 settlement, R9 void -------------------------------------------------

    def stakes(self) -> list[Stake]:
        return [bettor.stake() for bettor in self.bettors.values()]

    def settle(self, pool_before: Decimal) -> Settlement:
        """R2.7: showdown. ``pool_before`` is the pool without this round's contributions."""
        if self.phase is not Phase.SHOWDOWN or self.awaiting_cards:
            raise RuleViolation("R2.7", f"the round is {self.phase.value}, not at showdown with the river dealt")
        settlement = settle(self.paytable, self.cards, self.stakes(), pool_before)
        self.phase = Phase.SETTLED
        return settlement

    def void(self, reason: VoidReason, pool_before: Decimal, stage: Stage | None = None,
             dealt: DealtCards | None = None) -> Settlement:
        """R9: void the round. ``stage`` defaults to the step under way; ``dealt`` describes a
        partial deal entered from a live dealer's console (default: what this round dealt)."""
        if self.phase in FINISHED:
            raise RuleViolation("R9", f"the round is already {self.phase.value}")
        self.void_info = Void(reason, stage or self.stage)
        self.phase = Phase.VOID
        self.deadline = None
        return settle_void(self.paytable, dealt or self.cards, self.stakes(), pool_before, self.void_info)
