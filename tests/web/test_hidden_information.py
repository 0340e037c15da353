"""R1 hidden information: the Dealer's hole cards, the burn cards, the undealt deck and the deck's
nonce never leave the server before the round is settled or void.

Two players play several rounds through the API, the pages and the event streams (on an RNG table,
and on a live table whose cards a dealer enters through the dealer API); every byte
sent to either of them is checked at the moment it is sent against the rounds then unfinished:
- raw bytes: no unfinished round's deck text or nonce;
- JSON (API bodies, event data, the state embedded in pages): every card string, attributed to
  the round object it sits in, is one that round has shown (the Player's cards and the board);
- HTML card markup (``data-card``): only inside a finished round's ``<article data-round>``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from casino_holdem.core.phases import BOARD_POSITIONS, PLAYER_POSITIONS
from casino_holdem.extensions import db
from casino_holdem.models import GameRound
from support.live import CARDS, DEALER_CARDS, DECIDE_AFTER
from support.web import Client, WebCasino

CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
STATE = re.compile(r'<script type="application/json" id="state">(.*?)</script>', re.DOTALL)
ARTICLE = re.compile(r'<article class="recall" data-round="(\d+)".*?</article>', re.DOTALL)
DATA_CARD = re.compile(r'data-card="([^"]*)"')


@dataclass(frozen=True)
class Secret:
    hidden: frozenset[str]
    deck: str
    nonce: str | None  # a live round has none (its cards are entered as dealt)


class Scanner:
    """Checks every response (a listener of the test clients) against the unfinished rounds."""

    def __init__(self) -> None:
        self.responses = 0
        self.live_cards = 0

    @staticmethod
    def secrets() -> dict[int, Secret]:
        rows = db.session.scalars(select(GameRound).where(GameRound.phase.notin_(("settled", "void")))).all()
        found = {}
        for row in rows:
            deck = row.deck.split()
            shown = {deck[p] for p in (*PLAYER_POSITIONS, *BOARD_POSITIONS) if p < row.dealt_count}
            found[row.id] = Secret(frozenset(deck) - shown, row.deck, row.nonce)
        db.session.commit()
        return found

    def __call__(self, path: str, response: Any) -> None:
        secrets = self.secrets()
        body = response.get_data()
        self.responses += 1
        for secret in secrets.values():
            # a live round's deck holds only the cards dealt so far: a secret once it holds a hidden one
            assert not secret.hidden or secret.deck.encode() not in body, path
            assert not secret.nonce or secret.nonce.encode() not in body, path
        text = body.decode()
        if response.mimetype == "application/json":
            self.walk(json.loads(text), None, secrets, path)
        elif response.mimetype == "text/event-stream":
            for line in text.splitlines():
                if line.startswith("data: "):
                    self.walk(json.loads(line[6:]), None, secrets, path)
        else:
            self.scan_html(text, secrets, path)

    def scan_html(self, html: str, secrets: dict[int, Secret], path: str) -> None:
        for state in STATE.findall(html):
            self.walk(json.loads(state), None, secrets, path)
        articles = [(match.span(), int(match.group(1))) for match in ARTICLE.finditer(html)]
        for match in DATA_CARD.finditer(html):
            owner = next((round_id for (start, end), round_id in articles if start <= match.start() < end), None)
            assert owner is not None and owner not in secrets, f"{path}: card markup of an unfinished round"

    def walk(self, node: Any, round_id: int | None, secrets: dict[int, Secret], path: str) -> None:
        if isinstance(node, dict):
            own = node.get("round_id")
            for value in node.values():
                self.walk(value, own if isinstance(own, int) else round_id, secrets, path)
        elif isinstance(node, list):
            for value in node:
                self.walk(value, round_id, secrets, path)
        elif isinstance(node, str) and node.split() and all(CARD.match(token) for token in node.split()):
            for card in node.split():
                if round_id in secrets:
                    self.live_cards += 1
                    assert card not in secrets[round_id].hidden, f"{path}: hidden card {card} of round {round_id}"
                else:
                    assert round_id is not None, f"{path}: card {card} outside any round"


def look(client: Client, table: int) -> None:
    """Everything a player's browser fetches while sitting at a table."""
    state = client.get(f"/api/tables/{table}").get_json()
    for path in ("/", f"/tables/{table}", "/history", "/api/tables", "/api/me", "/api/history", "/login"):
        client.get(path)
    if state["round"] is not None:
        client.get(f"/api/rounds/{state['round']['round_id']}")
        client.get(f"/history/{state['round']['round_id']}")  # not yours yet, or in play
    client.events(f"/events/tables/{table}", 1)
    client.events("/events/lobby", 1)


def decide(client: Client, round_id: int, action: str) -> None:
    client.post(f"/api/rounds/{round_id}/decisions", {"action": action, "request_id": f"{round_id}-{action}"})


def test_no_hidden_card_is_ever_sent_before_the_round_ends(casino: WebCasino, clock) -> None:
    scanner = Scanner()
    casino.listener = scanner
    table = casino.table()
    casino.advance(table)
    casino.player("alice")
    casino.player("bob", currency="RMB")
    alice, bob = casino.client("alice"), casino.client("bob")
    players = (alice, bob)
    plays = [  # per round: alice's and bob's decisions per street (None: let the window time out)
        ({"preflop": "flop", "flop": "bet", "turn": "check"}, {"preflop": "fold"}),
        ({"preflop": "flop", "flop": None, "turn": None}, {"preflop": "flop", "flop": "bet", "turn": "bet"}),
        ({"preflop": None}, None),
    ]
    finished = []
    for number, plan in enumerate(plays):
        for client, decisions in zip(players, plan, strict=True):
            if decisions is not None:
                client.post(f"/api/tables/{table}/bets", {"ante": "10" if client is alice else "50", "bonus": "5",
                                                          "progressive": True, "request_id": f"bet-{number}"})
        for client in players:
            look(client, table)
        clock.tick(dt.timedelta(seconds=11))
        casino.advance(table)
        round_id = alice.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
        for street in ("preflop", "flop", "turn"):
            for client in players:
                look(client, table)
            late = False
            for client, decisions in zip(players, plan, strict=True):
                action = None if decisions is None else decisions.get(street)
                if action is not None:
                    decide(client, round_id, action)
                elif decisions is not None:
                    late = True
            decide(bob, round_id, "raise")  # refused: the error is scanned too
            if late:
                clock.tick(dt.timedelta(seconds=10))
            if "settled" in casino.advance(table):
                break
        finished.append(round_id)
        for client in players:
            look(client, table)
    recall = alice.get(f"/api/rounds/{finished[0]}").get_json()
    assert len(recall["cards"]["dealer"]) == 2 and recall["reveal"]["nonce"]  # revealed once settled
    assert scanner.live_cards > 50 and scanner.responses > 200  # the scan saw cards of rounds in play


def test_no_hidden_card_of_a_live_table_is_ever_sent_before_showdown(casino: WebCasino, clock) -> None:
    """R1 on a live table (issue 12): while a dealer enters the cards one by one, nothing either
    player fetches (JSON, pages, event streams), nor what the dealer's own API and console send,
    shows the Dealer's or a burn card before the round is settled."""
    scanner = Scanner()
    casino.listener = scanner
    table = casino.table(dealing="live")
    casino.advance(table)
    casino.player("alice")
    casino.player("bob", currency="RMB")
    players = casino.client("alice"), casino.client("bob")
    dealer = casino.operator_client("dealer1", "dealer")
    for client, ante in zip(players, ("10", "50"), strict=True):
        client.post(f"/api/tables/{table}/bets", {"ante": ante, "bonus": "5", "progressive": True, "request_id": "b"})
    clock.tick(dt.timedelta(seconds=11))
    casino.advance(table)
    round_id = players[0].get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    for dealt, card in enumerate(CARDS, start=1):
        assert dealer.post(f"/api/dealer/tables/{table}/cards", {"card": card}).status_code == 200
        for path in (f"/api/dealer/tables/{table}", "/api/dealer/tables", f"/operator/dealer/{table}",
                     "/operator/dealer/"):
            dealer.get(path)
        for client in players:
            look(client, table)
        if dealt in DECIDE_AFTER:
            for client in players:
                client.post(f"/api/rounds/{round_id}/decisions", {"action": DECIDE_AFTER[dealt],
                                                                  "request_id": f"{round_id}-{dealt}"})
            casino.advance(table)
    recall = players[0].get(f"/api/rounds/{round_id}").get_json()
    assert recall["phase"] == "settled" and recall["cards"]["dealer"] == list(DEALER_CARDS)  # shown at showdown
    assert scanner.live_cards > 100 and scanner.responses > 300
