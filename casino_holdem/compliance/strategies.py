"""Named playing strategies: the R2 decisions of one bettor, vectorised over many rounds.

A strategy answers the three decisions of R2 for arrays of rounds at once, seeing only what a
player at the table sees (the Player's hole cards and the community cards dealt so far; never the
Dealer's cards):

- :meth:`Strategy.preflop` — R2.3: ``True`` makes the Flop bet (2 × Ante), ``False`` folds;
- :meth:`Strategy.flop` — R2.4: ``True`` makes the Turn bet (1 × Ante), ``False`` checks;
- :meth:`Strategy.turn` — R2.5: ``True`` makes the River bet (1 × Ante), ``False`` checks.

Cards are the core's ids ``4 * rank + suit`` (one row per round). The simulator asks
:meth:`~Strategy.flop` and :meth:`~Strategy.turn` about all rounds at once and ignores the
answers where the bettor folded. For the exact
figures (:mod:`.rtp`) a strategy must be *suit-blind* (the same decision for hands that differ
only by suit labels); a strategy with ``postflop_bets = False`` never bets after the flop, so its
main-game return is enumerated exactly; otherwise it is simulated.

Plug-in point: :func:`register` adds a strategy under its ``name``; installed packages can also
declare an entry point in the group ``casino_holdem.strategies`` whose object is a strategy
instance (or a class taking no argument). A strategy whose decisions depend on the paytable
(``optimal``) has a ``bind(paytable)`` method; :func:`bind` gives the strategy to play with.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol, cast, runtime_checkable

import numpy as np

from .simple import Simple
from .vector import (
    BoolArray,
    IntArray,
    has_straight,
    hole_card_paired,
    rank_mask,
    runs,
    suited_at_least,
    with_low_ace,
)

ENTRY_POINT_GROUP = "casino_holdem.strategies"


class UnknownStrategy(KeyError):
    """A strategy name nobody registered; the message lists the known names."""

    def __str__(self) -> str:
        return str(self.args[0])


@runtime_checkable
class Strategy(Protocol):
    """The plug-in interface; see the module documentation for the contract."""

    @property
    def name(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def postflop_bets(self) -> bool: ...

    def preflop(self, hole: IntArray) -> BoolArray:
        """(N, 2) hole cards → True: Flop bet, False: fold (R2.3)."""
        ...

    def flop(self, hole: IntArray, flop: IntArray) -> BoolArray:
        """(N, 2) hole cards, (N, 3) flop → True: Turn bet, False: check (R2.4)."""
        ...

    def turn(self, hole: IntArray, board: IntArray, turn_bet: BoolArray) -> BoolArray:
        """(N, 2) hole cards, (N, 4) board, whether the Turn bet was made → True: River bet (R2.5)."""
        ...


@dataclass(frozen=True)
class AlwaysPlay:
    """``always-play``: never folds (the Flop bet on every hand) and never bets after the flop
    (checks on the flop and on the turn). The simplest full-coverage player: every R3 outcome is
    reached, and the main game is enumerated exactly."""

    name: str = "always-play"
    summary: str = "Flop bet on every hand; check on the flop and on the turn"
    postflop_bets: bool = False

    def preflop(self, hole: IntArray) -> BoolArray:
        return np.ones(len(hole), bool)

    def flop(self, hole: IntArray, flop: IntArray) -> BoolArray:
        return np.zeros(len(hole), bool)

    def turn(self, hole: IntArray, board: IntArray, turn_bet: BoolArray) -> BoolArray:
        return np.zeros(len(hole), bool)


@dataclass(frozen=True)
class Basic:
    """``basic``: the published-style simple strategy.

    - **Pre-flop** (R2.3): fold exactly 2-3, 2-4, 2-5, 2-6 and 2-7 offsuit (60 of the 1326
      combinations); make the Flop bet with everything else.
    - **Flop** (R2.4, the Turn bet): bet with
      (a) a pair or better using a hole card: a pocket pair, a hole card's rank on the flop, or a
      straight or a flush in the five cards; or
      (b) four to a flush (four of the five cards in one suit); or
      (c) an open-ended straight draw: four ranks in sequence that a card at either end completes
      (2-3-4-5 counts, the ace or the 6 completing it; A-2-3-4 and J-Q-K-A do not).
      Check otherwise — in particular with a pair on the flop alone.
    - **Turn** (R2.5, the River bet): bet with a pair or better using a hole card among the six
      cards (a pocket pair, a hole card's rank on the board, or any straight or flush — with
      four board cards a straight or flush always uses a hole card). Check otherwise: draws and
      hands that only play the board do not bet.

    Checked against variants on the same 20 million simulated rounds (net result per Ante):
    basic -0.0387; without the flop draws -0.0422; also betting draws on the turn -0.0615; on the
    turn only pairs at least as high as the board's top card -0.1211.
    """

    name: str = "basic"
    summary: str = ("fold 2-3..2-7 offsuit; Turn bet with a hole-card pair or better, four to a flush "
                    "or an open-ended straight draw; River bet with a hole-card pair or better")
    postflop_bets: bool = True

    def preflop(self, hole: IntArray) -> BoolArray:
        r0, r1 = hole[:, 0] >> 2, hole[:, 1] >> 2
        high, low = np.maximum(r0, r1), np.minimum(r0, r1)
        offsuit = (hole[:, 0] & 3) != (hole[:, 1] & 3)
        return cast(BoolArray, ~(offsuit & (low == 0) & (high >= 1) & (high <= 5)))

    def flop(self, hole: IntArray, flop: IntArray) -> BoolArray:
        cards = np.concatenate([hole, flop], axis=1)
        four_in_sequence = runs(with_low_ace(rank_mask(cards)), 4)
        # bits 1..9: the run starts at a deuce .. a ten, so a rank is free below and above it
        open_ended: BoolArray = (four_in_sequence & np.uint16(0b11_1111_1110)) != 0
        return hole_card_paired(hole, flop) | has_straight(cards) | suited_at_least(cards, 4) | open_ended

    def turn(self, hole: IntArray, board: IntArray, turn_bet: BoolArray) -> BoolArray:
        cards = np.concatenate([hole, board], axis=1)
        return hole_card_paired(hole, board) | has_straight(cards) | suited_at_least(cards, 5)


_registry: dict[str, Strategy] = {}
_entry_points_loaded = False


def register(strategy: Strategy, *, replace: bool = False) -> Strategy:
    """Add ``strategy`` under its name; a second strategy with a taken name is refused."""
    if not isinstance(strategy, Strategy):
        raise TypeError(f"{strategy!r} does not implement the Strategy protocol")
    if strategy.name in _registry and not replace:
        raise ValueError(f"strategy {strategy.name!r} is already registered")
    _registry[strategy.name] = strategy
    return strategy


def _load_entry_points() -> None:
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for point in entry_points(group=ENTRY_POINT_GROUP):
        loaded = point.load()
        register(loaded() if isinstance(loaded, type) else loaded, replace=True)


def _optimal() -> Strategy:
    """The package's ``optimal``, imported on first use: its module builds on this registry. A
    strategy registered under the same name takes its place."""
    from .optimal_strategy import Optimal

    return Optimal()


def get_strategy(name: str) -> Strategy:
    """The registered strategy called ``name``."""
    _load_entry_points()
    if name in _registry:
        return _registry[name]
    if name == OPTIMAL:
        return _optimal()
    raise UnknownStrategy(f"unknown strategy {name!r} (known: {', '.join(strategy_names())})")


def strategy_names() -> tuple[str, ...]:
    _load_entry_points()
    return (*_registry, *(() if OPTIMAL in _registry else (OPTIMAL,)))


def bind(strategy: Strategy, paytable: Any, **options: Any) -> Strategy:
    """The strategy to play on ``paytable``: bound to it when its decisions depend on it
    (``optimal``; ``options`` such as ``progress`` go to its ``bind``), else itself."""
    binder = getattr(strategy, "bind", None)
    return binder(paytable, **options) if binder is not None else strategy


def built_in() -> Iterator[Strategy]:
    """The strategies this package ships, in the order reports list them."""
    yield from (get_strategy(name) for name in SHIPPED)


BUILT_IN = ("always-play", "basic")
OPTIMAL = "optimal"
#: every strategy this package ships; ``simple`` and ``optimal`` come from the exact enumeration
SHIPPED = (*BUILT_IN, "simple", OPTIMAL)
register(AlwaysPlay())
register(Basic())
register(Simple())
