"""R3-R6 and R9 settlement: tables of cases and the invariants that keep money exact."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino_holdem.core.cards import Card, parse_cards
from casino_holdem.core.evaluator import Category, evaluate
from casino_holdem.core.money import POOL_QUANTUM, is_multiple_of
from casino_holdem.core.progressive import progressive_hits, royal_street, share_prize
from casino_holdem.core.rules import (
    ALL_BETS,
    DealtCards,
    Outcome,
    Result,
    Stage,
    Stake,
    Void,
    VoidReason,
    bonus_line,
    main_result,
    settle,
    settle_void,
)


def deal(player: str, dealer: str, board: str) -> DealtCards:
    return DealtCards(parse_cards(player.split()), parse_cards(dealer.split()), parse_cards(board.split()))


@pytest.mark.parametrize("player, dealer, line", [
    ("Ac Ad", "Ah As", "aa_vs_dealer_aa"), ("Ac Ad", "Ah Ks", "aa"), ("Ac Ad", "", "aa"),
    ("Ah Kh", "", "ak_suited"), ("Kh Ah", "", "ak_suited"),
    ("As Qs", "", "aq_aj_suited"), ("Jd Ad", "", "aq_aj_suited"),
    ("Ac Kd", "", "ak_offsuit"), ("Kc Kd", "", "kk_qq_jj"), ("Qc Qd", "", "kk_qq_jj"), ("Jc Jd", "", "kk_qq_jj"),
    ("Ac Qd", "", "aq_aj_offsuit"), ("Ah Jd", "", "aq_aj_offsuit"), ("Tc Td", "", "pair_2_to_10"),
    ("2c 2d", "", "pair_2_to_10"), ("Ac Td", "", None), ("Kc Qc", "", None), ("Ac 2c", "", None), ("7c 2d", "", None),
])
def test_r4_bonus_pay_lines(player: str, dealer: str, line: str | None) -> None:
    assert bonus_line(parse_cards(player.split()), parse_cards(dealer.split())) == line


@pytest.mark.parametrize("player, board, street", [
    ("As Ks", "Qs Js Ts 2c 3d", "flop"), ("As Ks", "Qs Js 2c Ts 3d", "turn"), ("As 2c", "Ks Qs Js 3d Ts", "river"),
    ("2c 3d", "As Ks Qs Js Ts", None),  # the board's royal is P3's: it uses no hole card (R5)
    ("As Kd", "Qs Js Ts 2c 3d", None),
])
def test_r5_p1_royal_street_is_where_it_first_appears(player: str, board: str, street: str | None) -> None:
    assert royal_street(parse_cards(player.split()), parse_cards(board.split())) == street


@pytest.mark.parametrize("player, board, p1, p2, p3", [
    ("9h 8h", "7h 6h 5h 2c Kd", None, Category.STRAIGHT_FLUSH, None),
    ("9c 9d", "9h 9s 2d Kd 5c", None, Category.FOUR_OF_A_KIND, None),
    ("2c 3d", "8c 8d 8h 8s Kd", None, None, Category.FOUR_OF_A_KIND),
    ("Th 2c", "5h 6h 7h 8h 9h", None, None, Category.STRAIGHT_FLUSH),  # no double payment [reading]
    ("As 2c", "9s Ts Js Qs Ks", "river", None, Category.STRAIGHT_FLUSH),  # P1 with P3
    ("2c 3d", "As Ks Qs Js Ts", None, None, Category.ROYAL_FLUSH),
    ("Ac Ad", "Kc Kd Kh 2c 3d", None, None, None),
])
def test_r5_which_tables_qualify(player: str, board: str, p1, p2, p3) -> None:
    hits = progressive_hits(deal(player, "", board))
    assert (hits.p1_street, hits.p2, hits.p3) == (p1, p2, p3)


def test_r3_main_result_by_strength() -> None:
    board = "2c 4d 6h 8s Ac"
    ak, aq = evaluate(parse_cards(f"Ah Kd {board}".split())), evaluate(parse_cards(f"As Qc {board}".split()))
    assert (main_result(ak, aq), main_result(aq, ak), main_result(ak, ak)) == (
        Result.PLAYER_WINS, Result.DEALER_WINS, Result.TIE)


def test_r6_share_rounds_each_payout_down_and_charges_the_pool_what_was_paid(standard) -> None:
    winners = [Stake("a", "USD", Decimal(10)), Stake("b", "KRW", Decimal(10000)), Stake("c", "VND", Decimal(200))]
    awards, paid = share_prize(Decimal(600), winners, standard.currencies, "P3", Category.STRAIGHT_FLUSH, None)
    assert [awards[k].amount for k in "abc"] == [Decimal("200.00"), Decimal("200000"), Decimal("4000.000")]
    assert paid == 600
    awards, paid = share_prize(Decimal(100), winners, standard.currencies, "P3", Category.FOUR_OF_A_KIND, None)
    assert [awards[k].amount for k in "abc"] == [Decimal("33.33"), Decimal("33333"), Decimal("666.666")]
    assert paid == Decimal("33.33") + Decimal("33.333") + Decimal("33.3333")


# --- property tests -------------------------------------------------------------------------------

RARE_DEALS = [  # progressive hits are rare at random; mix in every kind (R5)
    ("As Ks", "2c 7d", "Qs Js Ts 3h 4d"), ("As Ks", "2c 7d", "Qs Js 3h Ts 4d"), ("As 2c", "3d 4d", "Ks Qs Js 7d Ts"),
    ("2c 3d", "4h 5h", "As Ks Qs Js Ts"), ("9h 8h", "Ac Ad", "7h 6h 5h 2c Kd"), ("9c 9d", "Ah Kh", "9h 9s 2d Kd 5c"),
    ("2c 3d", "4h 5h", "8c 8d 8h 8s Kd"), ("As 2c", "3d 4d", "9s Ts Js Qs Ks"), ("Th 2c", "3d 4d", "5h 6h 7h 8h 9h"),
    ("Ac Ad", "Ah As", "2c 7d 9h Jc 4s"),
]
CURRENCY_ANTES = {"USD": "0.01", "EUR": "0.01", "RMB": "0.01", "THB": "0.01", "JPY": "1", "IDR": "0.001",
                  "VND": "0.001", "KRW": "1", "INR": "0.01", "MYR": "0.01", "AUD": "0.01"}


@st.composite
def deals(draw: st.DrawFn) -> DealtCards:
    if draw(st.booleans()):
        return deal(*draw(st.sampled_from(RARE_DEALS)))
    ids = draw(st.permutations(range(52)))[:9]
    cards = tuple(Card(i) for i in ids)
    return DealtCards(cards[:2], cards[2:4], cards[4:])


@st.composite
def stakes(draw: st.DrawFn, standard) -> list[Stake]:
    result = []
    for index in range(draw(st.integers(1, 6))):
        currency = draw(st.sampled_from(sorted(CURRENCY_ANTES)))
        unit = Decimal(CURRENCY_ANTES[currency])
        ante = unit * draw(st.integers(1, 100_000))
        bonus = unit * draw(st.integers(0, 5_000))
        progressive = standard.currency(currency).multiplier if draw(st.booleans()) else Decimal(0)
        folded = draw(st.booleans())
        turn, river = (draw(st.booleans()), draw(st.booleans())) if not folded else (False, False)
        result.append(Stake(f"b{index}", currency, ante, bonus, progressive,
                            flop=Decimal(0) if folded else ante * 2, turn=ante if turn else Decimal(0),
                            river=ante if river else Decimal(0), folded=folded))
    return result


pools = st.integers(0, 10**10).map(lambda n: Decimal(n) * POOL_QUANTUM)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_property_money_is_conserved_and_never_negative(data: st.DataObject, standard) -> None:
    """R5/R6: pool.after == before + contributions − paid exactly; awards cost exactly what they
    paid; no amount is negative; every payout is a whole number of its currency's unit."""
    cards, bettors, pool = data.draw(deals()), data.draw(stakes(standard)), data.draw(pools)
    settlement = settle(standard, cards, bettors, pool)
    money = settlement.pool
    assert money.after == money.before + money.contributions - money.paid
    assert money.after >= 0 and money.paid >= 0 and is_multiple_of(money.after, POOL_QUANTUM)
    assert money.contributions == Decimal("0.95") * sum(1 for s in bettors if s.progressive)
    assert sum((a.base_amount for b in settlement.bettors for a in b.awards), Decimal(0)) == money.paid
    for stake, result in zip(bettors, settlement.bettors, strict=True):
        unit = standard.currency(stake.currency).unit
        assert result.staked == stake.staked
        for name in ALL_BETS:
            bet = result.bets[name]
            assert bet.stake >= 0 and bet.returned >= 0 and is_multiple_of(bet.returned, unit)
            if bet.outcome is Outcome.PUSH:
                assert bet.returned == bet.stake
            if bet.outcome in (Outcome.LOSE, Outcome.NONE):
                assert bet.returned == 0
        if stake.folded:  # R2.3: a fold receives no main-game or Bonus payout
            assert result.bets["ante"].returned == result.bets["bonus"].returned == 0
            assert all(a.table == "P3" for a in result.awards)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), reason=st.sampled_from(list(VoidReason)), stage=st.sampled_from(list(Stage)))
def test_property_a_void_round_returns_every_stake_that_does_not_stand(data: st.DataObject, reason: VoidReason,
                                                                       stage: Stage, standard) -> None:
    """R9 [reading]: refunds everything still in play, reverses contributions, keeps earlier folds."""
    cards, bettors, pool = data.draw(deals()), data.draw(stakes(standard)), data.draw(pools)
    settlement = settle_void(standard, cards, bettors, pool, Void(reason, stage))
    assert settlement.result is Result.VOID
    assert (settlement.pool.after, settlement.pool.paid, settlement.pool.contributions) == (pool, 0, 0)
    bonus_stands = reason is VoidReason.SHUFFLER_JAM
    for stake, result in zip(bettors, settlement.bettors, strict=True):
        assert result.bets["progressive"].returned == stake.progressive
        for name in ("flop", "turn", "river"):
            assert result.bets[name].returned == stake.amount(name)
        assert result.bets["ante"].returned == (0 if stake.folded else stake.ante)
        if stake.folded:
            assert result.bets["bonus"].returned == 0
        elif not bonus_stands:
            assert result.bets["bonus"].returned == stake.bonus
        assert not result.awards


def test_r2_7_settlement_needs_the_river(standard) -> None:
    with pytest.raises(ValueError, match="R2.7"):
        settle(standard, deal("As Kd", "2c 3c", "4d 5d 6d 7d"), [], Decimal(0))
