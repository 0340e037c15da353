"""R1: the play shuffle (CSPRNG), the seeded replay shuffle and the deck commitment."""

from __future__ import annotations

from collections import Counter

import pytest

from casino_holdem.core import shuffle
from casino_holdem.core.cards import FULL_DECK, InvalidCard


def test_r1_secure_shuffle_is_a_permutation_drawn_from_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def fake_randbelow(n: int) -> int:
        calls.append(n)
        return 0

    monkeypatch.setattr(shuffle.secrets, "randbelow", fake_randbelow)
    deck = shuffle.secure_shuffle()
    assert calls == list(range(52, 1, -1))
    assert sorted(deck) == list(FULL_DECK)


def test_r1_secure_shuffles_differ() -> None:
    assert len({shuffle.secure_shuffle() for _ in range(20)}) == 20


def test_seeded_shuffle_is_reproducible_and_seed_sensitive() -> None:
    assert shuffle.seeded_shuffle("round-1") == shuffle.seeded_shuffle("round-1")
    assert shuffle.seeded_shuffle("round-1") != shuffle.seeded_shuffle("round-2")
    assert shuffle.seeded_shuffle(7) == shuffle.seeded_shuffle("7")
    assert sorted(shuffle.seeded_shuffle(b"\x00")) == list(FULL_DECK)


def test_seeded_shuffle_is_pinned_so_replays_survive_upgrades() -> None:
    """A recorded seed must give the same deck forever: pin the first cards of one seed."""
    assert shuffle.deck_text(shuffle.seeded_shuffle("casino-holdem")[:5]) == PINNED


PINNED = "5s 9s 9d 9c 7d"


def test_seeded_shuffle_is_roughly_uniform_on_the_top_card() -> None:
    counts = Counter(shuffle.seeded_shuffle(i)[0] for i in range(5200))
    assert len(counts) == 52 and max(counts.values()) < 170 and min(counts.values()) > 45


def test_commitment_verifies_only_the_committed_deck_and_nonce() -> None:
    deck = shuffle.seeded_shuffle("x")
    nonce = shuffle.new_nonce()
    digest = shuffle.commit(deck, nonce)
    assert len(digest) == 64 and shuffle.verify(digest, deck, nonce)
    swapped = (deck[1], deck[0], *deck[2:])
    assert not shuffle.verify(digest, swapped, nonce)
    assert not shuffle.verify(digest, deck, shuffle.new_nonce())


def test_revealed_deck_parses_back() -> None:
    deck = shuffle.seeded_shuffle("y")
    assert shuffle.parse_deck(shuffle.deck_text(deck)) == deck
    with pytest.raises(InvalidCard, match="deck: 51 cards"):
        shuffle.parse_deck(shuffle.deck_text(deck[:51]))


def test_a_stored_deck_is_read_once_and_a_bad_one_is_refused_every_time() -> None:
    """Issue 10: a round's deck is loaded with every bet, decision and step; its text is parsed once."""
    deck = shuffle.seeded_shuffle("read once")
    text = shuffle.deck_text(deck)
    first = shuffle.parse_deck(text)
    assert first == deck and shuffle.parse_deck(text) is first
    assert shuffle.parse_deck([str(card) for card in deck]) == deck  # a list of card strings is read as before
    duplicated = shuffle.deck_text((*deck[:51], deck[0]))
    for _ in range(2):  # R1: each card once; the refusal is not remembered as a deck
        with pytest.raises(InvalidCard, match="deck"):
            shuffle.parse_deck(duplicated)
