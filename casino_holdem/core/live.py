"""Live dealing (R1, R9): the round takes its cards one by one from a dealer's console or a card
scanner instead of from a shuffled deck.

A round's *dealing source* is either the RNG (the whole shuffled deck is known when the round
opens; :attr:`~.round.Round.dealt_count` moves a street at a time) or live (``Round.live``: the
round's ``deck`` holds only the cards entered so far, in R1 order, and the round waits for each
card the phase needs). R8's decision windows start when the last card of their street is dealt.

Card entry follows the verify/can/do shape of the round::

    round.verify_card("As")          # InvalidCard / RuleViolation saying why not (R1, R2.7, R9)
    round.can_deal_card("10d")       # True / False
    round.deal_card("Td", now=now)   # the R1 step the card went to

>>> read_code(" 10♦\\n"), read_code("AS")
(Card('Td'), Card('As'))
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from .cards import Card
from .errors import InvalidCard, RuleViolation
from .phases import DEALING_ORDER, FINISHED, PHASES, DealStep, Phase, PhaseRules, Receiver, dealt_before

#: R1: a table's dealing source: the server's shuffled deck, or cards entered from a dealer's console
DEALING_MODES = ("rng", "live")
#: what card scanners and touch consoles may type for a suit, besides c d h s
_SUIT_SYMBOLS = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"})


def read_code(code: Card | str) -> Card:
    """A card from what a dealer types or a scanner sends: ``As``, ``Td``, ``10d``, ``AS``, ``10♦``
    (surrounding white space and the scanner's Enter are ignored). Raises :class:`InvalidCard`
    with ``field="card"`` for anything else (R1: a standard 52-card deck)."""
    if isinstance(code, Card):
        return code
    if not isinstance(code, str) or not code.strip():
        raise InvalidCard("a card code such as 'As', 'Td' or '10d' is required", field="card")
    try:
        return Card.parse(code.strip().translate(_SUIT_SYMBOLS))
    except InvalidCard as error:
        raise InvalidCard(error.problem, field="card") from None


def cards_needed(phase: Phase) -> int:
    """R1: how many cards of the dealing order a round in ``phase`` must have dealt (the steps
    before the phase and the ones it deals on entry)."""
    if phase in FINISHED:
        return len(DEALING_ORDER)
    return len(dealt_before(phase)) + len(PHASES[phase].deals_on_entry)


class LiveDealing:
    """The card-entry operations of :class:`~.round.Round` (a mixin over the round's own fields)."""

    deck: tuple[Card, ...]
    dealt_count: int
    phase: Phase
    deadline: dt.datetime | None
    live: bool

    @property
    def rules(self) -> PhaseRules:
        raise NotImplementedError

    def _start_decision_window(self, now: dt.datetime) -> list[Any]:
        raise NotImplementedError

    @property
    def awaiting_cards(self) -> bool:
        """A live round whose phase still needs cards from the console (R1): no decision is due
        and no window runs until they are all dealt (R8)."""
        return self.live and self.phase not in FINISHED and self.dealt_count < cards_needed(self.phase)

    @property
    def next_step(self) -> DealStep | None:
        """The R1 step the next entered card goes to, or None when no card is due."""
        return DEALING_ORDER[self.dealt_count] if self.awaiting_cards else None

    def dealt_step(self, card: Card) -> DealStep | None:
        """The R1 step a card of this round was dealt to, or None when it was not dealt."""
        for step in DEALING_ORDER[:self.dealt_count]:
            if self.deck[step.position] == card:
                return step
        return None

    def verify_card(self, code: Card | str, position: int | None = None) -> Card:
        """Raise the error that says why ``code`` cannot be dealt now, or return the card: the
        round is over (R2.7, R9), it is dealt by the RNG, no card is due (betting, or the players
        are deciding: out of turn, R1), ``position`` is not the next step of R1's order, the code
        is not a card, or the card was already dealt in this round (R1: one deck)."""
        if self.phase in FINISHED:
            rule = "R9" if self.phase is Phase.VOID else "R2.7"
            raise RuleViolation(rule, f"the round is already {self.phase.value}", field="card")
        if not self.live:
            raise RuleViolation("R1", "this round is dealt from its shuffled deck, not from a console", field="card")
        step = self.next_step
        if step is None:
            waiting = ("betting is open" if self.phase is Phase.BETTING
                       else f"the players are deciding on the {self.rules.street}")
            raise RuleViolation("R1", f"out of turn: no card is due, {waiting}", field="card")
        if position is not None and position != step.position:
            raise RuleViolation("R1", f"out of turn: the next card goes to {step.label} (position {step.position}), "
                                      f"not position {position}", field="position")
        card = read_code(code)
        earlier = self.dealt_step(card)
        if earlier is not None:
            raise InvalidCard(f"duplicate card {card}: already dealt as {earlier.label}", field="card")
        return card

    def can_deal_card(self, code: Card | str, position: int | None = None) -> bool:
        """Whether :meth:`deal_card` would accept this card now."""
        try:
            self.verify_card(code, position)
        except (InvalidCard, RuleViolation):
            return False
        return True

    def deal_card(self, code: Card | str, *, now: dt.datetime, position: int | None = None) -> DealStep:
        """R1: deal the entered card to the next step of the dealing order. When it completes the
        phase's cards, the phase's decision window starts now (R8)."""
        card = self.verify_card(code, position)
        step = DEALING_ORDER[self.dealt_count]
        self.deck = (*self.deck, card)
        self.dealt_count += 1
        if not self.awaiting_cards:
            self._start_decision_window(now)
        return step

    def last_dealt(self) -> DealStep | None:
        """The step of the card dealt last (None before the first card)."""
        return DEALING_ORDER[self.dealt_count - 1] if self.dealt_count else None

    def burn_in_hand(self) -> bool:
        """Whether a burn card is being dealt: the next step or the card just dealt is a burn (R9)."""
        steps = [s for s in (self.next_step, self.last_dealt()) if s is not None]
        return any(step.receiver is Receiver.BURN for step in steps)
