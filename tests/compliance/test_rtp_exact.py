"""Exact figures of compliance/rtp.py, each checked by a second, independent method."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from math import comb, perm

import numpy as np
import pytest

from casino_holdem.compliance import rtp
from casino_holdem.compliance.exact import PAIRS, Enumeration
from casino_holdem.compliance.simulate import TableSetup, simulate
from casino_holdem.compliance.stats import return_ratio
from casino_holdem.compliance.strategies import AlwaysPlay, Basic
from casino_holdem.core.cards import FULL_DECK, Card, parse_cards
from casino_holdem.core.paytable import Paytable
from casino_holdem.core.progressive import royal_street
from casino_holdem.core.rules import bonus_line

# --- R4: the Bonus ------------------------------------------------------------------------------

#: hole-card combinations per line, counted by hand: C(4,2) aces; 4 AKs; 2x4 AQs/AJs; 4x4-4 AKo; ...
BONUS_COMBOS = {"aa": 6, "ak_suited": 4, "aq_aj_suited": 8, "ak_offsuit": 12, "kk_qq_jj": 18,
                "aq_aj_offsuit": 24, "pair_2_to_10": 54}


def brute_force_bonus(paytable: Paytable) -> Fraction:
    """Second method: settle every Player hand with the core's own R4 classifier; for AA, every
    Dealer hand as well."""
    total = Fraction(0)
    for player in itertools.combinations(FULL_DECK, 2):
        line = bonus_line(player)
        if line == "aa":
            rest = [card for card in FULL_DECK if card not in player]
            for dealer in itertools.combinations(rest, 2):
                total += Fraction(paytable.bonus.odds(bonus_line(player, dealer)) + 1, 1326 * 1225)
        elif line is not None:
            total += Fraction(paytable.bonus.odds(line) + 1, 1326)
    return total


def test_r4_bonus_lines_count_the_hole_card_combinations(standard: Paytable) -> None:
    figures = rtp.bonus_figures(standard)
    ways = {line.key: line.ways for line in figures.lines}
    assert ways["aa_vs_dealer_aa"] == 6
    assert ways["aa"] == 6 * 1224
    for key, combos in BONUS_COMBOS.items():
        if key != "aa":
            assert ways[key] == combos * 1225


def test_r4_bonus_rtp_equals_brute_force_and_the_published_edge(standard: Paytable) -> None:
    figures = rtp.bonus_figures(standard)
    assert figures.rtp == brute_force_bonus(standard) == Fraction(148562, 162435)
    assert 0.0850 < float(figures.house_edge) < 0.0860      # published: about 8.5 %


def test_r4_bonus_rtp_follows_the_paytable(standard: Paytable) -> None:
    """Computed from the file, never typed in: a different pay table gives its own figure."""
    richer = dataclasses.replace(standard, bonus=dataclasses.replace(standard.bonus, aa=40, pair_2_to_10=4))
    assert rtp.bonus_figures(richer).rtp == brute_force_bonus(richer)
    assert rtp.bonus_figures(richer).rtp - rtp.bonus_figures(standard).rtp == Fraction(
        6 * 1224 * 10 + 54 * 1225, 1326 * 1225)


def test_r2_3_a_fold_loses_the_bonus(standard: Paytable) -> None:
    played = rtp.played_combos(AlwaysPlay())
    aces = rtp.bonus_codes(rtp.HOLES) == 2
    folding_aces = rtp.bonus_figures(standard, played & ~aces)
    assert folding_aces.folded_paying == 6
    assert {line.key: line.ways for line in folding_aces.lines}["aa"] == 0


# --- R5: the Progressive --------------------------------------------------------------------

def p1_by_positions() -> dict[str | None, Fraction]:
    """Second method for P1: place one suit's royal on 5 of the Player's 7 dealt positions (2 hole,
    3 flop, turn, river) in every way, ask the core's ``royal_street``, and weight each placement by
    its probability 5! x 47 x 46 / (52)_7 (the other two positions hold any other cards)."""
    weight = Fraction(perm(5) * 47 * 46, perm(52, 7))
    result: dict[str | None, Fraction] = {}
    filler = parse_cards(["2c", "3d"])
    for suit in range(4):
        royal = [Card.of(rank, suit) for rank in range(8, 13)]
        for places in itertools.combinations(range(7), 5):
            cards, royal_left, filler_left = [], list(royal), list(filler)
            for position in range(7):
                cards.append(royal_left.pop() if position in places else filler_left.pop())
            street = royal_street(cards[:2], cards[2:])
            result[street] = result.get(street, Fraction(0)) + weight
    return result


def test_r5_p1_streets_equal_the_core_on_every_placement() -> None:
    exact = rtp.p1_probabilities()
    by_positions = p1_by_positions()
    assert exact == {street: by_positions[street] for street in ("flop", "turn", "river")}
    assert exact["flop"] == Fraction(4, comb(52, 5))
    # with the board-alone royal (P3), every royal flush in 7 cards: 4324 / C(52,7)
    assert sum(exact.values()) + by_positions[None] == Fraction(4324, comb(52, 7))
    assert by_positions[None] == Fraction(4, comb(52, 5))


def test_r5_p1_given_the_hole_cards() -> None:
    ah_kh = [Card.parse("Ah").id, Card.parse("Kh").id]
    flop, turn, _ = rtp.royal_chances(ah_kh)
    assert flop == Fraction(1, comb(50, 3))                     # Qh Jh Th exactly
    assert flop + turn == Fraction(comb(47, 1), comb(50, 4))
    assert rtp.royal_chances([Card.parse("2c").id, Card.parse("3d").id]) == (0, 0, 0)


@pytest.mark.slow
def test_r5_p3_and_p2_equal_their_closed_forms(enumeration: Enumeration) -> None:
    """P3 from the 5-card counts; P2 from the published 7-card counts: 21 splits of each 7-card
    straight flush / quads, less the splits whose board alone pays P3 (no double payment). A
    straight-flush board stays a straight flush with the hole cards unless they make it royal
    (K-high board + the ace: 4 x 46 hands; Q-high board + A K: 4 x 1); a quads board stays quads."""
    assert rtp.p3_probabilities(enumeration) == {
        "royal_flush": Fraction(4, 2_598_960), "straight_flush": Fraction(36, 2_598_960),
        "four_of_a_kind": Fraction(624, 2_598_960)}
    sf_boards_staying_sf = 36 * 1081 - (4 * 46 + 4 * 1)
    assert rtp.p2_probabilities(enumeration) == {
        "straight_flush": Fraction(21 * 37_260 - sf_boards_staying_sf, PAIRS),
        "four_of_a_kind": Fraction(21 * 224_848 - 624 * 1081, PAIRS)}


@pytest.mark.slow
def test_r5_p1_closed_form_equals_the_enumeration(enumeration: Enumeration) -> None:
    """The enumeration counts royal flushes that use a hole card (board not royal): P1's total."""
    royal_with_hole = enumeration.joint[:, 9, :3].sum()
    assert sum(rtp.p1_probabilities().values()) == Fraction(int(royal_with_hole), PAIRS)


@pytest.mark.slow
def test_r5_pool_model_is_consistent(standard: Paytable, house_flush: Paytable, enumeration: Enumeration) -> None:
    p1, p2, p3 = rtp.p1_probabilities(), rtp.p2_probabilities(enumeration), rtp.p3_probabilities(enumeration)
    model = rtp.pool_model(standard, "always-play", p1, p2, p3)
    assert model.value_at(model.break_even_pool) == 1
    # stationary: at the long-run pool, expected payouts equal the contribution
    assert model.fixed + model.alpha * model.long_run_pool == model.contribution == Fraction(19, 20)
    assert model.top_up == 0 and model.top_up_exact
    seeded = rtp.pool_model(house_flush, "always-play", p1, p2, p3)
    assert seeded.seed == 500 and not seeded.top_up_exact and seeded.long_run_return >= seeded.contribution


# --- R3: the main game ----------------------------------------------------------------------

@pytest.mark.slow
def test_r3_always_play_exact_within_a_seeded_simulation(standard: Paytable, house_flush: Paytable,
                                                         enumeration: Enumeration) -> None:
    """Second method: 1.5 million simulated rounds (seeded) must cover the exact return."""
    for paytable in (standard, house_flush):
        exact = rtp.main_exact(paytable, enumeration, AlwaysPlay())
        assert exact.method == "exact" and exact.staked == 3 and exact.fold_rate == 0
        run = simulate(TableSetup(paytable, AlwaysPlay()), 1_500_000, seed=20)
        estimate = return_ratio(run.sums["main"], run.rounds)
        assert estimate is not None
        assert abs(estimate.value - float(exact.rtp)) < 3.3 * estimate.error   # 99.9 %
        assert exact.by_bet["flop"][1] == 2                                      # R3: the Flop bet is fair
    flush = rtp.main_exact(house_flush, enumeration, AlwaysPlay())
    assert flush.rtp < rtp.main_exact(standard, enumeration, AlwaysPlay()).rtp  # a harder qualifier


@pytest.mark.slow
def test_r2_3_basic_folds_exactly_its_sixty_combinations(standard: Paytable, enumeration: Enumeration) -> None:
    figures = rtp.compute(standard, [Basic()], rounds=20_000, seed=3)
    basic = figures.strategies[0]
    assert basic.fold_rate == Fraction(60, 1326)
    assert basic.bonus.rtp == figures.bonus.rtp                # no paying Bonus hand is folded
    assert basic.main.method == "simulation" and "rtp" in basic.main.estimates
    # folded bettors keep P3 only: fewer fixed prizes than a bettor who always plays
    always = rtp.pool_model(standard, "always", figures.p1, figures.p2, figures.p3)
    assert basic.pool.fixed < always.fixed and basic.pool.alpha <= always.alpha


def test_a_strategy_that_reads_suits_has_no_exact_preflop_figures() -> None:
    class SuitReader(AlwaysPlay):
        def preflop(self, hole: np.ndarray) -> np.ndarray:
            return (hole[:, 0] & 3) != 0                      # folds when its first card is a club

    with pytest.raises(rtp.NotSuitBlind):
        rtp.played_classes(SuitReader())


@pytest.mark.slow
def test_reference_probabilities_are_distributions(standard: Paytable, enumeration: Enumeration) -> None:
    reference = rtp.reference_probabilities(enumeration, standard)
    assert sum(reference["bonus"].values()) == 1
    assert sum(reference["category"].values()) == 1
    outcome = reference["outcome"]
    assert outcome[0] + outcome[1] + outcome[2] == 1 and outcome[0] == outcome[2] and outcome[3] < outcome[0]
