"""Server-sent events: the state comes from the database on every poll, so a change made by any
process (here: another client's request, the dealer's step) reaches the stream; streams end by
themselves after their lifetime."""

from __future__ import annotations

import datetime as dt
import json
import time
from typing import Any

from support.web import WebCasino


def _state(chunk: bytes) -> dict[str, Any]:
    """The payload of one ``event: state`` chunk."""
    state: dict[str, Any] = json.loads(chunk.split(b"data: ", 1)[1])
    return state


def test_the_table_stream_sends_the_state_then_each_change(casino: WebCasino, clock) -> None:
    table = casino.table()
    casino.advance(table)
    casino.player("alice")
    casino.player("bob")
    alice, bob = casino.client("alice"), casino.client("bob")
    response = alice.http.get(f"/events/tables/{table}", buffered=False)
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry: ")
    first = next(chunks)
    assert first.startswith(b"event: state\ndata: ") and _state(first)["round"]["bettor_count"] == 0
    assert bob.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "b"}).status_code == 201
    second = _state(next(chunk for chunk in chunks if chunk.startswith(b"event: state")))
    assert second["round"]["bettor_count"] == 1
    clock.tick(dt.timedelta(seconds=11))
    casino.advance(table)
    third = _state(next(chunk for chunk in chunks if chunk.startswith(b"event: state")))
    assert third["round"]["phase"] == "pre_flop" and third["round"]["you"]["has_bet"] is False  # bob's round
    response.close()


def test_the_lobby_stream_sends_the_meter_in_the_players_currency(casino: WebCasino, clock) -> None:
    """R6: the jackpot meter is the pool × the viewer's multiplier (THB: 25)."""
    table = casino.table(seed="100")
    casino.advance(table)
    casino.player("thb", currency="THB")
    (state,) = casino.client("thb").events("/events/lobby", 1)
    (listed,) = state["tables"]
    assert listed["jackpot"] == "2500" and state["currency"]["code"] == "THB"


def test_the_lobby_stream_sends_the_balance_a_deposit_left(casino: WebCasino) -> None:
    """A deposit changes no table: the posting publishes its player, and their lobby's stream
    sends the balance it left (issue 10)."""
    from casino_holdem.services import wallet

    casino.advance(casino.table())
    alice = casino.player("alice")
    response = casino.client("alice").http.get("/events/lobby", buffered=False)
    chunks = iter(response.response)
    first = _state(next(chunk for chunk in chunks if chunk.startswith(b"event: state")))
    assert first["balance"]["available"] == "1000"
    wallet.deposit(alice, "25", "cashier:alice")
    second = _state(next(chunk for chunk in chunks if chunk.startswith(b"event: state")))
    assert second["balance"]["available"] == "1025"
    response.close()


def test_a_stream_ends_by_itself_after_its_lifetime(app, casino: WebCasino) -> None:
    app.config.update(CASINO_SSE_POLL=0.01, CASINO_SSE_LIFETIME=0.3)
    table = casino.table()
    casino.advance(table)
    casino.player("alice")
    client = casino.client("alice")
    started = time.monotonic()
    response = client.http.get(f"/events/tables/{table}", buffered=False)
    body = b"".join(response.response)
    assert time.monotonic() - started < 5
    assert body.count(b"event: state") == 1  # nothing changed: one state, then silence
    assert response.headers["Cache-Control"] == "no-store"  # personal data (the viewer's bets and balance)
