"""The dealer API and console over HTTP (issue 12, R1, R9): the role matrix generated from the
route table (every dealer route × anonymous, player, dealer, pit, manager, auditor), a live round
dealt through ``/api/dealer/`` with typed and scanned codes, every card refusal with its status
and field and no change, every R9 incident with its ledger effect to the cent (the rows of the
service tests, support/live.py), and the house's voids refused to a dealer."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from sqlalchemy import select

from casino_holdem.core.incidents import IncidentKind, Report, needs_house
from casino_holdem.extensions import db
from casino_holdem.models import IncidentRecord, Player
from casino_holdem.services import jackpot, verify
from support.live import CARDS, DEALER_CARDS, R9_LEDGER, SETTLED, SETTLED_POOL, TYPED, LiveRound
from support.operator_routes import VISITORS, check_admissions, operator_routes
from support.web import Client, WebCasino

DEALER_ROUTES = ("dealer_api.", "dealer_pages.")


class DealtOverHttp(LiveRound):
    """The live round dealt by ``dealer1`` through the dealer API and its incidents reported there
    (the house's voids by ``pit1``), the wall clock following the round's."""

    def __init__(self, casino: Any, web: WebCasino, clock: FrozenDateTimeFactory) -> None:
        super().__init__(casino)
        self.clock = clock
        self.dealer, self.pit = web.operator_client("dealer1", "dealer"), web.operator_client("pit1", "pit")
        self.players = tuple(web.client(db.session.get(Player, player).username) for player in (self.alice, self.bob))

    def send(self, client: Client, path: str, body: Any = None) -> Any:
        self.clock.move_to(self.now)
        return client.send("POST" if body is not None else "GET", f"/api/dealer/tables/{self.table}{path}", body)

    def state(self) -> dict[str, Any]:
        return self.send(self.dealer, "").get_json()

    def deal(self, code: str) -> None:
        """The card as a dealer or scanner types it, with the position the console expects."""
        typed = TYPED[CARDS.index(code)] if code in CARDS else code
        response = self.send(self.dealer, "/cards", {"card": typed, "position": self.row().dealt_count})
        assert response.status_code == 200, response.get_json()

    def report(self, kind: str, **detail: Any) -> dict[str, Any]:
        house = needs_house(Report(IncidentKind(kind), house_voids=detail.get("house_voids", False)))
        response = self.send(self.pit if house else self.dealer, "/incidents", {"kind": kind, **detail})
        assert response.status_code == 200, response.get_json()
        return response.get_json()


@pytest.fixture
def live(casino, web, clock) -> DealtOverHttp:
    return DealtOverHttp(casino, web, clock)


@pytest.mark.parametrize("who", VISITORS)
def test_every_dealer_route_admits_exactly_the_dealer_and_the_pit(app, web, who) -> None:
    """Generated from the route table, as the back office's matrix: 401 / the sign-in page for the
    anonymous, 403 for a player, a manager or an auditor, never a refusal by the guard otherwise."""
    assert check_admissions(app, web.visitor(who), who, DEALER_ROUTES) == 6


def test_every_dealer_route_declares_the_dealer_and_the_pit(app) -> None:
    routes = [route for route in operator_routes(app) if route.endpoint.startswith(DEALER_ROUTES)]
    assert {route.roles for route in routes} == {frozenset({"dealer", "pit"})}
    assert {route.rule for route in routes if route.is_api} == {
        "/api/dealer/tables", "/api/dealer/tables/<int:table_id>", "/api/dealer/tables/<int:table_id>/cards",
        "/api/dealer/tables/<int:table_id>/incidents"}


def test_r1_a_whole_live_round_is_dealt_through_the_api_with_typed_and_scanned_codes(live: DealtOverHttp) -> None:
    listed = live.send(live.dealer, "").get_json()
    assert listed["next"] is None and listed["round"]["phase"] == "betting"  # no card while betting is open
    live.close_betting()
    state = live.state()
    assert state["next"] == {"position": 0, "label": "Player 1st", "receiver": "player"}
    assert state["round"]["bettor_count"] == 2 and "you" not in state["round"] and "bettors" not in state["round"]
    assert state["server_time"] and [step["label"] for step in state["steps"]][:5] == [
        "Player 1st", "Dealer 1st", "Player 2nd", "Dealer 2nd", "burn"]
    tables = live.dealer.get("/api/dealer/tables").get_json()["tables"]
    assert [(t["table_id"], t["phase"], t["bettor_count"]) for t in tables] == [(live.table, "pre_flop", 2)]
    for dealt, card in enumerate(CARDS):
        live.deal_to(dealt + 1)  # both players decide after each street (R8: its window runs from its last card)
        view = live.state()
        assert view["dealt"] == dealt + 1 and view["steps"][dealt]["dealt"]
        public = view["steps"][dealt]["receiver"] in ("player", "board") or dealt == 11
        assert view["steps"][dealt]["card"] == (card if public else None)  # the Dealer's and burn cards stay hidden
    assert live.row().phase == "settled" and live.row().deck == " ".join(CARDS)
    assert live.casino.balance(live.alice) == SETTLED and live.casino.balance(live.bob) == SETTLED
    assert jackpot.pool_view(live.pool).amount == SETTLED_POOL and verify.replay(live.round_id).identical
    final = live.state()
    assert final["round"]["cards"]["dealer"] == list(DEALER_CARDS)  # revealed at showdown (R2.7)
    assert [step["card"] for step in final["steps"]] == CARDS
    live.casino.assert_sound()


# (cards dealt before (-1: betting open; "deciding": the 4 hole cards, nobody has decided), body,
#  status, field, what the message says)
REFUSALS = [
    (-1, {"card": "As"}, 409, "card", "R1: out of turn: no card is due, betting is open"),
    (2, {"card": "ac"}, 400, "card", "duplicate card Ac: already dealt as Player 1st"),
    (2, {"card": "10♦", "position": 3}, 409, "position", "the next card goes to Player 2nd (position 2)"),
    (2, {"card": "1x"}, 400, "card", "not a card"),
    (2, {"card": "Ad Kd"}, 400, "card", ""),
    (2, {"card": ""}, 400, "card", "card: required"),
    (2, {"card": 7}, 400, "card", "card: required"),
    (2, {}, 400, "card", "card: required"),
    (2, {"card": "Ad", "position": 12}, 400, "position", "position: a place in R1's dealing order, 0 to 11"),
    (2, {"card": "Ad", "position": "second"}, 400, "position", "position: a whole number"),
    (2, ["Ad"], 400, None, "body: a JSON object is required"),
    ("deciding", {"card": "5c"}, 409, "card", "out of turn: no card is due, the players are deciding"),
    (12, {"card": "Qs"}, 409, "card", "R2.7: the round is already settled"),
]


@pytest.mark.parametrize(("cards", "body", "status", "field", "message"), REFUSALS)
def test_r1_a_refused_card_is_named_with_its_field_and_changes_nothing(live: DealtOverHttp, cards: Any, body: Any,
                                                                      status: int, field: str | None,
                                                                      message: str) -> None:
    if cards == "deciding":
        live.deal_to(3)
        live.deal(CARDS[3])
    elif cards >= 0:
        live.deal_to(cards)
    before, row = live.state(), live.row()
    response = live.send(live.dealer, "/cards", body)
    error = response.get_json()["error"]
    assert (response.status_code, error["field"]) == (status, field) and message in error["message"], error
    after = live.state()
    assert (after["dealt"], after["steps"], after["round"]["phase"]) == (before["dealt"], before["steps"],
                                                                        before["round"]["phase"])
    assert (live.row().deck, live.row().phase) == (row.deck, row.phase)


def test_a_card_or_an_incident_without_the_session_s_csrf_token_is_refused(live: DealtOverHttp) -> None:
    live.close_betting()
    for path, body in (("cards", {"card": "Ac"}), ("incidents", {"kind": "shuffler_jam"})):
        response = live.dealer.post(f"/api/dealer/tables/{live.table}/{path}", body, token="")
        assert response.status_code == 403 and response.get_json()["error"]["field"] is None
    assert (live.row().dealt_count, live.row().phase) == (0, "pre_flop")


@pytest.mark.parametrize(("kind", "cards", "detail", "voids", "balance"), R9_LEDGER)
def test_r9_every_incident_through_the_api_with_its_ledger_effect(live: DealtOverHttp, kind: str, cards: int,
                                                                  detail: dict, voids: bool,
                                                                  balance: Decimal) -> None:
    incident = live.play_incident(kind, cards, detail, voids, balance)
    house = kind == "other_error" or detail.get("house_voids")
    assert incident["reported_by"] == ("pit1" if house else "dealer1")


@pytest.mark.parametrize(("kind", "cards", "detail", "field"), [
    ("other_error", 8, {}, "kind"),
    ("misdeal", 6, {"card": "Ac", "house_voids": True}, "house_voids"),
])
def test_r9_the_house_s_voids_are_refused_to_a_dealer_and_left_to_the_pit(live: DealtOverHttp, kind: str,
                                                                          cards: int, detail: dict,
                                                                          field: str) -> None:
    live.deal_to(cards)
    response = live.send(live.dealer, "/incidents", {"kind": kind, **detail})
    assert response.status_code == 403 and response.get_json()["error"]["field"] == field
    assert "only the house" in response.get_json()["error"]["message"]
    assert db.session.scalars(select(IncidentRecord)).all() == [] and live.row().phase != "void"
    assert live.send(live.pit, "/incidents", {"kind": kind, **detail}).get_json()["effect"] == "void"


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"kind": "spilled_coffee"}, 400, "kind"),
    ({}, 400, "kind"),
    ({"kind": "misdeal", "card": "Ad", "house_voids": "yes"}, 400, "house_voids"),
    ({"kind": "misdeal", "card": "Ad", "wrong_position": 99}, 400, "wrong_position"),
    ({"kind": "misdeal", "card": "Ad", "wrong_position": 2}, 409, "wrong_position"),  # its right position
    ({"kind": "misdeal", "card": "Qs", "wrong_position": 1}, 409, "card"),  # not dealt in this round
    ({"kind": "dropped_in_shuffle"}, 409, "kind"),  # R9: the shuffle is over once a card is out
])
def test_r9_an_incident_refused_names_its_field_and_is_not_recorded(live: DealtOverHttp, body: dict, status: int,
                                                                    field: str) -> None:
    live.deal_to(3)
    response = live.send(live.dealer, "/incidents", body)
    assert (response.status_code, response.get_json()["error"]["field"]) == (status, field), response.get_json()
    assert db.session.scalars(select(IncidentRecord)).all() == []


def test_r9_a_misdeal_corrected_through_the_api_is_a_notice_to_the_players(live: DealtOverHttp) -> None:
    live.deal_to(3)
    incident = live.report("misdeal", card="Ad", wrong_position=1)
    assert (incident["effect"], incident["wrong_position"], incident["corrected_to"], incident["reported_by"]) == (
        "corrected", "Dealer 1st", "Player 2nd", "dealer1")
    for player in live.players:
        seen = player.get(f"/api/tables/{live.table}").get_json()["round"]
        assert seen["notices"] == [incident["notice"]] and seen["cards"]["player"] == ["Ac", "Ad"]
    assert live.state()["steps"][2]["card"] == "Ad" and live.state()["next"]["label"] == "Dealer 2nd"
    live.deal_to(12)
    assert live.casino.balance(live.alice) == SETTLED


def test_the_console_and_the_live_tables_page_for_dealer_and_pit(live: DealtOverHttp, web: WebCasino) -> None:
    manager = web.operator_client("manager1", "manager")
    for client, house in ((live.dealer, False), (live.pit, True)):
        home = client.get("/operator/").get_data(as_text=True)
        assert 'href="/operator/dealer/"' in home  # the back office's navigation links the console
        listing = client.get("/operator/dealer/").get_data(as_text=True)
        assert f'href="/operator/dealer/{live.table}"' in listing
        page = client.get(f"/operator/dealer/{live.table}")
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and 'id="card-code"' in html and "dealer.js" in html and "<script>" not in html
        assert html.count('class="big incident"') == len(IncidentKind)
        other = html.split('data-kind="other_error"', 1)[1].split(">", 1)[0]
        assert ("disabled" in other) is not house and ('id="house-voids"' in html) is house
    assert 'href="/operator/dealer/"' not in manager.get("/operator/").get_data(as_text=True)
    assert live.dealer.get("/operator/dealer/999999").status_code == 404
