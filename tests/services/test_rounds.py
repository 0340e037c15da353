"""R2 decisions and R8 automatic decisions, driven by a frozen clock (freezegun)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from freezegun import freeze_time

from casino_holdem.extensions import db
from casino_holdem.models import GameRound
from casino_holdem.services import dealer_steps, rounds, viewing
from casino_holdem.services.errors import BadRequest, Conflict
from support.casino import DECISION, SECOND, T0


def _decisions(round_id: int) -> dict[int, dict[str, dict[str, str | None]]]:
    return {b["player_id"]: b["decisions"] for b in viewing.house_view(round_id)["bettors"]}


@pytest.fixture
def dealt(casino):
    """A round with two bettors, dealt to the pre-flop decision under a frozen clock."""
    with freeze_time(T0) as frozen:
        table = casino.table()
        alice, bob = casino.player(), casino.player()
        round_id = casino.open(table)
        for player in (alice, bob):
            rounds.place_bets(player, table, "10", request_id=f"bet-{player}")
        frozen.tick(dt.timedelta(seconds=10))
        assert dealer_steps.advance(table).event == "hole_cards"
        yield casino, frozen, table, round_id, alice, bob


def test_r8_no_decision_before_the_flop_is_an_automatic_fold(dealt) -> None:
    casino, frozen, table, round_id, alice, bob = dealt
    rounds.decide(alice, round_id, "flop", request_id="a1")
    frozen.tick(dt.timedelta(seconds=DECISION - 1))
    assert dealer_steps.advance(table) is None  # bob still has time
    frozen.tick(SECOND)
    step = dealer_steps.advance(table)
    assert (step.event, step.automatic) == ("flop", 1)
    assert _decisions(round_id)[bob]["preflop"] == {"action": "fold", "automatic": "timeout"}
    assert casino.balance(alice) == Decimal(1000 - 10 - 20)


def test_r8_no_decision_after_the_flop_is_an_automatic_check(dealt) -> None:
    _casino, frozen, table, round_id, alice, bob = dealt
    rounds.decide(alice, round_id, "flop", request_id="a1")
    rounds.decide(bob, round_id, "flop", request_id="b1")
    assert dealer_steps.advance(table).event == "flop"
    rounds.decide(alice, round_id, "bet", request_id="a2")
    frozen.tick(dt.timedelta(seconds=DECISION))
    assert dealer_steps.advance(table).event == "turn"
    assert _decisions(round_id)[bob]["flop"] == {"action": "check", "automatic": "timeout"}


def test_r8_a_late_decision_naming_its_street_never_lands_on_the_next_street(dealt) -> None:
    """A flop decision sent as the flop's window closed arrives while the turn is being decided:
    it is refused (409, field street), and the turn's decision stays the player's to make."""
    casino, frozen, table, round_id, alice, bob = dealt
    rounds.decide(alice, round_id, "flop", request_id="a1", street="preflop")
    rounds.decide(bob, round_id, "flop", request_id="b1", street="preflop")
    assert dealer_steps.advance(table).event == "flop"
    frozen.tick(dt.timedelta(seconds=DECISION))
    assert dealer_steps.advance(table).event == "turn"  # the house checked the flop for both (R8)
    with pytest.raises(Conflict, match="R8: the decision for the flop came after its window closed") as refused:
        rounds.decide(alice, round_id, "bet", request_id="a2", street="flop")
    assert refused.value.field == "street"
    assert "turn" not in _decisions(round_id)[alice]
    rounds.decide(alice, round_id, "bet", request_id="a3", street="turn")
    assert _decisions(round_id)[alice]["turn"] == {"action": "bet", "automatic": None}
    casino.assert_sound()


def test_r2_the_street_closes_early_when_everyone_has_decided(dealt) -> None:
    casino, _frozen, table, round_id, alice, bob = dealt
    for street, action in (("flop", "flop"), ("turn", "bet"), ("river", "check")):
        rounds.decide(alice, round_id, action, request_id=f"a-{street}")
        rounds.decide(bob, round_id, action, request_id=f"b-{street}")
        assert dealer_steps.advance(table).event == street  # no clock tick needed
    assert dealer_steps.advance(table).event == "settled"
    assert viewing.house_view(round_id)["phase"] == "settled"
    casino.assert_sound()


def test_r2_a_decision_is_taken_once_and_only_when_allowed(dealt) -> None:
    casino, frozen, _table, round_id, alice, bob = dealt
    with pytest.raises(Conflict, match="R2.3: bet is not allowed now"):
        rounds.decide(alice, round_id, "bet", request_id="x")
    first = rounds.decide(alice, round_id, "flop", request_id="a1")
    assert rounds.decide(alice, round_id, "flop", request_id="a1") == first  # a retry
    assert casino.balance(alice) == Decimal(1000 - 10 - 20)
    with pytest.raises(Conflict, match="already decided"):
        rounds.decide(alice, round_id, "fold", request_id="a2")
    with pytest.raises(BadRequest):
        rounds.decide(alice, round_id, "raise", request_id="a3")
    frozen.tick(dt.timedelta(seconds=DECISION))
    with pytest.raises(Conflict, match="R8"):
        rounds.decide(bob, round_id, "flop", request_id="b1")
    outsider = casino.player()
    with pytest.raises(Conflict, match="no bets"):
        rounds.decide(outsider, round_id, "flop", request_id="o1")


def test_r8_disconnection_before_the_flop_folds_and_after_it_checks(dealt) -> None:
    _casino, _frozen, table, round_id, alice, bob = dealt
    taken = rounds.disconnect(bob, table)
    assert [(d.street, d.action, d.automatic) for d in taken] == [("preflop", "fold", "disconnect")]
    rounds.decide(alice, round_id, "flop", request_id="a1")
    assert dealer_steps.advance(table).event == "flop"
    taken = rounds.disconnect(alice, table)
    assert [(d.street, d.action, d.automatic) for d in taken] == [("flop", "check", "disconnect")]
    assert dealer_steps.advance(table).event == "turn"
    assert _decisions(round_id)[alice]["turn"] == {"action": "check", "automatic": "disconnect"}


def test_r8_a_player_who_comes_back_rejoins_the_same_round(dealt) -> None:
    _casino, _frozen, table, round_id, alice, bob = dealt
    rounds.disconnect(alice, table)  # folded for her (R8)
    rounds.reconnect(alice, table)
    rounds.decide(bob, round_id, "flop", request_id="b1")
    assert dealer_steps.advance(table).event == "flop"
    view = viewing.round_view(round_id, bob)
    assert view["you"]["allowed_actions"] == ["bet", "check"]
    assert viewing.round_view(round_id, alice)["you"]["allowed_actions"] == []


def test_hidden_cards_stay_hidden_until_the_end(dealt) -> None:
    _casino, _frozen, _table, round_id, alice, _bob = dealt
    view = viewing.house_view(round_id)
    assert len(view["cards"]["player"]) == 2 and view["cards"]["dealer"] == [] and "reveal" not in view
    assert view["commitment"] and "deck" not in str(view["bettors"])


def test_a_betting_window_without_bets_is_reopened_not_dealt(casino) -> None:
    table = casino.table()
    round_id = casino.open(table)
    assert casino.run(table, T0 + 10 * SECOND) == ["betting_extended"]
    assert viewing.house_view(round_id)["phase"] == "betting"


@pytest.mark.parametrize("late", [False, True], ids=["in its window", "after its window"])
def test_r2_a_decision_reads_its_own_bet_and_the_round_keeps_every_bet_for_later_reads(dealt, late: bool) -> None:
    """A decision reads the round with the bettor's own bet alone (issue 10). A session that reads
    the round again afterwards (a replay, the dealer's loop) sees every bettor: found by the
    property test, where a replay in the same session lost the other bettor and disagreed with
    the settlement (R9, R10)."""
    casino, frozen, _table, round_id, alice, bob = dealt
    if late:
        frozen.tick(dt.timedelta(seconds=DECISION))
    try:
        rounds.decide(alice, round_id, "flop", request_id="a1")
    except Conflict:
        assert late  # R8: refused once the window is over
    assert sorted(bet.player_id for bet in db.session.get(GameRound, round_id).bets) == sorted((alice, bob))


def test_r2_1_a_bet_reads_its_round_without_the_others_bets_and_the_round_keeps_every_bet_for_later_reads(
        casino) -> None:
    """A bet reads its round without the round's bets (``raiseload``) and sets the bettor's own for
    its transaction (issue 10). SQLAlchemy keeps that option on the round's state; a later read
    of the round's bets in the same session, with the round object still alive, must still load
    every bettor rather than raise (the decision's read once hid them, above)."""
    with freeze_time(T0):
        table = casino.table()
        alice, bob = casino.player(), casino.player()
        round_row = db.session.get(GameRound, casino.open(table))  # held alive across the bets
        for player in (alice, bob):
            rounds.place_bets(player, table, "10", request_id=f"bet-{player}")
        assert sorted(bet.player_id for bet in round_row.bets) == [alice, bob]
        db.session.expire(round_row)
        assert sorted(bet.player_id for bet in round_row.bets) == [alice, bob]
