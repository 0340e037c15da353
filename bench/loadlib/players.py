"""Simulated players at human pace, and watchers that only hold event streams open.

A player follows its table's event stream as a browser would. When betting is open it places an
Ante (sometimes a Bonus and the Progressive bet, R2.1) after a random think time; when a decision
is due (R2.3-R2.5) it picks one of the allowed actions after a random think time that ends at the
latest ``margin`` seconds before the deadline: a decision is never *sent* after its window (R8),
so any decision the house takes for a player shows how late the server was, not the player.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import time
import uuid
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from .client import Account, ApiError
from .stats import Recorder, SentDecision

#: the decision each phase asks for (R2.3-R2.5), as the API names its street
STREET = {"pre_flop": "preflop", "flop": "flop", "turn": "turn"}
FINISHED = ("settled", "void")
#: the quickest a person reacts, in seconds
MIN_THINK = 0.3
#: a window seen with less than this left is not worth a request
TOO_LATE = 0.05
BET_CHANCE = 0.9
BONUS_CHANCE = 0.3
PROGRESSIVE_CHANCE = 0.5
#: weights of the choices: mostly play on (R2.3 Flop bet), sometimes bet the turn and river
WEIGHTS = {"flop": 85, "fold": 15, "bet": 40, "check": 60}


def instant(text: str) -> float:
    """An ISO 8601 time from the API as a wall-clock timestamp."""
    return dt.datetime.fromisoformat(text).timestamp()


@dataclass
class Pace:
    """What every player shares: the margin before deadlines, and whether bets are still taken
    (not once the measured window is over: the players then only finish their rounds)."""

    margin: float
    accepting: bool = True


class Player:
    """One player at one table."""

    def __init__(self, account: Account, table_id: int, rng: random.Random, recorder: Recorder, pace: Pace) -> None:
        self.account, self.table_id, self.rng, self.rec, self.pace = account, table_id, rng, recorder, pace
        self.seen: set[tuple[int, str]] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.bet_rounds: list[int] = []
        self.current: dict[str, Any] | None = None

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def on_table_state(self, state: dict[str, Any]) -> None:
        """React to the table's state, once per round and phase."""
        current = state.get("round")
        self.current = current
        if not current or (current["round_id"], current["phase"]) in self.seen:
            return
        self.seen.add((current["round_id"], current["phase"]))
        phase, you = current["phase"], current.get("you") or {}
        if phase == "betting":
            if not you.get("has_bet") and self.pace.accepting and self.rng.random() < BET_CHANCE:
                self._spawn(self._bet(state))
            return
        if phase not in STREET or not you.get("has_bet"):
            return
        if current.get("deadline"):  # R8: the window opens as the cards are dealt
            dealt = instant(current["deadline"]) - state["table"]["decision_seconds"]
            self.rec.event_delays.append(time.time() - dealt)
        bet = you.get("bet") or {}
        if you.get("allowed_actions"):
            self._spawn(self._decide(current))
        elif not bet.get("folded") and STREET[phase] not in (bet.get("decisions") or {}):
            self.rec.not_sent["window closed before the stream showed it"] += 1

    async def _my_turn(self, deadline: float, what: str) -> bool:
        """Think for a random human time that ends before ``deadline - margin``; False when the
        window is (about to be) over, so nothing is sent after it."""
        room = deadline - self.pace.margin - time.time()
        if room > MIN_THINK:
            await asyncio.sleep(self.rng.uniform(MIN_THINK, room))
        elif deadline - time.time() <= TOO_LATE:
            self.rec.not_sent[f"{what}: window seen too late"] += 1
            return False
        if time.time() >= deadline:
            self.rec.not_sent[f"{what}: client woke after the deadline"] += 1
            return False
        return True

    async def _bet(self, state: dict[str, Any]) -> None:
        """R2.1: an Ante of one or five minimum chips, sometimes the minimum Bonus and the
        Progressive bet; retried with the same request id after a network error."""
        deadline = instant(state["round"]["deadline"])
        if not await self._my_turn(deadline, "bet") or not self.pace.accepting:
            return
        table = state["table"]
        body: dict[str, Any] = {"ante": self.rng.choice(table["chips"][:2]), "request_id": uuid.uuid4().hex,
                                "round_id": state["round"]["round_id"]}  # R2.1: never placed on the next round
        if table["limits"].get("bonus_min") and self.rng.random() < BONUS_CHANCE:
            body["bonus"] = table["limits"]["bonus_min"]
        if self.rng.random() < PROGRESSIVE_CHANCE:
            body["progressive"] = True
        try:
            status, receipt = await self.account.call("POST", f"/api/tables/{self.table_id}/bets",
                                                      "POST /api/tables/{id}/bets", body, until=deadline)
        except ApiError:
            return
        if status == 201:
            self.rec.count("bet")
            self.bet_rounds.append(receipt["round_id"])
            if receipt["round_id"] != body["round_id"]:
                self.rec.errors["bets sent for one round placed on another (R2.1: must never happen)"] += 1

    async def _decide(self, current: dict[str, Any]) -> None:
        """R2.3-R2.5: one of the allowed actions, sent inside the window."""
        deadline, actions = instant(current["deadline"]), current["you"]["allowed_actions"]
        if not await self._my_turn(deadline, "decision"):
            return
        action = self.rng.choices(actions, [WEIGHTS.get(a, 1) for a in actions])[0]
        sent = SentDecision(self.account.username, current["round_id"], STREET[current["phase"]], time.time(), deadline)
        self.rec.sent.append(sent)
        try:
            sent.status, receipt = await self.account.call(
                "POST", f"/api/rounds/{current['round_id']}/decisions", "POST /api/rounds/{id}/decisions",
                {"action": action, "street": sent.street, "request_id": uuid.uuid4().hex},
                until=deadline)
        except ApiError:
            return
        if sent.status == 201:
            self.rec.count("decision")
            if receipt.get("street") != sent.street:  # a late request applied to the next street
                self.rec.errors[f"decision sent for the {sent.street} recorded on the {receipt.get('street')} "
                                "(R8: a named street must never be moved)"] += 1

    def drained(self) -> bool:
        """No decision pending and no round of ours still in play (as the stream last showed)."""
        if self.tasks:
            return False
        if not self.bet_rounds or self.current is None:
            return True
        return self.current["round_id"] != self.bet_rounds[-1] or self.current["phase"] in FINISHED

    async def resolve(self) -> tuple[int, int, dict[tuple[str, int, str], bool]]:
        """After the run, from the round recall: how many decisions this player owed, how many
        the house took (R8), and for each (player, round, street) whether it was automatic."""
        owed, automated, resolved = 0, 0, {}
        for round_id in sorted(set(self.bet_rounds)):
            try:
                status, view = await self.account.call("GET", f"/api/rounds/{round_id}", "round recall", record=False)
            except ApiError:
                continue
            bet = (view.get("you") or {}).get("bet") if status == 200 else None
            for street, decision in ((bet or {}).get("decisions") or {}).items():
                owed += 1
                automated += decision.get("automatic") is not None
                resolved[(self.account.username, round_id, street)] = decision.get("automatic") is not None
        return owed, automated, resolved
