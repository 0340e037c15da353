"""R1: cards, ids and the deck."""

from __future__ import annotations

import pytest

from casino_holdem.core.cards import FULL_DECK, Card, InvalidCard, format_cards, parse_cards


@pytest.mark.parametrize("text, card_id", [
    ("2c", 0), ("2s", 3), ("As", 51), ("Ah", 50), ("Td", 33), ("10d", 33), ("tD", 33), ("kc", 44), (" Qh ", 42),
])
def test_r1_card_ids_are_four_times_rank_plus_suit(text: str, card_id: int) -> None:
    assert Card.parse(text).id == card_id


@pytest.mark.parametrize("text", ["", "A", "1s", "11s", "Ax", "Zs", "10", "A s", "Asd", None, 5])
def test_r1_unreadable_cards_are_refused_with_their_text(text: object) -> None:
    with pytest.raises(InvalidCard):
        Card.parse(text)  # type: ignore[arg-type]


def test_r1_the_deck_has_52_distinct_cards_that_round_trip() -> None:
    assert len(FULL_DECK) == 52 == len({str(card) for card in FULL_DECK})
    assert all(Card.parse(str(card)) == card for card in FULL_DECK)
    assert format_cards(FULL_DECK[:4]) == ["2c", "2d", "2h", "2s"]


def test_r1_a_card_appears_once_in_a_round() -> None:
    with pytest.raises(InvalidCard, match=r"board: duplicate card As"):
        parse_cards(["As", "Kd", "as"], what="board")


def test_parse_error_names_the_position() -> None:
    with pytest.raises(InvalidCard, match=r"cards\[1\]: 'Zz'"):
        parse_cards(["As", "Zz"])


def test_cards_order_by_rank_then_suit() -> None:
    assert sorted(parse_cards(["As", "2c", "Ac", "Kd"])) == list(parse_cards(["2c", "Kd", "Ac", "As"]))
    assert Card.parse("Js").rank == 9 and Card.parse("Js").suit == 3
