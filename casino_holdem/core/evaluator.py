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

The lookup tables behind both paths are built in :mod:`.hand_classes`, which also holds the
:class:`Category` enum (re-exported here).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .cards import Card
from .errors import CoreError, InvalidCard
from .hand_classes import HAND_SIZES, STRENGTH_CLASSES, SUIT_BITS, Category, SizeTables, Tables, lookup_tables

__all__ = [
    "Category",
    "HandValue",
    "categories_batch",
    "category_of",
    "evaluate",
    "evaluate_batch",
    "strength_of",
]


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


_CHUNK_ROWS = 1 << 17  # rows per batch chunk: the working arrays stay in L2 cache
_WORKERS = 2
_PARALLEL_MIN_ROWS = 2 * _CHUNK_ROWS


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


def _strength_of_ids(ids: Sequence[int], tables: Tables) -> int:
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
    return _strength_of_ids(_card_ids(cards), lookup_tables())


def category_of(strength: int) -> Category:
    """The R7 category of a strength 1..7462 (7462 is the royal flush)."""
    if not 1 <= strength <= STRENGTH_CLASSES:
        raise CoreError(f"strength {strength}: must be 1..{STRENGTH_CLASSES}", rule="R7")
    return Category(int(lookup_tables().category_table[strength]))


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
    tables = lookup_tables()
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


def _evaluate_chunk(ids: np.ndarray, out: np.ndarray, size: SizeTables, tables: Tables) -> None:
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
    tables = lookup_tables()
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
    return np.take(lookup_tables().category_table, array, mode="clip")  # in range: checked above
