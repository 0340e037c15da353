"""The rules of the round as data: R1's dealing order and one :class:`PhaseRules` record per phase
of R2 (what it deals on entry, the decision it asks for, the actions it allows, the automatic
action of R8, the bet a decision adds to). :mod:`.round` moves through this table; it holds no
per-phase facts of its own.

>>> [str(step) for step in PHASES[Phase.FLOP].deals_on_entry]
['burn', 'flop 1st', 'flop 2nd', 'flop 3rd']
>>> rules = PHASES[Phase.PRE_FLOP]
>>> rules.rule, [a.value for a in rules.allowed], rules.automatic, rules.bet
('R2.3', ['fold', 'flop'], <Action.FOLD: 'fold'>, StreetBet(action=<Action.FLOP: 'flop'>, name='flop', antes=2))
>>> PLAYER_POSITIONS, DEALER_POSITIONS, BOARD_POSITIONS
((0, 2), (1, 3), (5, 6, 7, 9, 11))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from .errors import CoreError
from .rules import Stage


class Phase(StrEnum):
    BETTING = "betting"          # R2.1: Ante, Bonus, Progressive accepted until the deadline
    PRE_FLOP = "pre_flop"        # R2.2-R2.3: hole cards dealt; fold or Flop bet (2 × Ante)
    FLOP = "flop"                # R2.4: flop dealt; Turn bet (1 × Ante) or check
    TURN = "turn"                # R2.5: turn dealt; River bet (1 × Ante) or check
    SHOWDOWN = "showdown"        # R2.6-R2.7: river dealt, waiting for settlement against the pool
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


# --- R1: the dealing order --------------------------------------------------------------------

class Receiver(StrEnum):
    """Where a dealt card goes (R1)."""

    PLAYER = "player"
    DEALER = "dealer"
    BURN = "burn"
    BOARD = "board"


@dataclass(frozen=True, slots=True)
class DealStep:
    """One card of R1's fixed dealing order. ``position`` is its place in that order, which is
    also its place in a shuffled deck the RNG dealer deals from the top; a live dealer's console
    would enter the card of each step in the same order."""

    position: int
    receiver: Receiver
    label: str

    def __str__(self) -> str:
        return self.label


_R1 = (
    (Receiver.PLAYER, "Player 1st"), (Receiver.DEALER, "Dealer 1st"),
    (Receiver.PLAYER, "Player 2nd"), (Receiver.DEALER, "Dealer 2nd"),
    (Receiver.BURN, "burn"), (Receiver.BOARD, "flop 1st"), (Receiver.BOARD, "flop 2nd"), (Receiver.BOARD, "flop 3rd"),
    (Receiver.BURN, "burn"), (Receiver.BOARD, "turn"),
    (Receiver.BURN, "burn"), (Receiver.BOARD, "river"),
)
#: R1: Player 1st card, Dealer 1st card, Player 2nd card, Dealer 2nd card, burn, 3 flop cards,
#: burn, turn card, burn, river card
DEALING_ORDER: tuple[DealStep, ...] = tuple(DealStep(position, receiver, label)
                                            for position, (receiver, label) in enumerate(_R1))


def positions(receiver: Receiver) -> tuple[int, ...]:
    """R1: the places in the dealing order (and in a shuffled deck) of ``receiver``'s cards."""
    return tuple(step.position for step in DEALING_ORDER if step.receiver is receiver)


PLAYER_POSITIONS = positions(Receiver.PLAYER)
DEALER_POSITIONS = positions(Receiver.DEALER)
BOARD_POSITIONS = positions(Receiver.BOARD)


# --- R2, R8: the phases -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class StreetBet:
    """R2.3-R2.5: the bet a decision makes — its action, its name on a stake, its size in Antes."""

    action: Action
    name: str
    antes: int


@dataclass(frozen=True, slots=True)
class PhaseRules:
    """Everything the round needs to know about one phase.

    ``deals_on_entry`` are the R1 steps dealt when the round enters the phase; ``next`` is where
    the round moves when the phase is over (None: only settlement or a void ends it); ``street``
    names the decision the phase asks every active bettor for (None: no decision), ``allowed``
    the actions it allows, ``automatic`` the R8 action taken for a bettor who does not decide or
    is disconnected, and ``bet`` the street bet the deciding action adds. ``stage`` is the R9
    step under way during the phase (a void's stage)."""

    phase: Phase
    rule: str
    stage: Stage
    deals_on_entry: tuple[DealStep, ...] = ()
    next: Phase | None = None
    street: str | None = None
    allowed: tuple[Action, ...] = ()
    automatic: Action | None = None
    bet: StreetBet | None = None


PHASES: Mapping[Phase, PhaseRules] = MappingProxyType({rules.phase: rules for rules in (
    PhaseRules(Phase.BETTING, "R2.1", Stage.BETTING, next=Phase.PRE_FLOP),
    # R8: no decision or a disconnection before the flop is dealt → Fold
    PhaseRules(Phase.PRE_FLOP, "R2.3", Stage.HOLE_CARDS, DEALING_ORDER[0:4], Phase.FLOP, "preflop",
               (Action.FOLD, Action.FLOP), Action.FOLD, StreetBet(Action.FLOP, "flop", 2)),
    # R8: after the flop is dealt → Check
    PhaseRules(Phase.FLOP, "R2.4", Stage.FLOP, DEALING_ORDER[4:8], Phase.TURN, "flop",
               (Action.BET, Action.CHECK), Action.CHECK, StreetBet(Action.BET, "turn", 1)),
    PhaseRules(Phase.TURN, "R2.5", Stage.TURN, DEALING_ORDER[8:10], Phase.SHOWDOWN, "turn",
               (Action.BET, Action.CHECK), Action.CHECK, StreetBet(Action.BET, "river", 1)),
    PhaseRules(Phase.SHOWDOWN, "R2.6", Stage.RIVER, DEALING_ORDER[10:12]),
    PhaseRules(Phase.SETTLED, "R2.7", Stage.RIVER),
    PhaseRules(Phase.VOID, "R9", Stage.RIVER),
)})

def _play_order() -> tuple[PhaseRules, ...]:
    order, phase = [], Phase.BETTING
    while True:
        order.append(PHASES[phase])
        following = PHASES[phase].next
        if following is None:
            return tuple(order)
        phase = following


#: R2: the phases a round goes through when it is played to the end, betting to showdown
PLAY_ORDER: tuple[PhaseRules, ...] = _play_order()

#: R2.3-R2.5: the phases that ask each active bettor for a decision, by the street they ask about
DECISION_PHASES: Mapping[str, PhaseRules] = MappingProxyType(
    {rules.street: rules for rules in PLAY_ORDER if rules.street is not None})

#: R2.3-R2.5: the Flop bet is 2 × Ante; the Turn and River bets are 1 × Ante each
ANTE_MULTIPLE: Mapping[Action, int] = MappingProxyType(
    {rules.bet.action: rules.bet.antes for rules in DECISION_PHASES.values() if rules.bet is not None})


def dealt_before(phase: Phase) -> tuple[DealStep, ...]:
    """R1: the steps dealt before the round enters ``phase`` (those of the phases before it)."""
    steps: tuple[DealStep, ...] = ()
    for rules in PLAY_ORDER:
        if rules.phase is phase:
            return steps
        steps += rules.deals_on_entry
    raise CoreError(f"{phase.value} is not a phase of play", field="phase", rule="R2")
