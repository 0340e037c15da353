"""Vectorised card arithmetic shared by the strategies and the enumeration.

Cards are the core's ids ``4 * rank + suit`` (R1: rank 0 is the deuce, 12 the ace; suits c d h s
are 0..3) held in numpy arrays, one row per hand. Nothing here knows about money or pay lines:
the vectorised rules are :mod:`.batch_rules`.

>>> combinations(5, 2).tolist()[:3]
[[0, 1], [0, 2], [0, 3]]
>>> [class_label(int(c)) for c in hole_classes(np.array([[48, 44], [49, 44], [0, 1]]))]
['AKs', 'AKo', '22']
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import cast

import numpy as np
import numpy.typing as npt

from ..core.cards import ACE, RANKS

IntArray = npt.NDArray[np.integer]
BoolArray = npt.NDArray[np.bool_]

HOLE_CLASSES = 169


@lru_cache(maxsize=16)
def combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of ``range(n)`` in lexicographic order, one per row (read-only, cached)."""
    rows = np.zeros((1, 0), np.uint8)
    last = np.full(1, -1, np.int64)
    for position in range(k):
        # each row grows by every value above its last one that still leaves room for the rest
        counts = np.maximum(n - (k - position) - last, 0)
        parent = np.repeat(np.arange(len(rows)), counts)
        offset = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        last = last[parent] + 1 + offset
        rows = np.column_stack([rows[parent], last.astype(np.uint8)])
    assert len(rows) == comb(n, k)
    rows.setflags(write=False)
    return rows


def hole_classes(hole: IntArray) -> npt.NDArray[np.int16]:
    """The 169 pre-flop classes of two hole cards: a pair ``r*13+r``, suited ``hi*13+lo``,
    offsuit ``lo*13+hi`` (suit-free, so every strategy decision and every R4/R5 probability that
    ignores suit labels is the same within a class)."""
    r0, r1 = hole[..., 0] >> 2, hole[..., 1] >> 2
    high, low = np.maximum(r0, r1).astype(np.int16), np.minimum(r0, r1).astype(np.int16)
    suited = (hole[..., 0] & 3) == (hole[..., 1] & 3)
    return cast(npt.NDArray[np.int16], np.where(suited, high * 13 + low, low * 13 + high).astype(np.int16))


def class_label(index: int) -> str:
    """``AA``, ``AKs``, ``AKo`` for a :func:`hole_classes` index."""
    row, column = divmod(index, 13)
    if row == column:
        return RANKS[row] * 2
    if row > column:
        return f"{RANKS[row]}{RANKS[column]}s"
    return f"{RANKS[column]}{RANKS[row]}o"


def rank_mask(cards: IntArray) -> npt.NDArray[np.uint16]:
    """Bit r set when some card of the row has rank r."""
    mask = np.zeros(len(cards), np.uint16)
    for column in cards.T:
        mask |= np.left_shift(np.uint16(1), (column >> 2).astype(np.uint16))
    return mask


def with_low_ace(mask: npt.NDArray[np.uint16]) -> npt.NDArray[np.uint16]:
    """R7 straights: a 14-bit mask where bit 0 is the ace played low and bit r+1 is rank r."""
    return ((mask << 1) | ((mask >> ACE) & 1)).astype(np.uint16)


def runs(mask14: npt.NDArray[np.uint16], length: int) -> npt.NDArray[np.uint16]:
    """Bit p set when bits p..p+length-1 of the 14-bit mask are all set (a run of ranks)."""
    result = mask14.copy()
    for shift in range(1, length):
        result &= mask14 >> shift
    return result


def has_straight(cards: IntArray) -> BoolArray:
    """R7: five ranks in sequence among the row's cards, the ace high or low, no wrap-around."""
    return cast(BoolArray, runs(with_low_ace(rank_mask(cards)), 5) != 0)


def suited_at_least(cards: IntArray, count: int) -> BoolArray:
    """Some suit holds at least ``count`` (1..7) of the row's cards (at most 7 cards a row).

    Each card adds 1 to its suit's 4-bit counter; adding ``8 - count`` to every counter sets the
    counter's top bit exactly when it holds ``count`` or more (no counter exceeds 7 + 7 = 14)."""
    counters = np.zeros(len(cards), np.uint16)
    for column in cards.T:
        counters += np.left_shift(np.uint16(1), ((column & 3) << 2).astype(np.uint16))
    return cast(BoolArray, ((counters + np.uint16((8 - count) * 0x1111)) & np.uint16(0x8888)) != 0)


def hole_card_paired(hole: IntArray, board: IntArray) -> BoolArray:
    """A pair (or better) that uses a hole card: a pocket pair, or a hole card's rank on the board."""
    first, second = hole[:, 0] >> 2, hole[:, 1] >> 2
    paired: BoolArray = first == second
    for column in board.T:
        rank = column >> 2
        paired |= (rank == first) | (rank == second)
    return paired
