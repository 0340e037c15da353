"""The round state machine: R1 dealing order, R2 phases and allowed actions, R8 automatic
decisions, R9 voids. The clock is a parameter, so the tests move it by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from casino_holdem.core.round import (
    Action,
    AutoReason,
    InvalidBet,
    Limits,
    Phase,
    Round,
    RuleViolation,
    Timers,
)
from casino_holdem.core.rules import Result, Stage, VoidReason
from casino_holdem.core.shuffle import seeded_shuffle

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
SECOND = dt.timedelta(seconds=1)
TIMERS = Timers(betting=15 * SECOND, decision=10 * SECOND)
D = Decimal


@pytest.fixture
def round_(standard) -> Round:
    return Round.open(standard, seeded_shuffle("round"), Limits(ante_min=D(1), ante_max=D(500), bonus_min=D(1),
                                                                  bonus_max=D(100), max_bettors=3), TIMERS, T0)


def dealt(round_: Round, *bettors: str) -> Round:
    for bettor in bettors:
        round_.place_bets(bettor, "USD", D(10), D(5), True, now=T0)
    round_.advance(T0 + 15 * SECOND)
    return round_


def test_r1_dealing_order_player_dealer_player_dealer_burn_flop_burn_turn_burn_river(round_: Round) -> None:
    deck = round_.deck
    dealt(round_, "a")
    assert round_.phase is Phase.PRE_FLOP
    assert round_.cards.player == (deck[0], deck[2]) and round_.cards.dealer == (deck[1], deck[3])
    assert round_.cards.board == ()
    round_.act("a", Action.FLOP, now=T0 + 16 * SECOND)
    round_.advance(T0 + 16 * SECOND)
    assert round_.cards.board == (deck[5], deck[6], deck[7])
    round_.act("a", Action.CHECK, now=T0 + 17 * SECOND)
    round_.advance(T0 + 17 * SECOND)
    assert round_.cards.board[3] == deck[9]
    round_.act("a", Action.CHECK, now=T0 + 18 * SECOND)
    round_.advance(T0 + 18 * SECOND)
    assert round_.phase is Phase.SHOWDOWN and round_.cards.board[4] == deck[11] and round_.cards.complete


def test_r1_a_round_needs_a_full_deck(standard) -> None:
    with pytest.raises(RuleViolation, match="R1: a deck has 52 cards"):
        Round.open(standard, seeded_shuffle("x")[:51], Limits(), TIMERS, T0)


@pytest.mark.parametrize("currency, ante, bonus, field, message", [
    ("USD", D("0.5"), D(0), "ante", "below the table minimum 1 USD"),
    ("USD", D("501"), D(0), "ante", "above the table maximum 500 USD"),
    ("THB", D("12475"), D(0), "ante", "above the table maximum 12500 THB"[:-9]),
    ("USD", D("0.001"), D(0), "ante", "not a whole number of the smallest USD unit 0.01"),
    ("JPY", D("150.5"), D(0), "ante", "not a whole number of the smallest JPY unit 1"),
    ("USD", D(0), D(0), "ante", "must be positive"),
    ("USD", D(10), D(101), "bonus", "above the table maximum 100 USD"),
    ("USD", D(10), D(-1), "bonus", "must be positive"),
    ("XYZ", D(10), D(0), "currency", "unknown currency 'XYZ'"),
])
def test_r2_1_bets_outside_limits_or_units_are_refused(round_: Round, currency: str, ante: Decimal, bonus: Decimal,
                                                      field: str, message: str) -> None:
    if currency == "THB":  # 12475 THB = 499 USD × 25: inside the scaled limits (R6)
        round_.place_bets("a", currency, ante, bonus, now=T0)
        return
    with pytest.raises(InvalidBet, match=message) as caught:
        round_.place_bets("a", currency, ante, bonus, now=T0)
    assert caught.value.field == field and not round_.bettors


def test_r2_1_one_set_of_bets_per_bettor_a_cap_and_a_deadline(round_: Round) -> None:
    round_.place_bets("a", "USD", D(10), now=T0)
    with pytest.raises(RuleViolation, match="already placed"):
        round_.place_bets("a", "USD", D(10), now=T0)
    round_.place_bets("b", "USD", D(10), now=T0)
    round_.place_bets("c", "USD", D(10), now=T0)
    with pytest.raises(RuleViolation, match="table is full"):
        round_.place_bets("d", "USD", D(10), now=T0)
    with pytest.raises(RuleViolation, match="R2.1: betting is closed"):
        fresh = Round.open(round_.paytable, round_.deck, Limits(), TIMERS, T0)
        fresh.place_bets("e", "USD", D(1), now=T0 + 15 * SECOND)


def test_r6_progressive_stake_is_the_currency_multiplier(round_: Round) -> None:
    assert round_.place_bets("a", "KRW", D(10000), progressive=True, now=T0).progressive == 1000
    assert round_.place_bets("b", "USD", D(10), progressive=False, now=T0).progressive == 0


def test_a_betting_window_nobody_bet_in_is_reopened_not_dealt(round_: Round) -> None:
    assert round_.advance(T0 + 15 * SECOND) == []
    assert round_.phase is Phase.BETTING and round_.deadline == T0 + 30 * SECOND and round_.dealt_count == 0


@pytest.mark.parametrize("phase_actions, action, message", [
    ([], Action.BET, r"R2.3: bet is not allowed now \(fold or flop\)"),
    ([], Action.CHECK, r"R2.3: check is not allowed now"),
    ([Action.FLOP], Action.FOLD, r"R2.4: fold is not allowed now \(bet or check\)"),
    ([Action.FLOP], Action.FLOP, r"R2.4: flop is not allowed now"),
    ([Action.FLOP, Action.CHECK], Action.FOLD, r"R2.5: fold is not allowed now"),
])
def test_r2_only_the_allowed_actions_per_street(round_: Round, phase_actions: list[Action], action: Action,
                                                 message: str) -> None:
    dealt(round_, "a", "b")
    for earlier in phase_actions:
        round_.act("a", earlier, now=T0)
        round_.act("b", earlier, now=T0)
        round_.advance(T0 + 20 * SECOND)
    with pytest.raises(RuleViolation, match=message):
        round_.act("a", action, now=T0)


def test_r2_a_decision_is_taken_once_and_a_fold_ends_the_bettors_game(round_: Round) -> None:
    dealt(round_, "a", "b")
    round_.act("a", Action.FOLD, now=T0)
    round_.act("b", Action.FLOP, now=T0)
    with pytest.raises(RuleViolation, match="already decided on the pre-flop"):
        round_.act("b", Action.FOLD, now=T0)
    round_.advance(T0 + 16 * SECOND)
    with pytest.raises(RuleViolation, match="R2.3: a folded and takes no further part"):
        round_.act("a", Action.BET, now=T0)
    assert round_.allowed_actions("a") == () and round_.allowed_actions("b") == (Action.BET, Action.CHECK)
    with pytest.raises(RuleViolation, match="zed has no bets"):
        round_.act("zed", Action.BET, now=T0)


def test_r8_timeout_before_the_flop_folds_after_it_checks(round_: Round) -> None:
    dealt(round_, "a", "b")
    round_.act("b", Action.FLOP, now=T0 + 16 * SECOND)
    assert round_.advance(T0 + 24 * SECOND) == []  # the window is still open for a
    automatic = round_.advance(T0 + 25 * SECOND)
    assert [(d.street, d.action, d.automatic) for d in automatic] == [("preflop", Action.FOLD, AutoReason.TIMEOUT)]
    assert round_.bettors["a"].folded and round_.phase is Phase.FLOP
    automatic = round_.advance(T0 + 35 * SECOND)
    assert [(d.street, d.action, d.automatic) for d in automatic] == [("flop", Action.CHECK, AutoReason.TIMEOUT)]
    assert round_.phase is Phase.TURN and round_.bettors["b"].stake().turn == 0


def test_r2_the_window_closes_early_when_everyone_has_acted(round_: Round) -> None:
    dealt(round_, "a")
    round_.act("a", Action.FLOP, now=T0 + 16 * SECOND)
    assert round_.due(T0 + 16 * SECOND)
    round_.advance(T0 + 16 * SECOND)
    assert round_.phase is Phase.FLOP and round_.deadline == T0 + 26 * SECOND


def test_r8_everyone_folded_the_board_still_comes_for_p3(round_: Round) -> None:
    dealt(round_, "a")
    round_.act("a", Action.FOLD, now=T0 + 16 * SECOND)
    for _ in range(3):
        round_.advance(T0 + 16 * SECOND)
    assert round_.phase is Phase.SHOWDOWN and len(round_.cards.board) == 5


def test_r8_a_disconnection_decides_now_and_for_every_later_street_until_reconnection(round_: Round) -> None:
    dealt(round_, "a", "b")
    round_.act("a", Action.FLOP, now=T0)
    round_.act("b", Action.FLOP, now=T0)
    round_.advance(T0 + 16 * SECOND)
    decided = round_.disconnect("a", now=T0 + 17 * SECOND)
    assert [(d.action, d.automatic) for d in decided] == [(Action.CHECK, AutoReason.DISCONNECT)]
    round_.act("b", Action.BET, now=T0 + 17 * SECOND)
    decided = round_.advance(T0 + 17 * SECOND)
    assert [(d.street, d.automatic) for d in decided] == [("turn", AutoReason.DISCONNECT)]
    round_.reconnect("a")
    assert round_.allowed_actions("a") == ()


def test_r8_a_disconnection_before_the_flop_folds(round_: Round) -> None:
    round_.place_bets("a", "USD", D(10), now=T0)
    round_.disconnect("a", now=T0 + SECOND)
    decided = round_.advance(T0 + 15 * SECOND)
    assert [(d.action, d.automatic) for d in decided] == [(Action.FOLD, AutoReason.DISCONNECT)]


def test_exposure_is_what_the_bettor_may_still_be_asked_for(round_: Round) -> None:
    dealt(round_, "a", "b")
    assert round_.bettors["a"].exposure == D(40)
    round_.act("a", Action.FLOP, now=T0)
    round_.act("b", Action.FOLD, now=T0)
    assert round_.bettors["a"].exposure == D(20) and round_.bettors["b"].exposure == 0
    assert round_.bettors["a"].committed == D(10 + 5 + 1 + 20)


def test_settle_only_at_showdown_and_once(round_: Round) -> None:
    dealt(round_, "a")
    with pytest.raises(RuleViolation, match="not at showdown"):
        round_.settle(D(0))
    round_.act("a", Action.FLOP, now=T0)
    for action in (None, Action.CHECK, Action.CHECK):
        if action:
            round_.act("a", action, now=T0)
        round_.advance(T0 + 16 * SECOND)
    settlement = round_.settle(D(100))
    assert round_.phase is Phase.SETTLED and settlement.result in tuple(Result)
    with pytest.raises(RuleViolation):
        round_.void(VoidReason.OPERATOR, D(100))


@pytest.mark.parametrize("steps, stage", [(0, Stage.BETTING), (1, Stage.HOLE_CARDS), (2, Stage.FLOP), (3, Stage.TURN),
                                          (4, Stage.RIVER)])
def test_r9_void_stage_defaults_to_the_step_under_way(round_: Round, steps: int, stage: Stage) -> None:
    round_.place_bets("a", "USD", D(10), now=T0)
    for step in range(steps):
        if step:
            round_.act("a", Action.FLOP if step == 1 else Action.CHECK, now=T0)
        round_.advance(T0 + 16 * SECOND)
    settlement = round_.void(VoidReason.OPERATOR, D(7))
    assert settlement.void.stage is stage and round_.phase is Phase.VOID and settlement.pool.after == 7


# --- verify / can / do: bets and decisions answer the same way (R2.1, R2.3-R2.5, R8) ---------------

def test_r2_1_a_bet_is_verified_before_it_is_placed(round_: Round) -> None:
    assert round_.can_bet("a", "USD", D(10), D(5), now=T0)
    assert not round_.can_bet("a", "USD", D(501), now=T0) and not round_.can_bet("a", "XYZ", D(10), now=T0)
    with pytest.raises(InvalidBet, match=r"^R2\.1: ante 501: above the table maximum 500 USD$") as caught:
        round_.verify_bet("a", "USD", D(501), now=T0)
    assert (caught.value.field, caught.value.rule) == ("ante", "R2.1")
    assert not round_.bettors  # verifying changes nothing
    round_.place_bets("a", "USD", D(10), now=T0)
    assert not round_.can_bet("a", "USD", D(10), now=T0)
    assert not round_.can_bet("b", "USD", D(10), now=T0 + 15 * SECOND)  # the betting window closed


def test_r8_a_decision_after_its_window_closed_is_refused_the_house_decides(round_: Round) -> None:
    dealt(round_, "a")  # the pre-flop window closes at T0 + 25 s
    assert round_.can_decide("a", Action.FLOP, now=T0 + 24 * SECOND)
    assert not round_.can_decide("a", Action.FLOP, now=T0 + 25 * SECOND)
    assert round_.allowed_actions("a", T0 + 25 * SECOND) == () and round_.allowed_actions("a") == (Action.FOLD,
                                                                                                   Action.FLOP)
    with pytest.raises(RuleViolation, match=r"^R8: the decision window has closed; the house decides") as caught:
        round_.act("a", Action.FLOP, now=T0 + 25 * SECOND)
    assert (caught.value.rule, caught.value.field) == ("R8", "action") and not round_.bettors["a"].decisions
    automatic = round_.advance(T0 + 25 * SECOND)
    assert [(d.action, d.automatic) for d in automatic] == [(Action.FOLD, AutoReason.TIMEOUT)]


def test_r2_the_other_refusals_come_before_the_window(round_: Round) -> None:
    dealt(round_, "a")
    with pytest.raises(RuleViolation, match=r"^R2\.3: check is not allowed now"):
        round_.verify_decision("a", Action.CHECK, now=T0 + 60 * SECOND)


def test_every_core_error_is_a_value_error_naming_field_and_rule(round_: Round) -> None:
    from casino_holdem.core.errors import CoreError

    with pytest.raises(CoreError) as caught:
        round_.place_bets("a", "USD", D("0.001"), now=T0)
    assert isinstance(caught.value, ValueError)
    assert (caught.value.field, caught.value.rule) == ("ante", "R6")


def test_r1_r2_the_phase_table_deals_every_card_once_in_dealing_order() -> None:
    from casino_holdem.core.phases import DEALING_ORDER, PHASES, PLAY_ORDER

    dealt = [step for rules in PLAY_ORDER for step in rules.deals_on_entry]
    assert dealt == list(DEALING_ORDER) and [step.position for step in dealt] == list(range(12))
    assert [PHASES[p].automatic for p in (Phase.PRE_FLOP, Phase.FLOP, Phase.TURN)] == [
        Action.FOLD, Action.CHECK, Action.CHECK]  # R8: fold before the flop is dealt, check after
