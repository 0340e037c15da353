"""Live dealing in the core (R1, R8, R9): cards entered one by one in R1 order, the round waiting
for each card it needs, card-entry validation, and the R9 incident rulings."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino_holdem.core.cards import Card
from casino_holdem.core.errors import InvalidCard
from casino_holdem.core.incidents import Effect, IncidentKind, Report, can_report, rule
from casino_holdem.core.live import read_code
from casino_holdem.core.phases import DEALING_ORDER
from casino_holdem.core.round import Action, Limits, Phase, Round, RuleViolation, Timers
from casino_holdem.core.rules import Result, Stage, VoidReason
from casino_holdem.core.shuffle import seeded_shuffle

T0 = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
SECOND = dt.timedelta(seconds=1)
TIMERS = Timers(betting=15 * SECOND, decision=10 * SECOND)
D = Decimal
#: the cards a live dealer deals in R1 order (a seeded deck, so the RNG twin deals the same)
CARDS = [str(card) for card in seeded_shuffle("live")[:12]]


@pytest.fixture
def live(standard) -> Round:
    round_ = Round.open_live(standard, Limits(), TIMERS, T0)
    round_.place_bets("p1", "USD", D(10), D(5), True, now=T0)
    return round_


def closed(round_: Round) -> Round:
    round_.advance(T0 + 15 * SECOND)
    return round_


def deal(round_: Round, count: int, at: dt.datetime = T0 + 16 * SECOND) -> None:
    for code in CARDS[round_.dealt_count:round_.dealt_count + count]:
        round_.deal_card(code, now=at)


def test_r1_a_live_round_takes_its_cards_in_dealing_order_and_waits_for_each(live: Round) -> None:
    closed(live)
    assert live.phase is Phase.PRE_FLOP and live.awaiting_cards and live.deadline is None
    assert [live.next_step.label] == ["Player 1st"]  # type: ignore[union-attr]
    labels = []
    for code in CARDS[:4]:
        assert not live.can_decide("p1", Action.FLOP, now=T0 + 16 * SECOND)
        labels.append(live.deal_card(code, now=T0 + 16 * SECOND).label)
    assert labels == ["Player 1st", "Dealer 1st", "Player 2nd", "Dealer 2nd"]
    # R8: the window starts when the last hole card is dealt
    assert live.deadline == T0 + 26 * SECOND and not live.awaiting_cards
    assert live.cards.player == (Card.parse(CARDS[0]), Card.parse(CARDS[2]))


def test_r1_a_live_round_settles_exactly_as_the_rng_round_on_the_same_cards(standard, live: Round) -> None:
    rng = Round.open(standard, seeded_shuffle("live"), Limits(), TIMERS, T0)
    rng.place_bets("p1", "USD", D(10), D(5), True, now=T0)
    closed(live)
    closed(rng)
    for count, action in ((4, Action.FLOP), (4, Action.BET), (2, Action.CHECK)):
        deal(live, count)
        for round_ in (live, rng):
            round_.act("p1", action, now=T0 + 17 * SECOND)
            round_.advance(T0 + 17 * SECOND)
    assert live.phase is Phase.SHOWDOWN and live.awaiting_cards and not live.due(T0 + 99 * SECOND)
    with pytest.raises(RuleViolation, match="R2.7"):
        live.settle(D(100))
    deal(live, 2)
    assert live.settle(D(100)) == rng.settle(D(100))


@pytest.mark.parametrize("code", ["As", "Td", "10d", "AS", "10♦", " kH\n"])
def test_r1_the_console_reads_typed_and_scanned_codes(code: str) -> None:
    assert read_code(code) == Card.parse(code.replace("♦", "d"))


@pytest.mark.parametrize("code", ["", "1s", "Ax", "Kdd", "52", "11h"])
def test_r1_an_impossible_code_is_refused_naming_the_card(live: Round, code: str) -> None:
    closed(live)
    with pytest.raises(InvalidCard) as error:
        live.deal_card(code, now=T0)
    assert error.value.field == "card" and live.dealt_count == 0 and live.deck == ()


def test_r1_a_duplicate_card_is_refused_and_changes_nothing(live: Round) -> None:
    closed(live)
    deal(live, 2)
    with pytest.raises(InvalidCard, match=f"duplicate card {CARDS[0]}: already dealt as Player 1st"):
        live.deal_card(CARDS[0], now=T0)
    assert live.dealt_count == 2 and not live.can_deal_card(CARDS[1])


def test_r1_a_card_out_of_turn_is_refused(live: Round) -> None:
    with pytest.raises(RuleViolation, match="R1: out of turn: no card is due, betting is open"):
        live.deal_card(CARDS[0], now=T0)
    closed(live)
    deal(live, 4)
    with pytest.raises(RuleViolation, match="deciding on the preflop"):
        live.deal_card(CARDS[4], now=T0)
    live.act("p1", Action.FLOP, now=T0 + 17 * SECOND)
    live.advance(T0 + 17 * SECOND)
    with pytest.raises(RuleViolation, match="the next card goes to burn .position 4., not position 5") as error:
        live.deal_card(CARDS[4], now=T0, position=5)
    assert error.value.field == "position"
    assert live.deal_card(CARDS[4], now=T0, position=4).label == "burn"


@pytest.mark.parametrize("end", ["settled", "void"])
def test_r2_7_r9_a_card_for_a_finished_round_is_refused(live: Round, end: str) -> None:
    closed(live)
    if end == "void":
        live.void(VoidReason.OPERATOR, D(0))
    else:
        for count, action in ((4, Action.FLOP), (4, Action.CHECK), (2, Action.CHECK)):
            deal(live, count)
            live.act("p1", action, now=T0 + 17 * SECOND)
            live.advance(T0 + 17 * SECOND)
        deal(live, 2)
        live.settle(D(0))
    with pytest.raises(RuleViolation, match=f"the round is already {end}"):
        live.deal_card("2c", now=T0)


def test_r1_an_rng_round_takes_no_card_from_a_console(standard) -> None:
    rng = Round.open(standard, seeded_shuffle("x"), Limits(), TIMERS, T0)
    assert not rng.can_deal_card("As")


def test_r8_a_disconnected_bettor_is_decided_for_when_the_cards_are_out(live: Round) -> None:
    closed(live)
    live.disconnect("p1", now=T0 + 16 * SECOND)
    assert "preflop" not in live.bettors["p1"].decisions
    deal(live, 4)
    assert live.bettors["p1"].decisions["preflop"].action is Action.FOLD


# --- R9: the incident rulings ------------------------------------------------------------------

def at(round_: Round, cards: int) -> Round:
    """A live round with ``cards`` cards dealt, the player having bet on every street."""
    if cards == -1:
        return round_
    closed(round_)
    for count, action in ((4, Action.FLOP), (4, Action.BET), (2, Action.BET), (2, None)):
        step = min(count, cards - round_.dealt_count)
        deal(round_, step)
        if step < count or action is None:
            return round_
        round_.act("p1", action, now=T0 + 17 * SECOND)
        round_.advance(T0 + 17 * SECOND)
    return round_


R9_RULINGS = [
    # (incident, cards dealt (-1: betting open), effect, void reason, stage)
    (IncidentKind.EXPOSED_WHILE_SHUFFLING, -1, Effect.RESHUFFLE, None, Stage.BETTING),
    (IncidentKind.EXPOSED_WHILE_SHUFFLING, 0, Effect.RESHUFFLE, None, Stage.BETTING),
    (IncidentKind.CARD_EXPOSED, -1, Effect.VOID, VoidReason.CARD_EXPOSED_DURING_BETTING, Stage.BETTING),
    (IncidentKind.CARD_EXPOSED, 0, Effect.VOID, VoidReason.CARD_EXPOSED_DURING_BETTING, Stage.BETTING),
    (IncidentKind.CARD_EXPOSED, 1, Effect.RECORDED, None, Stage.HOLE_CARDS),
    (IncidentKind.CARD_EXPOSED, 9, Effect.RECORDED, None, Stage.TURN),
    (IncidentKind.DROPPED_IN_SHUFFLE, -1, Effect.USED_AGAIN, None, Stage.BETTING),
    (IncidentKind.DROPPED_ON_BURN, 4, Effect.USED_AGAIN, None, Stage.FLOP),
    (IncidentKind.DROPPED_ON_BURN, 5, Effect.USED_AGAIN, None, Stage.FLOP),
    (IncidentKind.DROPPED_ON_BURN, 10, Effect.USED_AGAIN, None, Stage.RIVER),
    (IncidentKind.DROPPED_FACE_UNSEEN, 0, Effect.USED_AGAIN, None, Stage.HOLE_CARDS),
    (IncidentKind.DROPPED_FACE_UNSEEN, 6, Effect.USED_AGAIN, None, Stage.FLOP),
    (IncidentKind.DROPPED_FACE_SEEN, 2, Effect.VOID, VoidReason.DROPPED_CARD_SEEN, Stage.HOLE_CARDS),
    (IncidentKind.DROPPED_FACE_SEEN, 11, Effect.VOID, VoidReason.DROPPED_CARD_SEEN, Stage.RIVER),
    (IncidentKind.DROPPED_IN_VIEW, 3, Effect.RECORDED, None, Stage.HOLE_CARDS),
    (IncidentKind.SHUFFLER_JAM, -1, Effect.VOID, VoidReason.SHUFFLER_JAM, Stage.BETTING),
    (IncidentKind.SHUFFLER_JAM, 3, Effect.VOID, VoidReason.SHUFFLER_JAM, Stage.HOLE_CARDS),
    (IncidentKind.SHUFFLER_JAM, 4, Effect.VOID, VoidReason.SHUFFLER_JAM, Stage.FLOP),
    (IncidentKind.OTHER_ERROR, 7, Effect.VOID, VoidReason.OPERATOR, Stage.FLOP),
]


@pytest.mark.parametrize(("kind", "cards", "effect", "reason", "stage"), R9_RULINGS)
def test_r9_each_incident_does_what_r9_says_at_its_stage(live: Round, kind: IncidentKind, cards: int, effect: Effect,
                                                         reason: VoidReason | None, stage: Stage) -> None:
    ruling = rule(at(live, cards), Report(kind, CARDS[0]))
    assert (ruling.effect, ruling.void_reason, ruling.stage) == (effect, reason, stage)
    assert (ruling.notice is None) == (effect is Effect.VOID)
    assert ruling.deck_restored == (reason is VoidReason.DROPPED_CARD_SEEN)


R9_IMPOSSIBLE = [
    (IncidentKind.EXPOSED_WHILE_SHUFFLING, 1, "the shuffle is over"),
    (IncidentKind.DROPPED_IN_SHUFFLE, 2, "the shuffle is over"),
    (IncidentKind.DROPPED_ON_BURN, 2, "no burn card"),
    (IncidentKind.DROPPED_FACE_UNSEEN, -1, "betting is open"),
    (IncidentKind.DROPPED_FACE_SEEN, -1, "betting is open"),
]


@pytest.mark.parametrize(("kind", "cards", "problem"), R9_IMPOSSIBLE)
def test_r9_an_incident_that_cannot_happen_now_is_refused(live: Round, kind: IncidentKind, cards: int,
                                                          problem: str) -> None:
    round_ = at(live, cards)
    with pytest.raises(RuleViolation, match=problem):
        rule(round_, Report(kind))
    assert not can_report(round_, Report(kind))


def test_r9_a_misdeal_caught_before_the_next_card_is_corrected_with_both_positions(live: Round) -> None:
    round_ = at(live, 2)
    ruling = rule(round_, Report(IncidentKind.MISDEAL, CARDS[1], wrong_position=0))
    assert (ruling.effect, ruling.wrong_position, ruling.corrected_to) == (Effect.CORRECTED, 0, 1)
    assert round_.cards.dealer == (Card.parse(CARDS[1]),)
    with pytest.raises(RuleViolation, match="its right position"):
        rule(round_, Report(IncidentKind.MISDEAL, CARDS[1], wrong_position=1))
    with pytest.raises(RuleViolation, match="has not been dealt"):
        rule(round_, Report(IncidentKind.MISDEAL, CARDS[5], wrong_position=1))


def test_r9_a_misdeal_caught_later_may_be_voided_by_the_house(live: Round) -> None:
    round_ = at(live, 3)
    assert rule(round_, Report(IncidentKind.MISDEAL, CARDS[0])).effect is Effect.RECORDED
    ruling = rule(round_, Report(IncidentKind.MISDEAL, CARDS[0], house_voids=True))
    assert (ruling.effect, ruling.void_reason) == (Effect.VOID, VoidReason.MISDEAL)


def test_r9_a_shuffler_jam_after_the_hole_cards_keeps_the_bonus(live: Round) -> None:
    round_ = at(live, 4)
    ruling = rule(round_, Report(IncidentKind.SHUFFLER_JAM))
    result = round_.void(ruling.void_reason, D(0), ruling.stage)  # type: ignore[arg-type]
    assert result.result is Result.VOID and result.bettors[0].bets["bonus"].stake == D(5)


def test_r9_no_incident_on_a_finished_or_rng_round(standard, live: Round) -> None:
    rng = Round.open(standard, seeded_shuffle("x"), Limits(), TIMERS, T0)
    with pytest.raises(RuleViolation, match="RNG round"):
        rule(rng, Report(IncidentKind.OTHER_ERROR))
    live.void(VoidReason.OPERATOR, D(0))
    assert not can_report(live, Report(IncidentKind.OTHER_ERROR))


def test_r1_the_dealing_order_has_twelve_steps() -> None:
    assert len(DEALING_ORDER) == len(CARDS) == 12


@given(order=st.permutations(range(52)), decisions=st.tuples(st.sampled_from([Action.FOLD, Action.FLOP]),
                                                             st.sampled_from([Action.BET, Action.CHECK]),
                                                             st.sampled_from([Action.BET, Action.CHECK])))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_r1_any_live_deal_settles_as_the_rng_deck_that_deals_the_same_cards(standard, order: list[int],
                                                                            decisions: tuple[Action, ...]) -> None:
    deck = tuple(Card(i) for i in order)
    live = Round.open_live(standard, Limits(), TIMERS, T0)
    rng = Round.open(standard, deck, Limits(), TIMERS, T0)
    for round_ in (live, rng):
        round_.place_bets("p1", "USD", D(10), D(5), True, now=T0)
        round_.advance(T0 + 15 * SECOND)
    for count, action in zip((4, 4, 2), decisions, strict=True):
        for _ in range(count):
            live.deal_card(deck[live.dealt_count], now=T0 + 16 * SECOND)
        for round_ in (live, rng):
            if not round_.bettors["p1"].folded:
                round_.act("p1", action, now=T0 + 17 * SECOND)
            round_.advance(T0 + 30 * SECOND)
    for _ in range(2):
        live.deal_card(deck[live.dealt_count], now=T0 + 31 * SECOND)
    assert live.settle(D(100)) == rng.settle(D(100))
