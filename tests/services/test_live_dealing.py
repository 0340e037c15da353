"""Live dealing through the services (R1, R8, R9): a live table's round takes its cards from the
dealer's console in R1 order, is settled and voided by the same code as an RNG round, replays
from its recorded cards, and every R9 incident does what R9 says, to the cent."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from sqlalchemy import select

from casino_holdem.models import AuditEntry, GameRound, IncidentRecord
from casino_holdem.services import history, jackpot, live_dealing, rounds, tables, verify
from casino_holdem.services.errors import BadRequest, Conflict, Unprocessable
from casino_holdem.services.viewing import NO_COMMITMENT, round_seen_by
from support.casino import SECOND, T0, staff

#: R1 order: Player 1st, Dealer 1st, Player 2nd, Dealer 2nd, burn, flop ×3, burn, turn, burn, river
CARDS = ["Ac", "4h", "Ad", "Kd", "5c", "9s", "8s", "2c", "6c", "3h", "7c", "Jd"]
DEALER_CARDS = ("4h", "Kd")
#: alice and bob each: Ante 10, Bonus 5, Progressive 1 (USD), Flop bet 20, then check, check
START, POOL_SEED = Decimal(1000), Decimal(50)
#: R3: Player A-A beats the Dealer's K high with less than a Straight: Ante pushes, Flop bet wins;
#: R4: A-A pays 30 to 1; the Progressive loses (its 0.95 stays in the pool)
SETTLED = START + 20 + 150 - 1
SETTLED_POOL = POOL_SEED + Decimal("1.90")
DECIDE_AFTER = {4: "flop", 8: "check", 10: "check"}


class LiveRound:
    """One live round at a live table with alice and bob in it, dealt card by card."""

    def __init__(self, casino) -> None:
        self.casino = casino
        self.pool = casino.pool(seed=str(POOL_SEED))
        self.table = casino.table(self.pool)
        tables.edit_table(self.table, staff("boss", "manager"), "a studio table", dealing="live", now=T0)
        self.round_id = casino.open(self.table)
        self.alice, self.bob = casino.player(), casino.player()
        for player in (self.alice, self.bob):
            rounds.place_bets(player, self.table, "10", "5", True, request_id=f"p{player}", now=T0)
        self.now = T0 + 10 * SECOND

    def close_betting(self) -> None:
        self.casino.run(self.table, self.now)

    def deal_to(self, cards: int) -> None:
        """Deal until ``cards`` cards are out, both players deciding after each street."""
        row = self._row()
        if row.phase == "betting":
            self.close_betting()
        while self._row().dealt_count < cards:
            dealt = self._row().dealt_count
            self.now += SECOND
            live_dealing.deal_card(self.table, CARDS[dealt], operator="dealer1", now=self.now)
            if dealt + 1 in DECIDE_AFTER and dealt + 1 < 12:
                for player in (self.alice, self.bob):
                    rounds.decide(player, self.round_id, DECIDE_AFTER[dealt + 1], request_id=f"d{dealt}{player}",
                                  now=self.now)
                self.casino.run(self.table, self.now)

    def _row(self) -> GameRound:
        from casino_holdem.extensions import db
        db.session.expire_all()
        return db.session.get(GameRound, self.round_id)

    def report(self, kind: str, **detail) -> dict:
        return live_dealing.report_incident(self.table, kind, by=staff("pit1", "pit"), now=self.now, **detail)


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
        seen = json.dumps([live_dealing.dealer_view(live.table), round_seen_by(live._row(), live.alice),
                           round_seen_by(live._row(), None)])
        assert not any(card in seen for card in DEALER_CARDS)


def test_r1_the_audit_names_the_dealers_cards_only_in_the_reveal(live: LiveRound) -> None:
    from casino_holdem.extensions import db
    live.deal_to(11)
    details = json.dumps([e.detail for e in db.session.scalars(select(AuditEntry).where(
        AuditEntry.round_id == live.round_id))])
    assert not any(card in details for card in DEALER_CARDS)


def test_r1_card_entry_refusals_change_nothing(live: LiveRound) -> None:
    with pytest.raises(Conflict, match="R1: out of turn: no card is due, betting is open"):
        live_dealing.deal_card(live.table, "As", operator="d", now=live.now)
    live.deal_to(2)
    with pytest.raises(BadRequest, match="duplicate card Ac: already dealt as Player 1st"):
        live_dealing.deal_card(live.table, "ac", operator="d", now=live.now)
    with pytest.raises(BadRequest, match="not a card"):
        live_dealing.deal_card(live.table, "1x", operator="d", now=live.now)
    with pytest.raises(Conflict, match="the next card goes to Player 2nd"):
        live_dealing.deal_card(live.table, "Ad", operator="d", position=3, now=live.now)
    assert live._row().dealt_count == 2 and live._row().deck == "Ac 4h"
    live.deal_to(12)
    with pytest.raises(Conflict, match="R2.7: the round is already settled"):
        live_dealing.deal_card(live.table, "Qs", operator="d", now=live.now)


# (incident, cards dealt before it (-1: betting open), its detail, voids?, alice's balance at the end)
R9_LEDGER = [
    ("exposed_while_shuffling", -1, {}, False, SETTLED),
    ("card_exposed", -1, {"card": "Qs"}, True, START),
    ("card_exposed", 0, {"card": "Qs"}, True, START),
    ("card_exposed", 6, {"card": "Qs"}, False, SETTLED),
    ("dropped_in_shuffle", -1, {}, False, SETTLED),
    ("dropped_on_burn", 5, {"card": "5c"}, False, SETTLED),
    ("dropped_on_burn", 9, {}, False, SETTLED),
    ("dropped_face_unseen", 2, {"card": "4h"}, False, SETTLED),
    ("dropped_face_seen", 0, {}, True, START),
    ("dropped_face_seen", 2, {"card": "Ad"}, True, START),
    ("dropped_face_seen", 11, {"card": "Jd"}, True, START),
    ("dropped_in_view", 9, {}, False, SETTLED),
    ("misdeal", 3, {"card": "Ad", "wrong_position": 1}, False, SETTLED),
    ("misdeal", 6, {"card": "Ac"}, False, SETTLED),
    ("misdeal", 6, {"card": "Ac", "house_voids": True}, True, START),
    ("shuffler_jam", -1, {}, True, START),
    ("shuffler_jam", 2, {}, True, START),                  # one Player card short: the Bonus is refunded
    ("shuffler_jam", 3, {}, True, START + 150),            # both Player cards out: R9, the Bonus stands
    ("shuffler_jam", 4, {}, True, START + 150),            # R9: the Bonus (A-A, 30 to 1) stands
    ("shuffler_jam", 10, {}, True, START + 150),
    ("other_error", 8, {}, True, START),
]


@pytest.mark.parametrize(("kind", "cards", "detail", "voids", "balance"), R9_LEDGER)
def test_r9_every_incident_at_every_stage_with_its_ledger_effect(live: LiveRound, kind: str, cards: int, detail: dict,
                                                                  voids: bool, balance: Decimal) -> None:
    if cards >= 0:
        live.deal_to(cards)
    incident = live.report(kind, **detail)
    assert (incident["effect"] == "void") == voids and incident["reported_by"] == "pit1"
    if not voids:
        assert round_seen_by(live._row(), live.bob)["notices"] == [incident["notice"]]
        live.deal_to(12)
    assert live._row().phase == ("void" if voids else "settled")
    assert live.casino.balance(live.alice) == balance and live.casino.balance(live.bob) == balance
    assert jackpot.pool_view(live.pool).amount == (POOL_SEED if voids else SETTLED_POOL)
    assert verify.replay(live.round_id).identical
    live.casino.assert_sound()


def test_r9_a_misdeal_caught_before_the_next_card_is_corrected_and_recorded(live: LiveRound) -> None:
    from casino_holdem.extensions import db
    live.deal_to(3)
    incident = live.report("misdeal", card="Ad", wrong_position=1)
    assert (incident["effect"], incident["wrong_position"], incident["corrected_to"]) == ("corrected", "Dealer 1st",
                                                                                         "Player 2nd")
    (record,) = db.session.scalars(select(IncidentRecord).where(IncidentRecord.round_id == live.round_id))
    assert (record.card, record.stage, record.reported_by) == ("Ad", "hole_cards", "pit1")
    assert round_seen_by(live._row(), live.alice)["cards"]["player"] == ["Ac", "Ad"]


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
    scenario = {"pool": str(live._row().pool_before), "cards": recalled["cards"], "bettors": [
        {"id": str(player), "currency": "USD", "ante": "10", "bonus": "5", "progressive": True,
         "decisions": {"preflop": "flop", "flop": "check", "turn": "check"}} for player in (live.alice, live.bob)]}
    assert settlement_json(play(scenario, standard)) == verify.replay(live.round_id).settlement


def test_r8_the_dealer_loop_waits_for_a_live_round_s_cards_and_then_for_its_windows(live: LiveRound) -> None:
    live.close_betting()
    assert live.casino.run(live.table, T0 + 3600 * SECOND) == []  # no card, no window, nothing to do
    live.deal_to(3)
    at = T0 + 3601 * SECOND
    live_dealing.deal_card(live.table, CARDS[3], operator="dealer1", now=at)
    assert live._row().deadline == at + 10 * SECOND  # R8: the window starts with the last hole card
    live.casino.run(live.table, at + 11 * SECOND)  # nobody decided: R8 folds both
    assert live._row().phase == "flop" and live._row().deadline is None
    assert live.casino.run(live.table, at + 3600 * SECOND) == []
