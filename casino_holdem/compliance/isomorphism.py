"""Decks, suit isomorphism of flops and the indexing of card subsets, for the optimal strategy.

R7 ranks hands without regard to suit ("suits are equal"), so relabelling the suits of every
card of a deal changes no outcome and no decision's value. Two flops that differ only by suit
labels are therefore one *flop class*: of the C(52,3) = 22,100 flops, 1,755 classes remain. Each
class is represented by its *canonical* member, built from the flop's four per-suit rank masks
sorted in descending order and given to the suits c, d, h, s in that order; any flop is mapped
onto it by the suit permutation that sorts its masks (:func:`canonicalize`).

The same machinery serves reduced decks (fewer ranks, or only the first k suits), on which the
tests check the optimal strategy against a brute-force game tree: :class:`Deck` says which cards
exist, and every count here follows from it.

>>> deck = Deck.full()
>>> flops, weights = canonical_flops(deck)
>>> len(flops), int(weights.sum())
(1755, 22100)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import cast

import numpy as np
import numpy.typing as npt

from .vector import IntArray, combinations

SUITS = 4
RANKS = 13
#: flop classes of the full deck (of its 22,100 flops)
FLOP_CLASSES = 1755
_MASK_BITS = 13


@dataclass(frozen=True)
class Deck:
    """The cards of a (possibly reduced) deck: every rank of ``ranks`` in each of the first
    ``suits`` suits. Only the first suits may be used, so that a suit permutation sorting the
    flop's masks (absent suits have empty masks and stay last) never maps a card off the deck."""

    ranks: tuple[int, ...]
    suits: int

    def __post_init__(self) -> None:
        if not 1 <= self.suits <= SUITS or not self.ranks or any(not 0 <= r < RANKS for r in self.ranks):
            raise ValueError(f"deck {self}: ranks 0..12 and 1..4 suits")
        if len(self.ranks) * self.suits < 9:
            raise ValueError(f"deck {self}: a round needs 9 cards (R1)")

    @classmethod
    def full(cls) -> Deck:
        return cls(tuple(range(RANKS)), SUITS)

    @property
    def cards(self) -> npt.NDArray[np.uint8]:
        """The card ids ``4 * rank + suit`` of the deck, ascending."""
        return np.array(sorted(4 * r + s for r in self.ranks for s in range(self.suits)), np.uint8)

    @property
    def positions(self) -> npt.NDArray[np.int64]:
        """(52,): each card id's position in :attr:`cards` (-1 off the deck)."""
        table = np.full(52, -1, np.int64)
        table[self.cards] = np.arange(self.size)
        return table

    @property
    def size(self) -> int:
        return len(self.ranks) * self.suits


def suit_masks(cards: IntArray) -> npt.NDArray[np.uint16]:
    """(N, 4): bit r of column s set when a card of rank r and suit s is in the row."""
    cards = np.asarray(cards)
    masks = np.zeros((len(cards), SUITS), np.uint16)
    rows = np.arange(len(cards))
    for column in cards.T:
        # one card per row in a column, so no (row, suit) cell is added to twice in one step; and
        # distinct cards of one suit have distinct ranks, so adding their bits is or-ing them
        masks[rows, column & 3] += np.left_shift(np.uint16(1), (column >> 2).astype(np.uint16))
    return masks


def _sorting_permutation(cards: IntArray) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """Per row, the class key (the suit masks sorted descending, packed) and the suit each old
    suit becomes: its place in that order, ties kept in the old order, so a deck's absent suits
    (empty masks, the highest suits) stay behind its present ones."""
    masks = suit_masks(cards).astype(np.int64)
    permutation = np.zeros(masks.shape, np.int64)
    for suit in range(SUITS):
        for other in range(SUITS):
            if other != suit:
                ahead = masks[:, other] > masks[:, suit]
                permutation[:, suit] += ahead | ((masks[:, other] == masks[:, suit]) & (other < suit))
    key = np.zeros(len(masks), np.int64)
    for suit in range(SUITS):
        key |= masks[:, suit] << (_MASK_BITS * (SUITS - 1 - permutation[:, suit]))
    return key.astype(np.uint64), permutation


@lru_cache(maxsize=8)
def canonical_flops(deck: Deck) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """One canonical flop per class of ``deck``'s flops, sorted by class key, and how many flops
    each stands for (the weights sum to C(deck size, 3))."""
    cards = deck.cards
    flops = cards[combinations(deck.size, 3)]
    keys, first, weights = np.unique(_sorting_permutation(flops)[0], return_index=True, return_counts=True)
    representatives = np.sort(permute_cards(flops[first], _sorting_permutation(flops[first])[1]), axis=1)
    representatives.setflags(write=False)
    return representatives.astype(np.uint8), weights.astype(np.int64)


@lru_cache(maxsize=8)
def _class_keys(deck: Deck) -> npt.NDArray[np.uint64]:
    flops, _ = canonical_flops(deck)
    return _sorting_permutation(flops)[0]


def permute_cards(cards: IntArray, permutation: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    """Relabel the suits of each row's cards by that row's permutation (old suit → new suit)."""
    cards = np.asarray(cards).astype(np.int64)
    suits = np.take_along_axis(permutation, cards & 3, axis=1)
    return ((cards & ~3) | suits).astype(np.uint8)


def canonicalize(flops: IntArray, deck: Deck) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]]:
    """For (N, 3) flops: the index of each flop's class in :func:`canonical_flops` and the suit
    permutation (N, 4) that maps the flop onto its canonical member."""
    key, permutation = _sorting_permutation(flops)
    keys = _class_keys(deck)
    index = np.searchsorted(keys, key)
    if np.any(index >= len(keys)) or np.any(keys[np.minimum(index, len(keys) - 1)] != key):
        raise ValueError("canonicalize: a flop with cards off the deck")
    return index, permutation


@lru_cache(maxsize=32)
def _before(n: int, k: int) -> npt.NDArray[np.int64]:
    """before[v] = how many k-subsets of range(n) start with a value below v."""
    counts = [comb(max(n - 1 - u, 0), k - 1) for u in range(n)]
    return np.concatenate([[0], np.cumsum(counts, dtype=np.int64)])


def subset_index(columns: IntArray, n: int) -> npt.NDArray[np.int64]:
    """The position of each ascending k-subset (last axis) in ``combinations(n, k)``."""
    columns = np.asarray(columns).astype(np.int64)
    k = columns.shape[-1]
    index = np.zeros(columns.shape[:-1], np.int64)
    start: IntArray = np.zeros(columns.shape[:-1], np.int64)
    for position in range(k):
        table = _before(n, k - position)
        value = columns[..., position]
        index += table[value] - table[start]
        start = value + 1
    return index


def local_positions(cards: IntArray, removed: IntArray, deck: Deck) -> npt.NDArray[np.int64]:
    """Position of each card of a row among ``deck``'s cards without the row's ``removed`` ones
    (the order in which the enumeration numbers the cards left after a flop)."""
    position = deck.positions
    cards = position[np.asarray(cards).astype(np.int64)]
    gone = position[np.asarray(removed).astype(np.int64)]
    return cast(npt.NDArray[np.int64], cards - (gone[:, None, :] < cards[..., None]).sum(axis=-1))
