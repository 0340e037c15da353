"""R7: every category's precise name, with its ranks and its first kicker."""

from __future__ import annotations

import pytest

from casino_holdem.core.cards import parse_cards
from casino_holdem.core.evaluator import evaluate
from casino_holdem.core.hand_names import HOLE_PAIR, RANK_NAMES, TEMPLATES, name_of, name_of_hole


@pytest.mark.parametrize(("cards", "name"), [
    ("As Ks Qs Js Ts 2c 3d", "Royal Flush"),
    ("9h 8h 7h 6h 5h Ac Kd", "Straight Flush, Nine high"),
    ("5d 4d 3d 2d Ad Kc Qh", "Straight Flush, Five high"),
    ("7c 7d 7h 7s Kd 2c 3h", "Four of a Kind, Sevens, King kicker"),
    ("2c 2d 2h 2s 3d 4c 5h", "Four of a Kind, Twos, Five kicker"),
    ("9c 9d 9h 4s 4d Ac 2h", "Full House, Nines full of Fours"),
    ("8c 8d 8h As Ad 2c 3h", "Full House, Eights full of Aces"),
    ("Kh Th 8h 6h 3h Ac 2d", "Flush, King high"),
    ("9c 8d 7h 6s 5d Ac Ah", "Straight, Nine high"),
    ("Ah 2c 3d 4s 5h Kc 9d", "Straight, Five high"),
    ("Ac Kd Qh Js Tc 2d 3d", "Straight, Ace high"),
    ("4c 4d 4h Qs 9d 2c 7h", "Three of a Kind, Fours, Queen kicker"),
    ("Jc Jd 2h 2s 4d 3c 8h", "Two Pair, Jacks and Twos, Eight kicker"),
    ("Qc Qd 5h 5s 4d 3c 2h", "Two Pair, Queens and Fives, Four kicker"),
    ("Ac Ad Kh 9s 3d 2c 7h", "Pair of Aces, King kicker"),
    ("Jc Jd Ah 9s 3d 2c 7h", "Pair of Jacks, Ace kicker"),
    ("Ac Jd 9h 5s 3d 2c 7h", "Ace high, Jack kicker"),
    ("7c 5d 4h 3s 2d", "Seven high, Five kicker"),
])
def test_r7_precise_names_of_every_category_and_kicker(cards: str, name: str) -> None:
    assert name_of(evaluate(parse_cards(cards.split()))).english() == name


@pytest.mark.parametrize(("cards", "name"), [
    ("As Ad", "Pair of Aces"), ("2c 2d", "Pair of Twos"), ("Kd As", "Ace high, King kicker"),
    ("7h Tc", "Ten high, Seven kicker"),
])
def test_r2_3_the_hole_cards_before_the_flop(cards: str, name: str) -> None:
    assert name_of_hole(parse_cards(cards.split())).english() == name


def test_names_are_message_ids_with_rank_names_as_arguments() -> None:
    value = evaluate(parse_cards("9c 9d 9h 4s 4d".split()))
    name = name_of(value)
    assert name.template == TEMPLATES[value.category]
    assert set(name.args.values()) <= {word for pair in RANK_NAMES for word in pair}
    assert HOLE_PAIR % {"pair": "Aces"} == "Pair of Aces"
