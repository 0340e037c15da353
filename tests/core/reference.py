"""An obviously correct R7 reference evaluator for the tests: try every five-card subset, classify
it by counting ranks, compare with a tuple key (category, ranks in the order R7 compares them).
Deliberately slow and simple; the tests hold the fast code to it."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from casino_holdem.core.cards import Card

RefKey = tuple[int, tuple[int, ...]]


def ref_key5(five: Sequence[Card]) -> RefKey:
    ranks = sorted((card.rank for card in five), reverse=True)
    flush = len({card.suit for card in five}) == 1
    top = None
    if len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4:
        top = ranks[0]
    elif ranks == [12, 3, 2, 1, 0]:  # the wheel: top card 5
        top = 3
    groups = sorted(((count, rank) for rank, count in Counter(ranks).items()), reverse=True)
    shape = [count for count, _ in groups]
    order = tuple(rank for _, rank in groups)
    if top is not None and flush:
        return (9 if top == 12 else 8), (top,)
    if shape == [4, 1]:
        return 7, order
    if shape == [3, 2]:
        return 6, order
    if flush:
        return 5, order
    if top is not None:
        return 4, (top,)
    if shape == [3, 1, 1]:
        return 3, order
    if shape == [2, 2, 1]:
        return 2, order
    if shape == [2, 1, 1, 1]:
        return 1, order
    return 0, order


def ref_key(cards: Sequence[Card]) -> RefKey:
    return max(ref_key5(five) for five in itertools.combinations(cards, 5))


def ref_written(five: Sequence[Card]) -> tuple[Card, ...]:
    """The five as R7 writes them: groups by (count, rank) desc, higher suit first; wheel 5-A."""
    counts = Counter(card.rank for card in five)
    ordered = sorted(five, key=lambda card: (counts[card.rank], card.rank, card.suit), reverse=True)
    if sorted(card.rank for card in five) == [0, 1, 2, 3, 12]:
        ordered = ordered[1:] + ordered[:1]
    return tuple(ordered)


def ref_best_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The documented choice among tied best subsets: the largest tuple of ids, as written."""
    best = ref_key(cards)
    tied = [ref_written(f) for f in itertools.combinations(cards, 5) if ref_key5(f) == best]
    return max(tied, key=lambda five: tuple(card.id for card in five))
