"""Live dealing through the services (R1, R8, R9): a live table's round takes its cards from the
dealer's console in R1 order, is settled and voided by the same code as an RNG round, replays
from its recorded cards, and every R9 incident does what R9 says, to the cent."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from sqlalchemy import select

from casino_holdem.models import AuditEntry, IncidentRecord
from casino_holdem.services import history, jackpot, live_dealing, tables, verify
from casino_holdem.services.errors import BadRequest, Conflict, Forbidden, Unprocessable
from casino_holdem.services.viewing import NO_COMMITMENT, round_seen_by
from support.casino import SECOND, T0, staff
from support.live import CARDS, DEALER, DEALER_CARDS, R9_LEDGER, SETTLED, SETTLED_POOL, LiveRound


@pytest.fixture
def live(casino) -> LiveRound:
    return LiveRound(casino)


def test_r1_a_live_round_is_dealt_from_the_console_and_settled_like_any_round(live: LiveRound) -> None:
    live.close_betting()
    view = live_dealing.dealer_view(live.table)
    assert view["next"] == {"position": 0, "label": "Player 1st", "receiver": "player"}
    assert view["round"]["bettor_count"] == 2 and view["round"]["commitment"] is None
    live.deal_to(12)
    assert live.casino.balance(live.alice) == SETTLED and live.casino.balance(live.bob) == SETTLED
    assert jackpot.pool_view(live.pool).amount == SETTLED_POOL
    assert verify.replay(live.round_id).identical
    recalled = history.recall(live.alice, live.round_id)
    assert recalled["reveal"]["commitment"] == NO_COMMITMENT and recalled["reveal"]["deck"] == " ".join(CARDS)
    assert recalled["cards"]["dealer"] == list(DEALER_CARDS)
    live.casino.assert_sound()


def test_r1_the_dealers_cards_stay_hidden_until_showdown_on_a_live_table(live: LiveRound) -> None:
    live.close_betting()
    for dealt in range(1, 12):
        live.deal_to(dealt)
        seen = json.dumps([live_dealing.dealer_view(live.table), round_seen_by(live.row(), live.alice),
                           round_seen_by(live.row(), None)])
        assert not any(card in seen for card in DEALER_CARDS)


def test_r1_the_audit_names_the_dealers_cards_only_in_the_reveal(live: LiveRound) -> None:
    from casino_holdem.extensions import db
    live.deal_to(11)
    details = json.dumps([e.detail for e in db.session.scalars(select(AuditEntry).where(
        AuditEntry.round_id == live.round_id))])
    assert not any(card in details for card in DEALER_CARDS)


def test_r1_card_entry_refusals_change_nothing(live: LiveRound) -> None:
    with pytest.raises(Conflict, match="R1: out of turn: no card is due, betting is open"):
        live_dealing.deal_card(live.table, "As", by=DEALER, now=live.now)
    live.deal_to(2)
    with pytest.raises(BadRequest, match="duplicate card Ac: already dealt as Player 1st"):
        live_dealing.deal_card(live.table, "ac", by=DEALER, now=live.now)
    with pytest.raises(BadRequest, match="not a card"):
        live_dealing.deal_card(live.table, "1x", by=DEALER, now=live.now)
    with pytest.raises(Conflict, match="the next card goes to Player 2nd"):
        live_dealing.deal_card(live.table, "Ad", by=DEALER, position=3, now=live.now)
    assert live.row().dealt_count == 2 and live.row().deck == "Ac 4h"
    live.deal_to(12)
    with pytest.raises(Conflict, match="R2.7: the round is already settled"):
        live_dealing.deal_card(live.table, "Qs", by=DEALER, now=live.now)


@pytest.mark.parametrize(("kind", "cards", "detail", "voids", "balance"), R9_LEDGER)
def test_r9_every_incident_at_every_stage_with_its_ledger_effect(live: LiveRound, kind: str, cards: int, detail: dict,
                                                                  voids: bool, balance: Decimal) -> None:
    assert live.play_incident(kind, cards, detail, voids, balance)["reported_by"] == "pit1"


def test_r9_a_misdeal_caught_before_the_next_card_is_corrected_and_recorded(live: LiveRound) -> None:
    from casino_holdem.extensions import db
    live.deal_to(3)
    incident = live.report("misdeal", card="Ad", wrong_position=1)
    assert (incident["effect"], incident["wrong_position"], incident["corrected_to"]) == ("corrected", "Dealer 1st",
                                                                                         "Player 2nd")
    (record,) = db.session.scalars(select(IncidentRecord).where(IncidentRecord.round_id == live.round_id))
    assert (record.card, record.stage, record.reported_by) == ("Ad", "hole_cards", "pit1")
    assert round_seen_by(live.row(), live.alice)["cards"]["player"] == ["Ac", "Ad"]


def test_r9_an_incident_that_cannot_happen_now_is_refused_and_not_recorded(live: LiveRound) -> None:
    from casino_holdem.extensions import db
    live.deal_to(2)
    with pytest.raises(Conflict, match="R9: the shuffle is over"):
        live.report("dropped_in_shuffle")
    with pytest.raises(BadRequest, match="kind: 'spilled_coffee' must be one of"):
        live.report("spilled_coffee")
    assert db.session.scalars(select(IncidentRecord)).all() == []


def test_r1_the_dealing_mode_is_a_table_setting(live: LiveRound) -> None:
    boss = staff("boss", "manager")
    with pytest.raises(Unprocessable, match="dealing"):
        tables.edit_table(live.table, boss, "a robot", dealing="robot")
    tables.edit_table(live.table, boss, "back to the shuffler", dealing="rng")
    assert tables.pending_changes(live.table)[0]["settings"] == {"dealing": "rng"}  # from the next round


def test_the_scenario_contract_settles_a_live_round_as_the_table_did(live: LiveRound, standard) -> None:
    from casino_holdem.core.scenario import play, settlement_json
    live.deal_to(12)
    recalled = history.recall(live.alice, live.round_id)
    scenario = {"pool": str(live.row().pool_before), "cards": recalled["cards"], "bettors": [
        {"id": str(player), "currency": "USD", "ante": "10", "bonus": "5", "progressive": True,
         "decisions": {"preflop": "flop", "flop": "check", "turn": "check"}} for player in (live.alice, live.bob)]}
    assert settlement_json(play(scenario, standard)) == verify.replay(live.round_id).settlement


def test_r8_the_dealer_loop_waits_for_a_live_round_s_cards_and_then_for_its_windows(live: LiveRound) -> None:
    live.close_betting()
    assert live.casino.run(live.table, T0 + 3600 * SECOND) == []  # no card, no window, nothing to do
    live.deal_to(3)
    at = T0 + 3601 * SECOND
    live_dealing.deal_card(live.table, CARDS[3], by=DEALER, now=at)
    assert live.row().deadline == at + 10 * SECOND  # R8: the window starts with the last hole card
    live.casino.run(live.table, at + 11 * SECOND)  # nobody decided: R8 folds both
    assert live.row().phase == "flop" and live.row().deadline is None
    assert live.casino.run(live.table, at + 3600 * SECOND) == []


@pytest.mark.parametrize(("kind", "cards", "detail", "field"), [
    ("other_error", 8, {}, "kind"),                                   # R9: the house may void any erroneous round
    ("misdeal", 6, {"card": "Ac", "house_voids": True}, "house_voids"),  # R9: in any case the house may void
])
def test_r9_only_the_house_calls_its_voids_a_dealer_is_refused_and_nothing_is_recorded(
        live: LiveRound, kind: str, cards: int, detail: dict, field: str) -> None:
    from casino_holdem.extensions import db
    live.deal_to(cards)
    with pytest.raises(Forbidden, match=f"{field}: R9: only the house") as refused:
        live_dealing.report_incident(live.table, kind, by=DEALER, now=live.now, **detail)
    assert refused.value.field == field and refused.value.status == 403
    assert db.session.scalars(select(IncidentRecord)).all() == [] and live.row().phase != "void"
    assert live.report(kind, **detail)["effect"] == "void"  # the pit's call


def test_r9_a_dealer_reports_every_incident_that_needs_no_house_authority(live: LiveRound) -> None:
    live.deal_to(6)
    for kind, detail in (("card_exposed", {"card": "Qs"}), ("dropped_in_view", {}), ("misdeal", {"card": "Ac"})):
        assert live_dealing.report_incident(live.table, kind, by=DEALER, now=live.now,
                                            **detail)["effect"] == "recorded"
    assert live_dealing.report_incident(live.table, "shuffler_jam", by=DEALER,
                                        now=live.now)["effect"] == "void"
