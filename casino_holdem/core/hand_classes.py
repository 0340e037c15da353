"""R7's equivalence classes: the ten hand categories, the 7462 strengths, and the lookup tables that
take a hand's cards to its strength (the tables :mod:`.evaluator` reads; building them is this
module's job, reading them is the evaluator's).

Every five-card hand falls in one of 7462 equivalence classes, numbered from 1 (7-5-4-3-2
offsuit) to 7462 (the royal flush); two hands tie exactly when their classes are equal (R7).

How the tables work (built in memory on first use, about a second, then cached):

* Each card has a rank key (``RANK_KEYS[n]`` for an ``n``-card hand) chosen so that the sum of the
  rank keys of any ``n`` cards with at most four of a rank is different for every rank multiset.
  That sum indexes a ``uint16`` table giving the best hand the ranks alone make (no flush).
* Each card also has a suit key (c, d, h, s = 0, 1, 8, 57): the sum tells whether five or more
  cards share a suit and which suit. Rank and suit keys are packed in one ``uint32`` per card as
  ``rank_key << 9 | suit_key``, so one sum per hand carries both.
* With a flush, the 13-bit rank mask of the flush suit indexes an 8192-entry table (flush or
  straight flush). In seven cards a flush rules out quads and full houses, so that is the answer.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

import numpy as np


class Category(IntEnum):
    """The ten R7 hand categories, weakest first; the royal flush is the top straight flush."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def slug(self) -> str:
        """The lower-case name used in paytables and JSON, e.g. ``"four_of_a_kind"``."""
        return self.name.lower()


# Number of R7 equivalence classes per category, weakest first (HIGH_CARD .. ROYAL_FLUSH).
CLASS_COUNTS: tuple[int, ...] = (1277, 2860, 858, 858, 10, 1277, 156, 156, 9, 1)
STRENGTH_CLASSES = sum(CLASS_COUNTS)  # 7462

# Rank keys (deuce .. ace) per hand size: found by a greedy search so that the sums over every
# multiset of exactly n ranks with at most four of each are all distinct (checked on build).
RANK_KEYS: dict[int, tuple[int, ...]] = {
    5: (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415),
    6: (0, 1, 5, 22, 98, 422, 1734, 5760, 14270, 37951, 90838, 206930, 436437),
    7: (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181),
}
# Suit keys c, d, h, s: every split of up to 7 cards over the 4 suits has its own sum (< 512).
SUIT_KEYS: tuple[int, ...] = (0, 1, 8, 57)
SUIT_BITS = 9
HAND_SIZES = (5, 6, 7)

_WHEEL = (3, 2, 1, 0, 12)  # 5 4 3 2 A: the lowest straight, top card 5 (R7.2, R7.6)

ClassKey = tuple[int, tuple[int, ...]]  # (category, ranks in significance order)


# ---------------------------------------------------------------------------------------------
# Classifying ranks (table building; plain Python, run once)


def _straight_ranks(present: set[int]) -> tuple[int, ...] | None:
    """The highest straight among the ranks, high to low; the wheel as 5 4 3 2 A; no wrap."""
    for top in range(12, 3, -1):
        if all(rank in present for rank in range(top - 4, top + 1)):
            return tuple(range(top, top - 5, -1))
    if all(rank in present for rank in _WHEEL):
        return _WHEEL
    return None


def _best_without_flush(counts: Sequence[int]) -> ClassKey:
    """R7 best five-card class that these rank counts make, suits ignored."""
    desc = [rank for rank in range(12, -1, -1) if counts[rank]]
    quads = [rank for rank in desc if counts[rank] >= 4]
    if quads:
        quad = quads[0]
        kicker = next(rank for rank in desc if rank != quad)
        return Category.FOUR_OF_A_KIND, (quad,) * 4 + (kicker,)
    trips = [rank for rank in desc if counts[rank] == 3]
    pairs = [rank for rank in desc if counts[rank] == 2]
    if trips and (len(trips) > 1 or pairs):
        pair = max(trips[1:] + pairs)
        return Category.FULL_HOUSE, (trips[0],) * 3 + (pair,) * 2
    straight = _straight_ranks(set(desc))
    if straight:
        return Category.STRAIGHT, straight
    if trips:
        kickers = tuple(rank for rank in desc if rank != trips[0])[:2]
        return Category.THREE_OF_A_KIND, (trips[0],) * 3 + kickers
    if len(pairs) >= 2:
        high, low = pairs[:2]
        kicker = next(rank for rank in desc if rank not in (high, low))
        return Category.TWO_PAIR, (high, high, low, low, kicker)
    if pairs:
        kickers = tuple(rank for rank in desc if rank != pairs[0])[:3]
        return Category.ONE_PAIR, (pairs[0],) * 2 + kickers
    return Category.HIGH_CARD, tuple(desc[:5])


def _best_flush(mask: int) -> ClassKey:
    """R7 best class of five or more suited cards with these ranks (bit r = rank r)."""
    present = {rank for rank in range(13) if mask >> rank & 1}
    straight = _straight_ranks(present)
    if straight == (12, 11, 10, 9, 8):
        return Category.ROYAL_FLUSH, straight
    if straight:
        return Category.STRAIGHT_FLUSH, straight
    return Category.FLUSH, tuple(sorted(present, reverse=True)[:5])


def _rank_multisets(size: int) -> list[list[int]]:
    """Rank counts of every multiset of ``size`` cards with at most four of a rank."""
    result = []
    for combo in itertools.combinations_with_replacement(range(13), size):
        counts = [0] * 13
        for rank in combo:
            counts[rank] += 1
        if max(counts) <= 4:
            result.append(counts)
    return result


@dataclass(frozen=True, slots=True)
class SizeTables:
    """Lookup tables for hands of one size (5, 6 or 7 cards), read by :mod:`.evaluator`."""

    card_keys: np.ndarray  # uint32[52]: rank_key << 9 | suit_key
    rank_table: np.ndarray  # uint16[max rank-key sum + 1]: strength without a flush
    flush_suit: np.ndarray  # int8[512]: suit with >= 5 cards for a suit-key sum, else -1
    card_keys_list: tuple[int, ...]  # the same, as Python ints for the scalar path
    rank_view: memoryview
    flush_suit_view: memoryview


@dataclass(frozen=True, slots=True)
class Tables:
    """Every table of the evaluator: the classes in strength order, the flush table, and one
    :class:`SizeTables` per hand size."""

    strength_of_class: dict[ClassKey, int]
    class_of_strength: tuple[ClassKey, ...]  # index = strength (0 unused)
    flush_table: np.ndarray  # uint16[8192]: strength of the best flush / straight flush
    flush_view: memoryview
    suited_bits: np.ndarray  # uint16[4 * 52]: 1 << rank if the card has that suit, else 0
    category_table: np.ndarray  # int8[7463]: category of each strength (index 0: -1)
    sizes: dict[int, SizeTables]


def _build_tables() -> Tables:
    rank_classes = {_best_without_flush(counts) for counts in _rank_multisets(5)}
    flush_classes = {
        _best_flush(sum(1 << rank for rank in ranks))
        for ranks in itertools.combinations(range(13), 5)
    }
    ordered = sorted(rank_classes | flush_classes)
    if len(ordered) != STRENGTH_CLASSES:
        raise RuntimeError(f"R7 table: {len(ordered)} classes, expected {STRENGTH_CLASSES}")
    strength_of_class = {key: index + 1 for index, key in enumerate(ordered)}

    flush_table = np.zeros(1 << 13, dtype=np.uint16)
    for mask in range(1 << 13):
        if mask.bit_count() >= 5:
            flush_table[mask] = strength_of_class[_best_flush(mask)]

    category_table = np.full(STRENGTH_CLASSES + 1, -1, dtype=np.int8)
    category_table[1:] = [category for category, _ in ordered]

    card_ids = np.arange(52)
    suited_bits = np.zeros((4, 52), dtype=np.uint16)
    suited_bits[card_ids & 3, card_ids] = 1 << (card_ids >> 2)

    sizes = {}
    for size in HAND_SIZES:
        keys = RANK_KEYS[size]
        multisets = _rank_multisets(size)
        sums = np.array([sum(c * k for c, k in zip(counts, keys, strict=True)) for counts in multisets])
        if len(np.unique(sums)) != len(sums):
            raise RuntimeError(f"R7 table: rank keys for {size} cards are not unique")
        rank_table = np.zeros(int(sums.max()) + 1, dtype=np.uint16)
        rank_table[sums] = [strength_of_class[_best_without_flush(c)] for c in multisets]

        flush_suit = np.full(1 << SUIT_BITS, -1, dtype=np.int8)
        seen: dict[int, int] = {}
        for split in itertools.product(range(size + 1), repeat=4):
            if sum(split) != size:
                continue
            suit_sum = sum(n * key for n, key in zip(split, SUIT_KEYS, strict=True))
            flushed = max(range(4), key=lambda s: split[s]) if max(split) >= 5 else -1
            if seen.setdefault(suit_sum, flushed) != flushed:
                raise RuntimeError("R7 table: suit keys do not identify the flush suit")
            flush_suit[suit_sum] = flushed

        card_keys = (np.array(keys, dtype=np.uint32)[card_ids >> 2] << SUIT_BITS) | np.array(
            SUIT_KEYS, dtype=np.uint32
        )[card_ids & 3]
        sizes[size] = SizeTables(
            card_keys=card_keys,
            rank_table=rank_table,
            flush_suit=flush_suit,
            card_keys_list=tuple(int(key) for key in card_keys),
            rank_view=rank_table.data,
            flush_suit_view=flush_suit.data,
        )

    return Tables(
        strength_of_class=strength_of_class,
        class_of_strength=((-1, ()), *ordered),
        flush_table=flush_table,
        flush_view=flush_table.data,
        suited_bits=suited_bits.reshape(-1),
        category_table=category_table,
        sizes=sizes,
    )


_tables_cache: list[Tables] = []
_tables_lock = threading.Lock()


def lookup_tables() -> Tables:
    """The lookup tables, built on first use (about a second) and then shared."""
    if not _tables_cache:
        with _tables_lock:
            if not _tables_cache:
                _tables_cache.append(_build_tables())
    return _tables_cache[0]

