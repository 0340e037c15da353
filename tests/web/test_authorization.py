"""A player can never read or act on another player's bets or history: the session says who acts,
and every view keeps only the viewer's own bets (services.viewing.round_seen_by)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from support.web import WebCasino


@pytest.fixture
def rounds(casino: WebCasino, clock):
    """Alice bets 37 with a Bonus of 13 on a round Bob only watches; it is settled by timeouts."""
    table = casino.table()
    casino.advance(table)
    alice_id, bob_id = casino.player("alice"), casino.player("bob")
    alice, bob = casino.client("alice"), casino.client("bob")
    alice.post(f"/api/tables/{table}/bets", {"ante": "37", "bonus": "13", "request_id": "secret-bet"})
    clock.tick(dt.timedelta(seconds=11))
    casino.advance(table)
    round_id = alice.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    return table, round_id, alice, bob, alice_id, bob_id


def assert_nothing_of_alice(body: str, alice_id: int) -> None:
    assert '"37"' not in body and '"13"' not in body and "secret-bet" not in body
    assert f'"player_id": {alice_id},' not in body and f'"player_id": {alice_id}}}' not in body


def test_another_players_bets_are_not_in_any_view(casino: WebCasino, clock, rounds) -> None:
    table, round_id, alice, bob, alice_id, _ = rounds
    for path in (f"/api/tables/{table}", f"/api/rounds/{round_id}", "/api/tables", "/api/history"):
        response = bob.get(path)
        assert response.status_code == 200
        assert_nothing_of_alice(json.dumps(response.get_json()), alice_id)
    (event,) = bob.events(f"/events/tables/{table}", 1)
    assert_nothing_of_alice(json.dumps(event), alice_id)
    assert event["round"]["bettor_count"] == 1 and event["round"]["you"]["bet"] is None
    assert_nothing_of_alice(bob.get(f"/tables/{table}").get_data(as_text=True), alice_id)
    mine = alice.get(f"/api/rounds/{round_id}").get_json()["you"]["bet"]
    assert (mine["ante"], mine["bonus"]) == ("37", "13")


def test_another_players_round_is_not_in_their_history_or_recall(casino: WebCasino, clock, rounds) -> None:
    table, round_id, alice, bob, alice_id, _ = rounds
    clock.tick(dt.timedelta(seconds=10))
    casino.advance(table)  # alice's pre-flop decision times out (R8): the round ends
    assert [r["round_id"] for r in alice.get("/api/history").get_json()["rounds"]] == [round_id]
    assert bob.get("/api/history").get_json()["total"] == 0
    assert bob.get(f"/history/{round_id}").status_code == 404
    settled = bob.get(f"/api/rounds/{round_id}").get_json()
    assert settled["phase"] == "settled" and settled["result"]["awards"] == []
    assert_nothing_of_alice(json.dumps(settled), alice_id)


def test_a_player_cannot_act_on_another_players_bet(casino: WebCasino, clock, rounds) -> None:
    table, round_id, alice, bob, alice_id, bob_id = rounds
    for body in ({"action": "flop", "request_id": "x"},
                 {"action": "flop", "request_id": "x", "player_id": alice_id}):
        response = bob.post(f"/api/rounds/{round_id}/decisions", body)
        assert response.status_code == 409 and f"player {bob_id} has no bets" in response.get_json()["error"]["message"]
    assert bob.post(f"/api/tables/{table}/leave", {"player_id": alice_id}).get_json() == {"decisions": []}
    mine = alice.get(f"/api/rounds/{round_id}").get_json()["you"]
    assert mine["bet"]["decisions"] == {} and mine["bet"]["connected"] and mine["allowed_actions"] == ["fold", "flop"]
    retry = bob.post(f"/api/tables/{table}/bets", {"ante": "37", "bonus": "13", "request_id": "secret-bet"})
    assert retry.status_code == 409  # alice's request id is hers: bob's retry is his own (late) bet
