"""Precise hand names as players say them (R7): "Pair of Aces, King kicker", "Straight, Nine high",
"Full House, Nines full of Fours".

A name is a message id with named arguments that are message ids themselves (rank names), so a
page translates both through its catalogue and then fills the one into the other. The first kicker
named is the highest card outside the hand's groups: the card that decides between equal groups
first (R7.3, R7.7-R7.10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import Card
from .evaluator import Category, HandValue

#: rank 0 (deuce) … 12 (ace): the singular and plural names, message ids both
RANK_NAMES: tuple[tuple[str, str], ...] = (
    ("Two", "Twos"), ("Three", "Threes"), ("Four", "Fours"), ("Five", "Fives"), ("Six", "Sixes"),
    ("Seven", "Sevens"), ("Eight", "Eights"), ("Nine", "Nines"), ("Ten", "Tens"), ("Jack", "Jacks"),
    ("Queen", "Queens"), ("King", "Kings"), ("Ace", "Aces"),
)

#: the message id of each category's name; ``%(…)s`` arguments are rank names (R7 order)
TEMPLATES: dict[Category, str] = {
    Category.HIGH_CARD: "%(high)s high, %(kicker)s kicker",
    Category.ONE_PAIR: "Pair of %(pair)s, %(kicker)s kicker",
    Category.TWO_PAIR: "Two Pair, %(high)s and %(low)s, %(kicker)s kicker",
    Category.THREE_OF_A_KIND: "Three of a Kind, %(trips)s, %(kicker)s kicker",
    Category.STRAIGHT: "Straight, %(high)s high",
    Category.FLUSH: "Flush, %(high)s high",
    Category.FULL_HOUSE: "Full House, %(trips)s full of %(pair)s",
    Category.FOUR_OF_A_KIND: "Four of a Kind, %(quads)s, %(kicker)s kicker",
    Category.STRAIGHT_FLUSH: "Straight Flush, %(high)s high",
    Category.ROYAL_FLUSH: "Royal Flush",
}
#: two hole cards before the flop (R2.3): a pair, or the higher card with the other as kicker
HOLE_PAIR = "Pair of %(pair)s"


@dataclass(frozen=True, slots=True)
class HandName:
    """A message id and its arguments (rank names, message ids too)."""

    template: str
    args: dict[str, str] = field(default_factory=dict)

    def english(self) -> str:
        """The name in the catalogue's own language (message ids are English)."""
        return self.template % self.args


def _one(rank: int) -> str:
    return RANK_NAMES[rank][0]


def _many(rank: int) -> str:
    return RANK_NAMES[rank][1]


def name_of(value: HandValue) -> HandName:
    """R7: the precise name of a five-card hand value (``best_five`` in significance order:
    groups first, then kickers high to low; straights from their top card, the wheel's top is 5)."""
    ranks = [card.rank for card in value.best_five]
    category = value.category
    template = TEMPLATES[category]
    if category is Category.ROYAL_FLUSH:
        return HandName(template)
    if category in (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH):
        return HandName(template, {"high": _one(ranks[0])})
    if category is Category.HIGH_CARD:
        return HandName(template, {"high": _one(ranks[0]), "kicker": _one(ranks[1])})
    if category is Category.ONE_PAIR:
        return HandName(template, {"pair": _many(ranks[0]), "kicker": _one(ranks[2])})
    if category is Category.TWO_PAIR:
        return HandName(template, {"high": _many(ranks[0]), "low": _many(ranks[2]), "kicker": _one(ranks[4])})
    if category is Category.THREE_OF_A_KIND:
        return HandName(template, {"trips": _many(ranks[0]), "kicker": _one(ranks[3])})
    if category is Category.FULL_HOUSE:
        return HandName(template, {"trips": _many(ranks[0]), "pair": _many(ranks[3])})
    return HandName(template, {"quads": _many(ranks[0]), "kicker": _one(ranks[4])})


def name_of_hole(cards: Sequence[Card]) -> HandName:
    """R2.3: the Player's two hole cards before the flop: a pair, or the high card and kicker."""
    high, low = sorted((card.rank for card in cards), reverse=True)
    if high == low:
        return HandName(HOLE_PAIR, {"pair": _many(high)})
    return HandName(TEMPLATES[Category.HIGH_CARD], {"high": _one(high), "kicker": _one(low)})
