"""Shuffling (R1) and the deck commitment.

- :func:`secure_shuffle` is the play shuffle: Fisher–Yates driven by :mod:`secrets`, the
  operating system's CSPRNG.
- :func:`seeded_shuffle` is the replay/test shuffle: the same Fisher–Yates driven by a
  deterministic SHA-256 counter stream of a recorded seed, so a round can be reproduced exactly on
  any machine (Python's ``random`` is avoided: its stream is an implementation detail).
- :func:`commit` publishes ``SHA-256(nonce ":" deck)`` before the deal; after settlement the deck
  and the nonce are revealed and anyone can :func:`verify` them. The 128-bit random nonce keeps a
  partly seen deck from being guessed from its commitment.

>>> deck = seeded_shuffle("demo")
>>> deck == seeded_shuffle("demo"), len(set(deck))
(True, 52)
>>> verify(commit(deck, "00" * 16), deck, "00" * 16)
True
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable, Sequence

from .cards import FULL_DECK, Card, parse_cards
from .errors import InvalidCard


def fisher_yates(below: Callable[[int], int]) -> tuple[Card, ...]:
    """Durstenfeld's Fisher–Yates: ``below(n)`` must return a uniform integer in [0, n)."""
    deck = list(FULL_DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def secure_shuffle() -> tuple[Card, ...]:
    """The play shuffle (R1), from the CSPRNG."""
    return fisher_yates(secrets.randbelow)


class _SeedStream:
    """Uniform integers from SHA-256(seed || counter), with rejection to avoid modulo bias."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.counter = 0

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            block = hashlib.sha256(self.seed + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
            value = int.from_bytes(block[:8], "big")
            if value < limit:
                return value % n


def seeded_shuffle(seed: str | bytes | int) -> tuple[Card, ...]:
    """A reproducible shuffle for replay and tests (never for play)."""
    if isinstance(seed, int):
        seed = str(seed)
    raw = seed.encode("utf-8") if isinstance(seed, str) else seed
    return fisher_yates(_SeedStream(raw).below)


def new_nonce() -> str:
    return secrets.token_hex(16)


def deck_text(deck: Sequence[Card]) -> str:
    """The canonical text of a deck order: cards joined by spaces ("As Kd 2c …")."""
    return " ".join(str(card) for card in deck)


def commit(deck: Sequence[Card], nonce: str) -> str:
    """SHA-256 hex of ``nonce:deck``, published before the first card is dealt."""
    return hashlib.sha256(f"{nonce}:{deck_text(deck)}".encode()).hexdigest()


def verify(commitment: str, deck: Sequence[Card], nonce: str) -> bool:
    """Check a revealed deck and nonce against the commitment published before the deal."""
    return secrets.compare_digest(commitment, commit(deck, nonce))


def parse_deck(text: str | Sequence[str]) -> tuple[Card, ...]:
    """Read a revealed deck (52 distinct cards) from its text or a list of card strings."""
    return _deck_of(text) if isinstance(text, str) else _checked_deck(parse_cards(text, what="deck"))


#: decks whose text :func:`parse_deck` keeps read: more than the rounds a server has in play at once
DECKS_KEPT = 4096


@functools.lru_cache(maxsize=DECKS_KEPT)
def _deck_of(text: str) -> tuple[Card, ...]:
    """A stored deck's text, read once per process while its round is played: every bet, decision,
    dealer's step and state build loads the round again (issue 10: 52 cards parsed each time were
    800 Python calls, 7 % of a decision's). The cards are immutable, so the one tuple is shared; a
    text that is not a deck raises each time (an error is not kept)."""
    return _checked_deck(parse_cards(text.split(), what="deck"))


def _checked_deck(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    if len(cards) != 52:
        raise InvalidCard(f"{len(cards)} cards, a deck has 52", field="deck")
    return cards
