"""``simple``: the optimal strategy summarised as rules a person can follow at the table.

The rules were read off the exact optimal decisions of the standard paytable (Ante on a straight
or better): each line covers a group of situations where the optimal player bets (nearly)
always, and the exceptions are those where it (nearly) never does. What each street's rules give
up against exact play is computed exactly by ``casino-holdem strategy optimal`` (the strategy is
scored in the same enumeration as ``optimal``), so the chart can print it beside the rules.

Ranks as in :mod:`casino_holdem.core.cards` (0 is the deuce, 12 the ace).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from ..core.cards import ACE, JACK, TEN
from .vector import BoolArray, IntArray, has_straight, hole_card_paired, rank_mask, runs, suited_at_least, with_low_ace

NINE = TEN - 1
RULES: dict[str, tuple[str, ...]] = {
    "pre-flop": ("Fold 2-3, 2-4, 2-5, 2-6 and 2-7 offsuit; make the Flop bet with everything else.",),
    "flop": (
        "Bet with a pair or better that uses a hole card, except a pocket pair below all three cards of an "
        "unpaired flop.",
        "Bet with four to a flush when a hole card is a 9 or higher.",
        "Bet with an open-ended straight draw when a hole card is a jack or higher.",
        "Bet with an ace in the hand when the other hole card is a 10 or higher, or is above every flop card, "
        "or the flop is paired.",
        "Check otherwise.",
    ),
    "turn": (
        "Bet with a pair or better that uses a hole card, except a pocket pair below all four board cards.",
        "Bet with an ace in the hand (and no pair of your own) when the board is paired or you hold four to "
        "a flush.",
        "Check otherwise.",
    ),
}


def _ranks(cards: IntArray) -> npt.NDArray[np.int64]:
    return (np.asarray(cards) >> 2).astype(np.int64)


def _paired_board(board: IntArray) -> BoolArray:
    ranks = np.sort(_ranks(board), axis=1)
    return cast(BoolArray, (np.diff(ranks, axis=1) == 0).any(axis=1))


def _pair_or_better(hole: IntArray, board: IntArray) -> BoolArray:
    """A pair or better using a hole card; below five board cards a straight or a flush in the
    player's cards always uses one."""
    cards = np.concatenate([hole, board], axis=1)
    return hole_card_paired(hole, board) | has_straight(cards) | suited_at_least(cards, 5)


def _pocket_pair_below_board(hole: IntArray, board: IntArray) -> BoolArray:
    ranks = _ranks(hole)
    return cast(BoolArray, (ranks[:, 0] == ranks[:, 1]) & (ranks[:, 0] < _ranks(board).min(axis=1)))


def _four_to_a_flush(hole: IntArray, board: IntArray) -> BoolArray:
    """Four of one suit among the player's cards, at least one of them a hole card."""
    return suited_at_least(np.concatenate([hole, board], axis=1), 4) & ~suited_at_least(board, 4)


@dataclass(frozen=True)
class Simple:
    """``simple``: the rules of :data:`RULES` (see the module documentation)."""

    name: str = "simple"
    summary: str = ("fold 2-3..2-7 offsuit; Turn bet with a hole-card pair (not an underpair), big flush and "
                    "straight draws or a strong ace; River bet with a hole-card pair (not an underpair) or an "
                    "ace on a paired board or with four to a flush")
    postflop_bets: bool = True

    def preflop(self, hole: IntArray) -> BoolArray:
        ranks = _ranks(hole)
        high, low = ranks.max(axis=1), ranks.min(axis=1)
        offsuit = (np.asarray(hole)[:, 0] & 3) != (np.asarray(hole)[:, 1] & 3)
        return cast(BoolArray, ~(offsuit & (low == 0) & (high >= 1) & (high <= 5)))

    def flop(self, hole: IntArray, flop: IntArray) -> BoolArray:
        ranks, top = _ranks(hole), _ranks(flop).max(axis=1)
        high, low = ranks.max(axis=1), ranks.min(axis=1)
        paired_flop = _paired_board(flop)
        cards = np.concatenate([hole, flop], axis=1)
        # bits 1..9: a run of four starting at a deuce .. a ten, so a rank is free at both ends
        open_ended = (runs(with_low_ace(rank_mask(cards)), 4) & np.uint16(0b11_1111_1110)) != 0
        underpair = _pocket_pair_below_board(hole, flop) & ~paired_flop
        strong_ace = (high == ACE) & ((low >= TEN) | (low > top) | paired_flop)
        return cast(BoolArray, (_pair_or_better(hole, flop) & ~underpair)
                    | (_four_to_a_flush(hole, flop) & (high >= NINE))
                    | (open_ended & (high >= JACK))
                    | strong_ace)

    def turn(self, hole: IntArray, board: IntArray, turn_bet: BoolArray) -> BoolArray:
        made = _pair_or_better(hole, board)
        ace_high: BoolArray = (_ranks(hole).max(axis=1) == ACE) & ~made
        return ((made & ~_pocket_pair_below_board(hole, board))
                | (ace_high & (_paired_board(board) | _four_to_a_flush(hole, board))))
