"""Cards and the 52-card deck (R1).

A card is a small frozen value with an integer id ``4 * rank + suit``: rank 0 is the deuce and
12 the ace, suits c, d, h, s are 0..3. The id is the currency of the fast paths (the numpy
evaluator, the simulator, the stored deck); :class:`Card` is what people and JSON see.

>>> Card.parse("As")
Card('As')
>>> Card.parse("10d").id, str(Card.parse("td"))
(33, 'Td')
>>> sorted([Card.parse("2c"), Card.parse("As"), Card.parse("Kd")])
[Card('2c'), Card('Kd'), Card('As')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import InvalidCard as InvalidCard  # its home is errors.py; importable from here too

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52
#: the rank numbers the rules name (R4: the Bonus lines)
TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card; ordered by id, so by rank first and then by suit (c < d < h < s)."""

    id: int

    def __post_init__(self) -> None:
        if not 0 <= self.id < DECK_SIZE:
            raise InvalidCard(f"card id {self.id}: must be 0..51")

    @property
    def rank(self) -> int:
        """0 (deuce) … 12 (ace)."""
        return self.id >> 2

    @property
    def suit(self) -> int:
        """0..3 for c, d, h, s."""
        return self.id & 3

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        return cls(4 * rank + suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``As``, ``Td``, ``10d`` or ``tD`` (rank case-insensitive, suit c d h s)."""
        if not isinstance(text, str):
            raise InvalidCard(f"{text!r}: a card is a string such as 'As' or '10d'")
        raw = text.strip()
        rank_text, suit_text = raw[:-1].upper(), raw[-1:].lower()
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in tuple(SUITS):
            raise InvalidCard(f"{text!r}: not a card (rank 2-9 T J Q K A or 10, suit c d h s)")
        return cls.of(RANKS.index(rank_text), SUITS.index(suit_text))

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


FULL_DECK: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE))


def parse_cards(texts: Iterable[str], *, what: str = "cards") -> tuple[Card, ...]:
    """Parse several cards and refuse a duplicate (R1: one deck, each card once)."""
    cards = []
    for position, text in enumerate(texts):
        try:
            cards.append(Card.parse(text))
        except InvalidCard as error:
            raise InvalidCard(error.problem, field=f"{what}[{position}]") from None
    ensure_distinct(cards, what=what)
    return tuple(cards)


def ensure_distinct(cards: Sequence[Card], *, what: str = "cards") -> None:
    """R1: a card appears once in a round."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidCard(f"duplicate card {card}", field=what)
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]
