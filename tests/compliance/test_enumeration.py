"""The full enumeration (compliance/exact.py): every board, Player hand and Dealer hand.

Checked against brute force on sample boards and against published counts of 7-card hands."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from casino_holdem.compliance.exact import (
    BOARD_GROUPS,
    DEALER_HANDS,
    PAIRS,
    Enumeration,
    canonical_boards,
    remaining_hands,
    showdown_counts,
)
from casino_holdem.core.cards import Card
from casino_holdem.core.evaluator import Category, evaluate_batch, strength_of

#: published counts of 7-card hands by category (high card .. royal flush), C(52,7) in all
SEVEN_CARD_COUNTS = (23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
                     224_848, 37_260, 4_324)


def test_suit_classes_cover_every_board_once() -> None:
    boards, weights = canonical_boards()
    assert len(boards) == 134_459 and int(weights.sum()) == 2_598_960
    # a class never holds more boards than there are suit relabellings
    assert weights.min() >= 1 and weights.max() <= 24


def test_showdown_counts_equal_brute_force_over_dealer_hands() -> None:
    """R3/R7: for sample boards and Player hands, count the 990 Dealer hands one by one."""
    rng = np.random.default_rng(11)
    boards = np.sort(np.array([rng.choice(52, 5, replace=False) for _ in range(6)], np.uint8), axis=1)
    counts = showdown_counts(boards)
    hands = remaining_hands(boards)
    for b, board in enumerate(boards):
        for p in rng.choice(1081, 8, replace=False):
            hole = hands[b, p]
            rest = sorted(set(range(52)) - set(board.tolist()) - set(hole.tolist()))
            dealer = np.array([[x, y, *board] for x, y in itertools.combinations(rest, 2)])
            theirs, mine = evaluate_batch(dealer), int(counts["strength"][b, p])
            assert len(dealer) == DEALER_HANDS
            assert mine == strength_of([Card(int(c)) for c in (*hole, *board)])
            assert (counts["beat"][b, p], counts["tie"][b, p], counts["lose"][b, p]) == (
                (theirs > mine).sum(), (theirs == mine).sum(), (theirs < mine).sum())


def test_a_board_with_many_ties_is_counted_exactly() -> None:
    """A royal flush on the board: every hand plays the board, so every showdown ties."""
    board = np.array([[32, 36, 40, 44, 48]], np.uint8)      # Tc Jc Qc Kc Ac
    counts = showdown_counts(board)
    assert (counts["tie"] == DEALER_HANDS).all() and (counts["beat"] == 0).all()


@pytest.mark.slow
def test_seven_card_categories_match_the_published_counts(enumeration: Enumeration) -> None:
    """Every 7-card set is 21 (board, hole) splits, so each category count is 21 × the published one."""
    by_category = enumeration.joint.sum(axis=(0, 2))
    assert [int(n) for n in by_category] == [21 * n for n in SEVEN_CARD_COUNTS]
    assert int(enumeration.joint.sum()) == PAIRS


@pytest.mark.slow
def test_player_and_dealer_win_equally_often(enumeration: Enumeration) -> None:
    """R3: the Player's and the Dealer's hands are dealt alike, so wins and losses are symmetric."""
    assert int(enumeration.wins.sum()) == int(enumeration.losses.sum())
    assert int(enumeration.wins.sum() + enumeration.ties.sum() + enumeration.losses.sum()) == PAIRS * DEALER_HANDS


@pytest.mark.slow
def test_board_alone_counts_are_the_five_card_counts(enumeration: Enumeration) -> None:
    """R5 P3: 4 royal, 36 straight flush and 624 four-of-a-kind boards of 2,598,960, each with 1,081 hands."""
    board = enumeration.joint.sum(axis=(0, 1))
    expected = {"four_of_a_kind": 624, "straight_flush": 36, "royal_flush": 4}
    for key, boards in expected.items():
        assert Fraction(int(board[BOARD_GROUPS.index(key)]), PAIRS) == Fraction(boards, 2_598_960)


@pytest.mark.slow
def test_every_class_sees_every_board(enumeration: Enumeration) -> None:
    """Each of the 169 classes is dealt with each of the C(50,5) boards its cards leave."""
    per_class = enumeration.joint.sum(axis=(1, 2))
    sizes = np.array([6 if r == c else 4 if r > c else 12 for r in range(13) for c in range(13)])
    assert (per_class == sizes * 2_118_760).all()
    assert enumeration.joint[:, Category.ROYAL_FLUSH, BOARD_GROUPS.index("four_of_a_kind")].sum() == 0
