"""A live table's round for the tests (R1, R9): alice and bob bet on it, the dealer deals it card
by card in R1's order, both deciding after each street, and incidents are reported on it; the
service tests drive it through the services, the web tests through the dealer API (override
:meth:`LiveRound.deal` and :meth:`LiveRound.report`). :data:`R9_LEDGER` is every R9 incident at
every stage where it can happen with its ledger effect, to the cent."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from casino_holdem.models import GameRound
from casino_holdem.services import jackpot, live_dealing, rounds, verify
from casino_holdem.services.viewing import round_seen_by

from .casino import SECOND, T0, staff

#: R1 order: Player 1st, Dealer 1st, Player 2nd, Dealer 2nd, burn, flop ×3, burn, turn, burn, river
CARDS = ["Ac", "4h", "Ad", "Kd", "5c", "9s", "8s", "2c", "6c", "3h", "7c", "Jd"]
DEALER_CARDS = ("4h", "Kd")
#: the same cards as a dealer or a scanner may type them (R1: any case, suit symbols, a trailing Enter)
TYPED = ["AC", "4h", "ad", "K♦", " 5c", "9♠", "8S", "2c\n", "6c", "3♥", "7c", "JD"]
#: alice and bob each: Ante 10, Bonus 5, Progressive 1 (USD), Flop bet 20, then check, check
START, POOL_SEED = Decimal(1000), Decimal(50)
#: R3: Player A-A beats the Dealer's K high with less than a Straight: Ante pushes, Flop bet wins;
#: R4: A-A pays 30 to 1; the Progressive loses (its 0.95 stays in the pool)
SETTLED = START + 20 + 150 - 1
SETTLED_POOL = POOL_SEED + Decimal("1.90")
DECIDE_AFTER = {4: "flop", 8: "check", 10: "check"}
#: who deals the cards and who reports the incidents (the house's voids are the pit's, R9)
DEALER, PIT = staff("dealer1", "dealer"), staff("pit1", "pit")


class LiveRound:
    """One live round at a live table with alice and bob in it, dealt card by card."""

    def __init__(self, casino) -> None:
        self.casino = casino
        self.pool = casino.pool(seed=str(POOL_SEED))
        self.table = casino.table(self.pool, dealing="live")
        self.round_id = casino.open(self.table)
        self.alice, self.bob = casino.player(), casino.player()
        for player in (self.alice, self.bob):
            rounds.place_bets(player, self.table, "10", "5", True, request_id=f"p{player}", now=T0)
        self.now = T0 + 10 * SECOND

    def close_betting(self) -> None:
        self.casino.run(self.table, self.now)

    def deal_to(self, cards: int) -> None:
        """Deal until ``cards`` cards are out, both players deciding after each street."""
        row = self.row()
        if row.phase == "betting":
            self.close_betting()
        while self.row().dealt_count < cards:
            dealt = self.row().dealt_count
            self.now += SECOND
            self.deal(CARDS[dealt])
            if dealt + 1 in DECIDE_AFTER and dealt + 1 < 12:
                for player in (self.alice, self.bob):
                    rounds.decide(player, self.round_id, DECIDE_AFTER[dealt + 1], request_id=f"d{dealt}{player}",
                                  now=self.now)
                self.casino.run(self.table, self.now)

    def deal(self, code: str) -> None:
        live_dealing.deal_card(self.table, code, by=DEALER, now=self.now)

    def row(self) -> GameRound:
        from casino_holdem.extensions import db
        db.session.expire_all()
        return db.session.get(GameRound, self.round_id)

    def report(self, kind: str, **detail: Any) -> dict[str, Any]:
        return live_dealing.report_incident(self.table, kind, by=PIT, now=self.now, **detail)

    def play_incident(self, kind: str, cards: int, detail: dict[str, Any], voids: bool,
                      balance: Decimal) -> dict[str, Any]:
        """A row of :data:`R9_LEDGER`: deal ``cards`` cards, report the incident, finish the round
        when it goes on, and check what R9 says to the cent (both players' balances, the pool, the
        replay, the ledger). Returns the recorded incident."""
        if cards >= 0:
            self.deal_to(cards)
        incident = self.report(kind, **detail)
        assert (incident["effect"] == "void") == voids
        if not voids:
            assert round_seen_by(self.row(), self.bob)["notices"] == [incident["notice"]]
            self.deal_to(12)
        assert self.row().phase == ("void" if voids else "settled")
        assert self.casino.balance(self.alice) == balance and self.casino.balance(self.bob) == balance
        assert jackpot.pool_view(self.pool).amount == (POOL_SEED if voids else SETTLED_POOL)
        assert verify.replay(self.round_id).identical
        self.casino.assert_sound()
        return incident


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
