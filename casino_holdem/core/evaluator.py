"""Hand strength under R7: scalar evaluation with the best five cards, and a numpy batch path.

R7 ranks a hand by its best five cards; the 6th and 7th cards never count, not even to break a
tie. Every five-card hand falls in one of 7462 equivalence classes, and :func:`evaluate` reports
that class as ``strength``: 1 is 7-5-4-3-2 offsuit, 7462 the royal flush, higher is stronger and two
hands tie exactly when their strengths are equal.

>>> from casino_holdem.core.cards import parse_cards
>>> value = evaluate(parse_cards(["Js", "Jd", "Ah", "9c", "3d", "2c", "8h"]))
>>> value.category.slug, [str(card) for card in value.best_five]
('one_pair', ['Js', 'Jd', 'Ah', '9c', '8h'])
>>> evaluate(parse_cards(["5h", "4h", "3h", "2h", "Ah"])).category
<Category.STRAIGHT_FLUSH: 8>
>>> strength_of(parse_cards(["As", "Ks", "Qs", "Js", "Ts"]))
7462

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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from .cards import Card
from .errors import CoreError, InvalidCard

__all__ = [
    "Category",
    "HandValue",
    "categories_batch",
    "category_of",
    "evaluate",
    "evaluate_batch",
    "strength_of",
]


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


@dataclass(frozen=True, slots=True)
class HandValue:
    """The R7 value of a hand: its category, its best five cards and its strength (1..7462).

    ``best_five`` is written as the rule book writes hands: groups by (count desc, rank desc), e.g.
    J J A 9 3 or 9 9 9 4 4; straights high to low with the wheel as 5 4 3 2 A; flushes and high
    cards rank descending. Cards of one rank go higher suit first (s > h > d > c).
    """

    category: Category
    best_five: tuple[Card, ...]
    strength: int


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
_CHUNK_ROWS = 1 << 17  # rows per batch chunk: the working arrays stay in L2 cache
_WORKERS = 2
_PARALLEL_MIN_ROWS = 2 * _CHUNK_ROWS

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
class _SizeTables:
    """Lookup tables for hands of one size (5, 6 or 7 cards)."""

    card_keys: np.ndarray  # uint32[52]: rank_key << 9 | suit_key
    rank_table: np.ndarray  # uint16[max rank-key sum + 1]: strength without a flush
    flush_suit: np.ndarray  # int8[512]: suit with >= 5 cards for a suit-key sum, else -1
    card_keys_list: tuple[int, ...]  # the same, as Python ints for the scalar path
    rank_view: memoryview
    flush_suit_view: memoryview


@dataclass(frozen=True, slots=True)
class _Tables:
    strength_of_class: dict[ClassKey, int]
    class_of_strength: tuple[ClassKey, ...]  # index = strength (0 unused)
    flush_table: np.ndarray  # uint16[8192]: strength of the best flush / straight flush
    flush_view: memoryview
    suited_bits: np.ndarray  # uint16[4 * 52]: 1 << rank if the card has that suit, else 0
    category_table: np.ndarray  # int8[7463]: category of each strength (index 0: -1)
    sizes: dict[int, _SizeTables]


def _build_tables() -> _Tables:
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
        sizes[size] = _SizeTables(
            card_keys=card_keys,
            rank_table=rank_table,
            flush_suit=flush_suit,
            card_keys_list=tuple(int(key) for key in card_keys),
            rank_view=rank_table.data,
            flush_suit_view=flush_suit.data,
        )

    return _Tables(
        strength_of_class=strength_of_class,
        class_of_strength=((-1, ()), *ordered),
        flush_table=flush_table,
        flush_view=flush_table.data,
        suited_bits=suited_bits.reshape(-1),
        category_table=category_table,
        sizes=sizes,
    )


_tables_cache: list[_Tables] = []
_tables_lock = threading.Lock()


def _tables() -> _Tables:
    """The lookup tables, built on first use (about a second) and then shared."""
    if not _tables_cache:
        with _tables_lock:
            if not _tables_cache:
                _tables_cache.append(_build_tables())
    return _tables_cache[0]


# ---------------------------------------------------------------------------------------------
# Scalar path


def _card_ids(cards: Sequence[Card]) -> list[int]:
    """R1: 5, 6 or 7 distinct cards; returns their ids."""
    try:
        ids = [card.id for card in cards]
    except AttributeError:
        raise InvalidCard(f"{cards!r}: expected Card values") from None
    if len(ids) not in HAND_SIZES:
        raise InvalidCard(f"{len(ids)} cards: R7 ranks the best five of 5, 6 or 7 cards")
    if len(set(ids)) != len(ids):
        raise InvalidCard("duplicate card in hand (R1)")
    return ids


def _strength_of_ids(ids: Sequence[int], tables: _Tables) -> int:
    size = tables.sizes[len(ids)]
    keys = size.card_keys_list
    total = 0
    for card_id in ids:
        total += keys[card_id]
    suit = size.flush_suit_view[total & ((1 << SUIT_BITS) - 1)]
    if suit < 0:
        return size.rank_view[total >> SUIT_BITS]
    mask = 0
    for card_id in ids:
        if card_id & 3 == suit:
            mask |= 1 << (card_id >> 2)
    return tables.flush_view[mask]


def strength_of(cards: Sequence[Card]) -> int:
    """R7 strength (1..7462, higher is stronger) of the best five of 5, 6 or 7 distinct cards.

    The same number as ``evaluate(cards).strength``, without building the best five.
    Raises :class:`~casino_holdem.core.errors.InvalidCard` for a wrong count or a duplicate.
    """
    return _strength_of_ids(_card_ids(cards), _tables())


def category_of(strength: int) -> Category:
    """The R7 category of a strength 1..7462 (7462 is the royal flush)."""
    if not 1 <= strength <= STRENGTH_CLASSES:
        raise CoreError(f"strength {strength}: must be 1..{STRENGTH_CLASSES}", rule="R7")
    return Category(int(_tables().category_table[strength]))


def _significance_order(five: Sequence[Card], category: Category) -> tuple[Card, ...]:
    """Cards as R7 writes the hand: groups by (count desc, rank desc), within a rank the higher
    suit first; a straight (flush) high to low with the wheel as 5 4 3 2 A."""
    counts: dict[int, int] = {}
    for card in five:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    ordered = sorted(five, key=lambda card: (counts[card.rank], card.rank, card.suit), reverse=True)
    wheel = ordered[0].rank == 12 and ordered[1].rank == 3
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and wheel:
        ordered = ordered[1:] + ordered[:1]  # A 5 4 3 2 -> 5 4 3 2 A
    return tuple(ordered)


def evaluate(cards: Sequence[Card]) -> HandValue:
    """R7 value of the best five cards out of 5, 6 or 7 distinct cards.

    When several five-card subsets tie for the best (the 6th and 7th cards never count, R7), the
    one returned as ``best_five`` is fixed: among the tied subsets, each written in significance
    order (see :class:`HandValue`), the one whose tuple of card ids is lexicographically largest,
    so higher suits are preferred (s > h > d > c) from the most significant card down. For
    example Ad Ac Kd Kc Qh Qs 2h plays Ad Ac Kd Kc Qs: either queen could be the kicker, and
    the spade is kept.

    Raises :class:`~casino_holdem.core.errors.InvalidCard` unless given 5, 6 or 7 distinct cards.
    """
    ids = _card_ids(cards)
    tables = _tables()
    strength = _strength_of_ids(ids, tables)
    category = Category(tables.class_of_strength[strength][0])
    candidates = [
        _significance_order(five, category)
        for five in itertools.combinations(cards, 5)
        if _strength_of_ids([card.id for card in five], tables) == strength
    ]
    best_five = max(candidates, key=lambda five: tuple(card.id for card in five))
    return HandValue(category=category, best_five=best_five, strength=strength)


# ---------------------------------------------------------------------------------------------
# Batch path


def _evaluate_chunk(ids: np.ndarray, out: np.ndarray, size: _SizeTables, tables: _Tables) -> None:
    """Strengths of one chunk of rows into ``out``; numpy releases the GIL in every step."""
    if ids.min() < 0 or ids.max() > 51:
        raise InvalidCard("evaluate_batch: card ids must be 0..51")
    # Narrow ids are cheaper to gather from (the columns are strided); 0..51 fits in uint8.
    ids = ids.view(np.uint8) if ids.dtype == np.int8 else ids.astype(np.uint8, copy=False)
    # Every index below is in range by construction (ids checked above), so mode="clip" only
    # skips the bounds check and the output buffering that mode="raise" costs.
    keys = size.card_keys
    total = np.take(keys, ids[:, 0], mode="clip")
    scratch = np.empty_like(total)
    for column in range(1, ids.shape[1]):
        np.take(keys, ids[:, column], out=scratch, mode="clip")
        total += scratch
    np.bitwise_and(total, np.uint32((1 << SUIT_BITS) - 1), out=scratch)
    flush_suit = np.take(size.flush_suit, scratch, mode="clip")
    total >>= np.uint32(SUIT_BITS)
    out[:] = np.take(size.rank_table, total, mode="clip")
    flushed = np.flatnonzero(flush_suit >= 0)
    if flushed.size:
        # R7: five or more cards of one suit; in at most 7 cards nothing but a flush or a
        # straight flush can then be the best hand, so the suited rank mask decides.
        rows = ids[flushed].astype(np.intp)
        rows += flush_suit[flushed].astype(np.intp)[:, None] * 52
        mask = np.take(tables.suited_bits, rows, mode="clip").sum(axis=1, dtype=np.intp)
        out[flushed] = np.take(tables.flush_table, mask, mode="clip")


def evaluate_batch(ids: np.ndarray) -> np.ndarray:
    """R7 strengths (1..7462, ``int32``, shape ``(N,)``) of N hands given as card ids.

    ``ids`` is an integer array of shape ``(N, 5)``, ``(N, 6)`` or ``(N, 7)`` with card ids 0..51
    (any of int8/16/32/64 or unsigned); each row must hold distinct cards (R1). Ids out of range
    raise :class:`~casino_holdem.core.errors.InvalidCard`; duplicates within a row are not checked
    on this fast path. Element ``i`` equals ``strength_of`` of row ``i``.
    """
    array = np.asarray(ids)
    if array.ndim != 2 or array.shape[1] not in HAND_SIZES:
        raise InvalidCard(f"evaluate_batch: shape {array.shape}, expected (N, 5|6|7)")
    if not np.issubdtype(array.dtype, np.integer):
        raise InvalidCard(f"evaluate_batch: dtype {array.dtype}, expected integer card ids")
    tables = _tables()
    size = tables.sizes[array.shape[1]]
    rows = array.shape[0]
    out = np.empty(rows, dtype=np.int32)
    if rows == 0:
        return out
    starts = range(0, rows, _CHUNK_ROWS)

    def work(start: int) -> None:
        stop = start + _CHUNK_ROWS
        _evaluate_chunk(array[start:stop], out[start:stop], size, tables)

    if rows < _PARALLEL_MIN_ROWS:
        for start in starts:
            work(start)
    else:
        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            for _ in pool.map(work, starts):
                pass
    return out


def categories_batch(strengths: np.ndarray) -> np.ndarray:
    """R7 categories (``int8`` values of :class:`Category`) of an array of strengths 1..7462."""
    array = np.asarray(strengths)
    if array.size and (array.min() < 1 or array.max() > STRENGTH_CLASSES):
        raise CoreError(f"categories_batch: strengths must be 1..{STRENGTH_CLASSES}", rule="R7")
    return np.take(_tables().category_table, array, mode="clip")  # in range: checked above
