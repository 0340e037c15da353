"""The JSON API, endpoint by endpoint and error by error: sessions and CSRF, the lobby and tables in
the player's currency (R6), bets (R2.1) and decisions (R2.3-R2.5, R8) with request ids, recall and
history. Every refusal is ``{"error": {"code", "message", "field"}}`` and changes nothing."""

from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal

import pytest

from casino_holdem.services import wallet
from support.casino import PASSWORD
from support.web import WebCasino


def error_of(response) -> dict:
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}
    return body["error"]


@pytest.fixture
def table(casino: WebCasino, clock) -> int:
    table_id = casino.table()
    casino.advance(table_id)  # the first round opens for bets
    return table_id


@pytest.fixture
def alice(casino: WebCasino):
    casino.player("alice")
    return casino.client("alice")


def dealt(casino: WebCasino, clock, table_id: int) -> None:
    """Close betting: the hole cards are dealt (R1) and the pre-flop decision is due."""
    clock.tick(dt.timedelta(seconds=11))
    assert casino.advance(table_id) == ["hole_cards"]


# --- sessions, CSRF, rate limit ----------------------------------------------------------------

def test_a_session_logs_in_and_out_with_a_fresh_csrf_token(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client()
    anonymous = client.get("/api/session").get_json()
    assert anonymous["authenticated"] is False and anonymous["csrf_token"]
    client.token = anonymous["csrf_token"]
    logged_in = client.post("/api/session", {"username": "alice", "password": PASSWORD})
    assert logged_in.status_code == 200
    body = logged_in.get_json()
    assert body["authenticated"] is True and body["player"]["username"] == "alice"
    assert body["csrf_token"] != anonymous["csrf_token"]  # a new session on login (no fixation)
    client.token = body["csrf_token"]
    me = client.get("/api/me").get_json()
    assert me["username"] == "alice" and me["currency"]["code"] == "USD" and me["balance"]["balance"] == "1000"
    assert client.send("DELETE", "/api/session").get_json()["authenticated"] is False
    assert client.get("/api/me").status_code == 401


def test_a_wrong_password_is_401_and_names_the_field(casino: WebCasino) -> None:
    casino.player("alice")
    response = casino.client().login("alice", "wrong")
    assert response.status_code == 401
    assert error_of(response) == {"code": "unauthorized", "message": "login: wrong username or password",
                                  "field": "password"}


def test_bots_cannot_log_in(casino: WebCasino) -> None:
    wallet.create_player("bot9", PASSWORD, "USD", is_bot=True)
    assert casino.client().login("bot9").status_code == 401


@pytest.mark.parametrize("token", ["", "forged-token"])
def test_a_state_changing_request_without_the_csrf_token_is_403(casino: WebCasino, token: str) -> None:
    casino.player("alice")
    client = casino.client()
    client.refresh_token()
    response = client.post("/api/session", {"username": "alice", "password": PASSWORD}, token=token)
    assert response.status_code == 403 and error_of(response)["code"] == "forbidden"
    assert client.get("/api/session").get_json()["authenticated"] is False


def test_csrf_guards_bets_and_decisions_too(casino: WebCasino, table: int, alice) -> None:
    response = alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "r1"}, token="")
    assert response.status_code == 403
    assert alice.get("/api/me").get_json()["balance"]["balance"] == "1000"


def test_five_failed_logins_lock_the_username_from_that_address_for_five_minutes(casino: WebCasino, clock) -> None:
    casino.player("alice")
    client = casino.client()
    for _ in range(5):
        assert client.login("alice", "guess").status_code == 401
    locked = client.login("alice", PASSWORD)  # even the right password waits
    assert locked.status_code == 429 and error_of(locked)["code"] == "too_many_requests"
    assert 1 <= int(locked.headers["Retry-After"]) <= 300
    assert casino.client().login("alice", PASSWORD).status_code == 429  # another process, same database
    clock.tick(dt.timedelta(minutes=5, seconds=1))
    assert client.login("alice", PASSWORD).status_code == 200


# --- registration ------------------------------------------------------------------------------

def test_registration_creates_a_player_in_a_paytable_currency_and_logs_in(casino: WebCasino) -> None:
    client = casino.client()
    client.refresh_token()
    response = client.post("/api/players", {"username": "carol", "password": "long enough", "currency": "THB"})
    assert response.status_code == 201
    client.token = response.get_json()["csrf_token"]
    me = client.get("/api/me").get_json()
    assert me["currency"] == {"code": "THB", "unit": "0.01", "decimals": 2}
    assert me["balance"]["balance"] == "0"  # no demo tables here, so no demo money


@pytest.mark.parametrize("body, status, field", [
    ({"username": "carol", "password": "long enough", "currency": "XXX"}, 422, "currency"),
    ({"username": "carol", "password": "short", "currency": "USD"}, 422, "password"),
    ({"username": "c a", "password": "long enough", "currency": "USD"}, 422, "username"),
    ({"username": "alice", "password": "long enough", "currency": "USD"}, 409, "username"),
    ({"username": "carol", "currency": "USD"}, 400, "password"),
    ([1, 2], 400, None),
])
def test_registration_refusals(casino: WebCasino, body, status: int, field: str | None) -> None:
    casino.player("alice")
    client = casino.client()
    client.refresh_token()
    response = client.post("/api/players", body)
    assert response.status_code == status and error_of(response)["field"] == field
    assert wallet.find_player("carol") is None


# --- lobby and table ---------------------------------------------------------------------------

def test_every_player_route_needs_a_session(casino: WebCasino, table: int) -> None:
    client = casino.client()
    client.refresh_token()
    for method, path in [("GET", "/api/me"), ("GET", "/api/tables"), ("GET", f"/api/tables/{table}"),
                         ("GET", "/api/rounds/1"), ("GET", "/api/history"),
                         ("POST", f"/api/tables/{table}/bets"), ("POST", f"/api/tables/{table}/leave"),
                         ("POST", f"/api/tables/{table}/join"), ("POST", "/api/rounds/1/decisions"),
                         ("GET", "/events/lobby"), ("GET", f"/events/tables/{table}")]:
        response = client.send(method, path, {}) if method == "POST" else client.get(path)
        assert response.status_code == 401, path
        assert error_of(response)["code"] == "unauthorized"


def test_the_lobby_shows_limits_and_the_jackpot_meter_in_the_players_currency(casino: WebCasino, table: int) -> None:
    """R6: limits × multiplier and the meter = pool × multiplier (RMB: 5)."""
    casino.player("rmb", currency="RMB")
    lobby = casino.client("rmb").get("/api/tables").get_json()
    (listed,) = lobby["tables"]
    assert lobby["currency"]["code"] == "RMB"
    assert listed["limits"] == {"ante_min": "5", "ante_max": "2500", "bonus_min": "5", "bonus_max": "500"}
    assert listed["progressive_bet"] == "5" and listed["jackpot"] == "5000"
    assert listed["round"]["phase"] == "betting" and listed["round"]["bettors"] == 0
    assert listed["round"]["deadline"] == "2026-12-01T12:00:10+00:00"


def test_the_table_state_shows_the_round_chips_and_balance(casino: WebCasino, table: int, alice) -> None:
    state = alice.get(f"/api/tables/{table}").get_json()
    assert state["table"]["chips"] == ["1", "5", "25", "100"]
    assert state["round"]["phase"] == "betting" and state["round"]["cards"] == {"player": [], "board": [],
                                                                                "dealer": []}
    assert state["round"]["you"] == {"player_id": state["round"]["you"]["player_id"], "has_bet": False,
                                     "allowed_actions": [], "bet": None}
    assert state["balance"] == {"balance": "1000", "reserved": "0", "available": "1000"}
    assert state["last_round"] is None


def test_an_unknown_table_or_round_is_404(alice) -> None:
    for path in ("/api/tables/99", "/api/rounds/99", "/events/tables/99"):
        response = alice.get(path)
        assert response.status_code == 404 and error_of(response)["code"] == "not_found"
    assert alice.post("/api/tables/99/bets", {"ante": "1", "request_id": "x"}).status_code == 404
    assert alice.post("/api/rounds/99/decisions", {"action": "fold", "request_id": "x"}).status_code == 404


def test_unknown_api_paths_and_methods_answer_json(alice) -> None:
    assert error_of(alice.get("/api/nothing"))["code"] == "not_found"
    response = alice.send("PUT", "/api/me")
    assert response.status_code == 405 and error_of(response)["code"] == "method_not_allowed"


# --- bets (R2.1) -------------------------------------------------------------------------------

def test_bets_are_placed_once_per_request_id(casino: WebCasino, table: int, alice) -> None:
    bets = {"ante": "10", "bonus": "5", "progressive": True, "request_id": "bet-1"}
    first = alice.post(f"/api/tables/{table}/bets", bets)
    assert first.status_code == 201
    receipt = first.get_json()
    assert (receipt["ante"], receipt["bonus"], receipt["progressive"]) == ("10", "5", "1")
    assert receipt["balance"]["balance"] == "984" and receipt["balance"]["reserved"] == "40"
    again = alice.post(f"/api/tables/{table}/bets", bets)
    assert again.status_code == 201 and again.get_json()["bet_id"] == receipt["bet_id"]
    assert alice.get("/api/me").get_json()["balance"]["balance"] == "984"
    round_view = alice.get(f"/api/tables/{table}").get_json()["round"]
    assert round_view["you"]["has_bet"] and round_view["you"]["bet"]["ante"] == "10"
    assert round_view["bettor_count"] == 1


@pytest.mark.parametrize("bets, status, field", [
    ({"ante": "abc"}, 400, "ante"),
    ({"ante": 10.5}, 400, "ante"),  # JSON numbers with a fraction are floats: refused
    ({"ante": "10", "bonus": "x"}, 400, "bonus"),
    ({"ante": "10", "progressive": "yes"}, 400, "progressive"),
    ({"ante": "0.5"}, 422, "ante"),  # below the minimum
    ({"ante": "10.001"}, 422, "ante"),  # not a whole cent (R6)
    ({"ante": "501"}, 422, "ante"),
    ({"ante": "10", "bonus": "101"}, 422, "bonus"),
    ({"ante": "300"}, 422, "balance"),  # 4 × 300 must be covered (R2.3-R2.5)
    ({"ante": "10", "round_id": "1"}, 400, "round_id"),
    ({"ante": "10", "round_id": True}, 400, "round_id"),
    ({"ante": "10", "round_id": 1.0}, 400, "round_id"),
    ({"ante": "10", "round_id": 0}, 400, "round_id"),
    ({"ante": "10", "round_id": 2**31}, 400, "round_id"),  # above any id the database holds
    ({"ante": "10", "round_id": 2**31 - 1}, 409, "round_id"),  # not the round taking bets (R2.1)
])
def test_bad_bets_are_refused_and_change_nothing(table: int, alice, bets, status: int, field: str) -> None:
    response = alice.post(f"/api/tables/{table}/bets", {**bets, "request_id": "r"})
    assert response.status_code == status and error_of(response)["field"] == field
    assert alice.get("/api/me").get_json()["balance"] == {"balance": "1000", "reserved": "0", "available": "1000"}


@pytest.mark.parametrize("body, field", [({"ante": "10"}, "request_id"),
                                         ({"ante": "10", "request_id": 7}, "request_id"),
                                         ({"ante": "10", "request_id": "x" * 129}, "request_id"),
                                         ("10", None)])
def test_a_bet_needs_a_request_id_and_a_json_object(table: int, alice, body, field) -> None:
    response = alice.post(f"/api/tables/{table}/bets", body)
    assert response.status_code == 400 and error_of(response)["field"] == field


def test_a_request_id_reused_for_other_bets_is_409(table: int, alice) -> None:
    assert alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "same"}).status_code == 201
    response = alice.post(f"/api/tables/{table}/bets", {"ante": "20", "request_id": "same"})
    assert response.status_code == 409 and error_of(response)["field"] == "request_id"


def test_bets_name_the_round_they_are_for(table: int, alice) -> None:
    """R2.1: the round the page shows taking bets; its id is in the table's state."""
    round_id = alice.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    response = alice.post(f"/api/tables/{table}/bets", {"ante": "10", "round_id": round_id, "request_id": "r"})
    assert response.status_code == 201 and response.get_json()["round_id"] == round_id


def test_betting_closed_is_409(casino: WebCasino, clock, table: int, alice) -> None:
    casino.player("bob")
    casino.client("bob").post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "b"})
    dealt(casino, clock, table)
    response = alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "late"})
    assert response.status_code == 409 and error_of(response)["message"].startswith("R2.1")


# --- decisions (R2.3-R2.5, R8) -----------------------------------------------------------------

def test_a_full_round_flop_bet_check_through_the_api(casino: WebCasino, clock, table: int, alice) -> None:
    alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "b"})
    dealt(casino, clock, table)
    round_view = alice.get(f"/api/tables/{table}").get_json()["round"]
    assert round_view["you"]["allowed_actions"] == ["fold", "flop"]
    assert round_view["you"]["costs"] == {"flop": "20", "bet": "10"}
    assert len(round_view["cards"]["player"]) == 2 and round_view["cards"]["dealer"] == []
    round_id = round_view["round_id"]
    for action, street in (("flop", "preflop"), ("bet", "flop"), ("check", "turn")):
        response = alice.post(f"/api/rounds/{round_id}/decisions", {"action": action, "request_id": action})
        assert response.status_code == 201
        assert response.get_json()["street"] == street and response.get_json()["automatic"] is None
        casino.advance(table)  # everyone has acted: the next street is dealt at once (R2)
    recall = alice.get(f"/api/rounds/{round_id}").get_json()
    assert recall["phase"] == "settled" and len(recall["cards"]["dealer"]) == 2 and len(recall["cards"]["board"]) == 5
    assert recall["you"]["bet"]["decisions"] == {"preflop": {"action": "flop", "automatic": None},
                                                 "flop": {"action": "bet", "automatic": None},
                                                 "turn": {"action": "check", "automatic": None}}
    assert set(recall["you"]["bet"]["outcome"]) >= {"ante", "flop", "turn", "bonus", "progressive"}
    assert recall["you"]["staked"] == "40"
    returned = Decimal(recall["you"]["bet"]["returned"])
    assert Decimal(recall["you"]["net"]) == returned - 40
    reveal = recall["reveal"]
    assert hashlib.sha256(f"{reveal['nonce']}:{reveal['deck']}".encode()).hexdigest() == recall["commitment"]
    assert recall["paytable"]["id"] == "standard" and len(recall["paytable"]["sha256"]) == 64


@pytest.mark.parametrize("body, status, field", [
    ({"action": "bet", "request_id": "d"}, 409, "action"),  # R2.3: fold or flop now
    ({"action": "raise", "request_id": "d"}, 400, "action"),
    ({"action": "flop"}, 400, "request_id"),
    ({"request_id": "d"}, 400, "action"),
])
def test_decisions_the_rules_do_not_allow_now_are_refused(casino: WebCasino, clock, table: int, alice,
                                                          body, status: int, field: str) -> None:
    alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "b"})
    dealt(casino, clock, table)
    round_id = alice.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    response = alice.post(f"/api/rounds/{round_id}/decisions", body)
    assert response.status_code == status and error_of(response)["field"] == field
    assert alice.get(f"/api/rounds/{round_id}").get_json()["you"]["bet"]["decisions"] == {}


def test_a_decision_is_idempotent_by_request_id_and_taken_once(casino: WebCasino, clock, table: int, alice) -> None:
    alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "b"})
    dealt(casino, clock, table)
    round_id = alice.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    first = alice.post(f"/api/rounds/{round_id}/decisions", {"action": "flop", "request_id": "d1"})
    again = alice.post(f"/api/rounds/{round_id}/decisions", {"action": "flop", "request_id": "d1"})
    assert first.status_code == again.status_code == 201 and first.get_json() == again.get_json()
    other = alice.post(f"/api/rounds/{round_id}/decisions", {"action": "fold", "request_id": "d1"})
    assert other.status_code == 409 and error_of(other)["field"] == "request_id"
    twice = alice.post(f"/api/rounds/{round_id}/decisions", {"action": "fold", "request_id": "d2"})
    assert twice.status_code == 409
    assert alice.get("/api/me").get_json()["balance"]["balance"] == "970"  # the Flop bet left the wallet once


def test_r8_a_decision_not_made_in_time_is_automatic_and_marked(casino: WebCasino, clock, table: int, alice) -> None:
    alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "b"})
    dealt(casino, clock, table)
    round_id = alice.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    clock.tick(dt.timedelta(seconds=10))
    assert alice.get(f"/api/tables/{table}").get_json()["round"]["you"]["allowed_actions"] == []
    late = alice.post(f"/api/rounds/{round_id}/decisions", {"action": "flop", "request_id": "late"})
    assert late.status_code == 409 and error_of(late)["message"].startswith("R8")
    casino.advance(table)
    decisions = alice.get(f"/api/rounds/{round_id}").get_json()["you"]["bet"]["decisions"]
    assert decisions == {"preflop": {"action": "fold", "automatic": "timeout"}}


def test_r8_leaving_mid_round_folds_before_the_flop_and_joining_comes_back(casino: WebCasino, clock, table: int,
                                                                           alice) -> None:
    alice.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "b"})
    dealt(casino, clock, table)
    left = alice.post(f"/api/tables/{table}/leave")
    assert left.status_code == 200
    (decision,) = left.get_json()["decisions"]
    assert (decision["street"], decision["action"], decision["automatic"]) == ("preflop", "fold", "disconnect")
    assert alice.get(f"/api/tables/{table}").get_json()["round"]["you"]["bet"]["connected"] is False
    assert alice.post(f"/api/tables/{table}/join").get_json() == {"rejoined": True}
    assert alice.post(f"/api/tables/{table}/join").get_json() == {"rejoined": False}
    assert alice.post("/api/tables/99/leave").status_code == 404


# --- history -----------------------------------------------------------------------------------

def play_rounds(casino: WebCasino, clock, table: int, client, count: int) -> list[int]:
    """Bet and fold ``count`` rounds; returns their ids."""
    ids = []
    for number in range(count):
        client.post(f"/api/tables/{table}/bets", {"ante": "1", "request_id": f"h{number}"})
        dealt(casino, clock, table)
        round_id = client.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
        client.post(f"/api/rounds/{round_id}/decisions", {"action": "fold", "request_id": f"f{number}"})
        assert casino.advance(table)[-2:] == ["settled", "opened"]
        ids.append(round_id)
    return ids


def test_history_pages_ten_rounds_newest_first(casino: WebCasino, clock, table: int, alice) -> None:
    ids = play_rounds(casino, clock, table, alice, 12)
    first = alice.get("/api/history").get_json()
    assert (first["page"], first["per_page"], first["total"], first["pages"]) == (1, 10, 12, 2)
    assert [r["round_id"] for r in first["rounds"]] == ids[::-1][:10]
    second = alice.get("/api/history?page=2").get_json()
    assert [r["round_id"] for r in second["rounds"]] == ids[1::-1]
    folded = second["rounds"][0]["you"]["bet"]
    assert folded["decisions"] == {"preflop": {"action": "fold", "automatic": None}} and folded["folded"]
    assert alice.get("/api/history?page=3").get_json()["rounds"] == []


@pytest.mark.parametrize("page", ["0", "abc", "-1"])
def test_a_bad_history_page_is_400(alice, page: str) -> None:
    response = alice.get(f"/api/history?page={page}")
    assert response.status_code == 400 and error_of(response)["field"] == "page"


# --- the OpenAPI document ----------------------------------------------------------------------

def test_the_openapi_document_lists_exactly_the_api_routes(app, alice) -> None:
    document = alice.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    documented = {(path, method.upper()) for path, item in document["paths"].items() for method in item}
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
            routed |= {(path, method) for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert documented == routed


def test_every_schema_reference_in_the_openapi_document_resolves(alice) -> None:
    document = alice.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]

    def walk(node) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                assert node["$ref"].removeprefix("#/components/schemas/") in schemas
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
