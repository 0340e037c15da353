"""R7 hand ranking: the rule book's cases, a brute-force reference, and the batch path."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import ref_best_five, ref_key, ref_key5

from casino_holdem.compliance.simulate import deal
from casino_holdem.core.cards import FULL_DECK, Card, InvalidCard, parse_cards
from casino_holdem.core.evaluator import (
    Category,
    HandValue,
    categories_batch,
    category_of,
    evaluate,
    evaluate_batch,
    strength_of,
)


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


def colex_combinations(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n) as uint8 rows (ascending), in colex order, so the subsets of
    range(m) are the first comb(m, k) rows."""
    table = np.arange(n, dtype=np.uint8)[:, None]
    for size in range(2, k + 1):
        blocks = []
        for top in range(size - 1, n):
            prefix = table[: comb(top, size - 1)]
            blocks.append(np.hstack([prefix, np.full((len(prefix), 1), top, np.uint8)]))
        table = np.concatenate(blocks)
    return table


# ---------------------------------------------------------------------------------------------
# The rule book's cases (R7, and the kicker example of R10).

# (winner, loser, winner category, loser category, winner best five, loser best five)
BEATS = [
    pytest.param(
        "9s 9h 9d 4c 4s", "8s 8h 8d Ac As", Category.FULL_HOUSE, Category.FULL_HOUSE,
        "9s 9h 9d 4s 4c", "8s 8h 8d As Ac", id="r7_4_trips_rank_before_pair_rank",
    ),
    pytest.param(
        "4s 4h 4d Qc 9s", "4c 4h 4d Qd 8h", Category.THREE_OF_A_KIND, Category.THREE_OF_A_KIND,
        "4s 4h 4d Qc 9s", "4h 4d 4c Qd 8h", id="r7_7_trips_second_kicker",
    ),
    pytest.param(
        "Js Jh 2d 2c 4s", "Ts Th 9d 9c 8s", Category.TWO_PAIR, Category.TWO_PAIR,
        "Js Jh 2d 2c 4s", "Ts Th 9d 9c 8s", id="r7_8_higher_pair_first",
    ),
    pytest.param(
        "Qs Qh 5d 5c 8s", "Qd Qc 5s 5h 4s", Category.TWO_PAIR, Category.TWO_PAIR,
        "Qs Qh 5d 5c 8s", "Qd Qc 5s 5h 4s", id="r7_8_two_pair_kicker",
    ),
    pytest.param(
        "Js Jh Ad 9c 3s", "Jd Jc As 8h 7s", Category.ONE_PAIR, Category.ONE_PAIR,
        "Js Jh Ad 9c 3s", "Jd Jc As 8h 7s", id="r7_9_pair_kickers_in_order",
    ),
    pytest.param(
        "As Jh 9d 5c 3s", "Ah Ts 9c 6d 4h", Category.HIGH_CARD, Category.HIGH_CARD,
        "As Jh 9d 5c 3s", "Ah Ts 9c 6d 4h", id="r7_10_high_card_from_the_top",
    ),
    pytest.param(
        "7c 7d 7h 7s 2c Ah Kd", "7c 7d 7h 7s 2c Qh Jd", Category.FOUR_OF_A_KIND,
        Category.FOUR_OF_A_KIND, "7s 7h 7d 7c Ah", "7s 7h 7d 7c Qh",
        id="r7_3_board_quads_decided_by_kicker",
    ),
    pytest.param(
        "6c 5d 4h 3s 2c", "5h 4c 3d 2s Ac", Category.STRAIGHT, Category.STRAIGHT,
        "6c 5d 4h 3s 2c", "5h 4c 3d 2s Ac", id="r7_6_wheel_is_the_lowest_straight",
    ),
    pytest.param(
        "5h 4c 3d 2s Ac", "As Ad Ah Kc Qd", Category.STRAIGHT, Category.THREE_OF_A_KIND,
        "5h 4c 3d 2s Ac", "As Ah Ad Kc Qd", id="r7_6_wheel_still_beats_trips",
    ),
    pytest.param(
        "6h 5h 4h 3h 2h", "5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH, Category.STRAIGHT_FLUSH,
        "6h 5h 4h 3h 2h", "5d 4d 3d 2d Ad", id="r7_2_wheel_is_the_lowest_straight_flush",
    ),
    pytest.param(
        "5d 4d 3d 2d Ad", "As Ah Ad Ac Kd", Category.STRAIGHT_FLUSH, Category.FOUR_OF_A_KIND,
        "5d 4d 3d 2d Ad", "As Ah Ad Ac Kd", id="r7_2_lowest_straight_flush_beats_quads",
    ),
    pytest.param(
        "As Ks Qs Js Ts", "Kh Qh Jh Th 9h", Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH,
        "As Ks Qs Js Ts", "Kh Qh Jh Th 9h", id="r7_1_royal_flush_tops_straight_flushes",
    ),
    pytest.param(
        "5c 4d 3h 2s 6c", "4c 3d 2h As Kc", Category.STRAIGHT, Category.HIGH_CARD,
        "6c 5c 4d 3h 2s", "As Kc 4c 3d 2h", id="r7_2_no_wrap_around_4_3_2_a_k",
    ),
    pytest.param(
        "2c Ad Kh Qs Jh Jc", "2d As Kc Qd Jd", Category.ONE_PAIR, Category.HIGH_CARD,
        "Jh Jc Ad Kh Qs", "As Kc Qd Jd 2d", id="r7_6_no_wrap_around_2_a_k_q_j",
    ),
    pytest.param(
        "4h 3h 2h Ah Kh", "Ac Kd Qh Jc 9s", Category.FLUSH, Category.HIGH_CARD,
        "Ah Kh 4h 3h 2h", "Ac Kd Qh Jc 9s", id="r7_2_suited_wrap_around_is_only_a_flush",
    ),
    pytest.param(
        "As Kd 2c 4d 6h 8s Ac", "Ah Qc 2c 4d 6h 8s Ac", Category.ONE_PAIR, Category.ONE_PAIR,
        "As Ac Kd 8s 6h", "Ah Ac Qc 8s 6h", id="r10_kicker_a_k_beats_a_q_on_2_4_6_8_a",
    ),
    pytest.param(
        "Ah Kh 9h 5h 3h 2c 2d", "Ad Kd 9d 5d 2d 3c 3s", Category.FLUSH, Category.FLUSH,
        "Ah Kh 9h 5h 3h", "Ad Kd 9d 5d 2d", id="r7_5_flush_compares_all_five_cards",
    ),
    pytest.param(
        "Ts 9d 8c 7h 6s 5s 4s", "9c 8d 7s 6h 5c 4d 3h", Category.STRAIGHT, Category.STRAIGHT,
        "Ts 9d 8c 7h 6s", "9c 8d 7s 6h 5c", id="r7_6_top_card_decides",
    ),
]

# Hands that tie: the best five are equal; the 6th and 7th cards never count (R7).
TIES = [
    pytest.param(
        "Ac Kd Qh Js 9c 2c 3d", "Ac Kd Qh Js 9c 4h 5s", Category.HIGH_CARD,
        id="r7_sixth_and_seventh_cards_never_count",
    ),
    pytest.param(
        "7c 7d 7h 7s Kc Qh Jd", "7c 7d 7h 7s Kc 3h 2d", Category.FOUR_OF_A_KIND,
        id="r7_3_board_quads_with_board_kicker_tie",
    ),
    pytest.param(
        "As Ad Ks Kd Qh Qc 2c", "As Ad Ks Kd Qh 3c 4d", Category.TWO_PAIR,
        id="r7_8_third_pair_only_as_kicker",
    ),
    pytest.param(
        "5h 4c 3d 2s Ac Ad Ah", "5c 4d 3h 2c As Kd Kh", Category.STRAIGHT,
        id="r7_6_suits_are_equal",
    ),
]


@pytest.mark.parametrize("winner, loser, winner_cat, loser_cat, winner_five, loser_five", BEATS)
def test_r7_rule_book_comparisons(
    winner: str, loser: str, winner_cat: Category, loser_cat: Category,
    winner_five: str, loser_five: str,
) -> None:
    won, lost = evaluate(cards(winner)), evaluate(cards(loser))
    assert won.strength > lost.strength
    assert (won.category, lost.category) == (winner_cat, loser_cat)
    assert won.best_five == cards(winner_five)
    assert lost.best_five == cards(loser_five)
    assert strength_of(cards(winner)) == won.strength
    assert strength_of(cards(loser)) == lost.strength
    assert sign(ref_key(cards(winner)) > ref_key(cards(loser))) == 1


@pytest.mark.parametrize("first, second, category", TIES)
def test_r7_ties(first: str, second: str, category: Category) -> None:
    one, two = evaluate(cards(first)), evaluate(cards(second))
    assert one.strength == two.strength
    assert one.category == two.category == category
    assert [card.rank for card in one.best_five] == [card.rank for card in two.best_five]


@pytest.mark.parametrize(
    "hand, best_five",
    [
        # two kings of different suits for the last kicker: the higher suit is kept
        ("Ac Ad Qh Qs Kd Kc 2h", "Ad Ac Kd Kc Qs"),
        ("7c 7d 7h 7s Ah Ad 2c", "7s 7h 7d 7c Ah"),
        ("9c 8d 7h 6s 5c 5h 5d", "9c 8d 7h 6s 5h"),
        ("Kd Kc As Ah Kh 2c 3d", "Kh Kd Kc As Ah"),
        ("Ah Kh 9h 5h 3h 2h 4c", "Ah Kh 9h 5h 3h"),
        ("5s 4s 3s 2s As Ad Ac", "5s 4s 3s 2s As"),
    ],
)
def test_r7_best_five_choice_among_ties_is_documented(hand: str, best_five: str) -> None:
    assert evaluate(cards(hand)).best_five == cards(best_five)
    assert ref_best_five(cards(hand)) == cards(best_five)


@pytest.mark.parametrize("top", range(3, 13))
@pytest.mark.parametrize("suited", [False, True])
def test_r7_straights_are_written_high_to_low(top: int, suited: bool) -> None:
    ranks = [12, 0, 1, 2, 3] if top == 3 else list(range(top - 4, top + 1))
    suits = [2] * 5 if suited else [0, 1, 2, 3, 0]
    hand = [Card.of(rank, suit) for rank, suit in zip(ranks, suits, strict=True)]
    value = evaluate([*hand, Card.of((top + 3) % 13, 1)])  # a sixth card that extends nothing
    written = [card.rank for card in value.best_five]
    assert written == ([3, 2, 1, 0, 12] if top == 3 else list(range(top, top - 5, -1)))
    expected = Category.STRAIGHT_FLUSH if suited else Category.STRAIGHT
    if suited and top == 12:
        expected = Category.ROYAL_FLUSH
    assert value.category == expected


def test_r7_categories_slugs_and_bounds() -> None:
    assert [category.slug for category in Category][::-1] == [
        "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
        "three_of_a_kind", "two_pair", "one_pair", "high_card",
    ]
    assert evaluate(cards("7c 5d 4h 3s 2c")).strength == 1
    assert evaluate(cards("As Ks Qs Js Ts")).strength == 7462
    firsts = [1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453, 7462]
    for category, first in zip(Category, firsts, strict=True):
        assert category_of(first) == category
        assert first == 1 or category_of(first - 1) == category - 1
    everything = np.arange(1, 7463)
    assert categories_batch(everything).dtype == np.int8
    assert categories_batch(everything).tolist() == [category_of(s) for s in range(1, 7463)]
    for bad in (0, 7463):
        with pytest.raises(ValueError):
            category_of(bad)


@pytest.mark.parametrize(
    "hand", ["As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s", "As Ks Qs Js As", "As As Ks Qs Js Ts 9s"]
)
def test_r7_refuses_anything_but_5_to_7_distinct_cards(hand: str) -> None:
    hand_cards = [Card.parse(text) for text in hand.split()]
    with pytest.raises(InvalidCard):
        evaluate(hand_cards)
    with pytest.raises(InvalidCard):
        strength_of(hand_cards)


def test_r7_hand_value_is_frozen() -> None:
    value = evaluate(cards("As Ks Qs Js Ts"))
    assert isinstance(value, HandValue)
    with pytest.raises(AttributeError):
        value.strength = 1  # type: ignore[misc]


# ---------------------------------------------------------------------------------------------
# Properties against the reference.

hands = st.integers(5, 7).flatmap(
    lambda size: st.lists(st.sampled_from(FULL_DECK), min_size=size, max_size=size, unique=True)
)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_r7_evaluate_agrees_with_brute_force(hand: list[Card]) -> None:
    value = evaluate(hand)
    best = ref_key(hand)
    assert value.category == best[0]
    assert value.strength == strength_of(hand)
    assert set(value.best_five) <= set(hand) and len(value.best_five) == 5
    assert ref_key5(value.best_five) == best
    assert evaluate(value.best_five).strength == value.strength
    assert value.best_five == ref_best_five(hand)


@settings(max_examples=400, deadline=None)
@given(hands, hands)
def test_r7_order_is_the_reference_order(first: list[Card], second: list[Card]) -> None:
    expected = sign((ref_key(first) > ref_key(second)) - (ref_key(first) < ref_key(second)))
    assert sign(strength_of(first) - strength_of(second)) == expected


def test_r7_equal_strength_exactly_when_tied_on_many_pairs() -> None:
    rng = np.random.default_rng(7)
    # Few ranks in play so that ties and near ties are common.
    deck = [card for card in FULL_DECK if card.rank in (0, 1, 2, 3, 9, 10, 11, 12)]
    sample = [[deck[i] for i in rng.choice(len(deck), 7, replace=False)] for _ in range(600)]
    keys = [ref_key(hand) for hand in sample]
    strengths = [strength_of(hand) for hand in sample]
    for i in range(len(sample) - 1):
        assert sign(strengths[i] - strengths[i + 1]) == sign(
            (keys[i] > keys[i + 1]) - (keys[i] < keys[i + 1])
        )


# ---------------------------------------------------------------------------------------------
# The batch path.


def test_r7_batch_equals_scalar_on_a_million_seven_card_hands() -> None:
    rng = np.random.default_rng(20240607)
    ids = deal(rng, 1_000_000, 7)
    batch = evaluate_batch(ids)
    assert batch.shape == (1_000_000,) and np.issubdtype(batch.dtype, np.integer)
    scalar = [strength_of([FULL_DECK[i] for i in row]) for row in ids.tolist()]
    assert batch.tolist() == scalar


@pytest.mark.parametrize("size", [5, 6])
def test_r7_batch_equals_scalar_on_five_and_six_card_hands(size: int) -> None:
    rng = np.random.default_rng(size)
    ids = deal(rng, 100_000, size)
    scalar = [strength_of([FULL_DECK[i] for i in row]) for row in ids.tolist()]
    assert evaluate_batch(ids).tolist() == scalar


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16])
def test_r7_batch_accepts_integer_dtypes(dtype: type) -> None:
    ids = deal(np.random.default_rng(3), 300_000, 7)
    expected = evaluate_batch(ids)
    assert (evaluate_batch(ids.astype(dtype)) == expected).all()
    assert (evaluate_batch(np.asfortranarray(ids.astype(dtype))) == expected).all()
    assert (evaluate_batch(ids.astype(dtype)[::-1])[::-1] == expected).all()


def test_r7_batch_refuses_bad_input() -> None:
    assert evaluate_batch(np.empty((0, 7), np.int64)).shape == (0,)
    for bad in (np.zeros((3, 4), np.int64), np.zeros((3, 8), np.int64), np.zeros(7, np.int64)):
        with pytest.raises(InvalidCard):
            evaluate_batch(bad)
    with pytest.raises(InvalidCard):
        evaluate_batch(np.array([[0, 1, 2, 3, 4, 5, 52]]))
    with pytest.raises(InvalidCard):
        evaluate_batch(np.array([[0, 1, 2, 3, -1]], np.int8))
    with pytest.raises(InvalidCard):
        evaluate_batch(np.zeros((2, 5), np.float64))


# ---------------------------------------------------------------------------------------------
# Exhaustive checks.

FIVE_CARD_COUNTS = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4]
SEVEN_CARD_COUNTS = [
    23294460, 58627800, 31433400, 6461620, 6180020, 4047644, 3473184, 224848, 37260, 4324,
]


@pytest.mark.slow
def test_r7_all_five_card_hands() -> None:
    every = colex_combinations(52, 5)
    assert len(every) == 2_598_960
    strengths = evaluate_batch(every)
    assert np.bincount(categories_batch(strengths), minlength=10).tolist() == FIVE_CARD_COUNTS
    distinct, first_row = np.unique(strengths, return_index=True)
    assert distinct.tolist() == list(range(1, 7463))

    # One hand per strength, in strength order: the reference keys must strictly increase.
    keys = [ref_key5([FULL_DECK[i] for i in every[row]]) for row in first_row]
    assert all(low < high for low, high in itertools.pairwise(keys))

    # The batch path equals the scalar one on every five-card hand.
    scalar = [strength_of([FULL_DECK[i] for i in row]) for row in every.tolist()]
    assert np.array_equal(np.array(scalar), strengths)

    rng = np.random.default_rng(5)
    sample = rng.choice(len(every), 20_000, replace=False)
    by_key = dict(zip(keys, distinct.tolist(), strict=True))
    for row in sample:
        hand = [FULL_DECK[i] for i in every[row]]
        assert by_key[ref_key5(hand)] == strengths[row] == strength_of(hand)


@pytest.mark.slow
def test_r7_all_seven_card_hands_category_distribution() -> None:
    six = colex_combinations(51, 6)  # subsets of range(m) are the first comb(m, 6) rows
    counts = np.zeros(10, dtype=np.int64)
    for top in range(6, 52):  # hands grouped by their highest card id
        block = np.empty((comb(top, 6), 7), dtype=np.uint8)
        block[:, :6] = six[: len(block)]
        block[:, 6] = top
        counts += np.bincount(categories_batch(evaluate_batch(block)), minlength=10)
    assert counts.sum() == comb(52, 7)
    assert counts.tolist() == SEVEN_CARD_COUNTS
