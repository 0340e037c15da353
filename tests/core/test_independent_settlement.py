"""The compliance lab's check, done here first: random and rare-hand rounds settled by the
scenario contract and, field by field, by a second, independent calculation written straight
from docs/rules.md R3-R6 (Fractions, the brute-force reference evaluator, no code of core.rules)."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from reference import ref_key

from casino_holdem.core.cards import FULL_DECK, Card
from casino_holdem.core.scenario import play, settlement_json

F = Fraction
# R6 table, typed in again from the rule book: currency -> (multiplier, smallest unit)
CURRENCIES = {"USD": (1, F(1, 100)), "EUR": (1, F(1, 100)), "AUD": (1, F(1, 100)), "RMB": (5, F(1, 100)),
              "MYR": (2, F(1, 100)), "THB": (25, F(1, 100)), "JPY": (100, F(1)), "IDR": (10, F(1, 1000)),
              "VND": (20, F(1, 1000)), "KRW": (1000, F(1)), "INR": (40, F(1, 100))}
BONUS = {"AA_AA": 1000, "AA": 30, "AKs": 25, "AQJs": 20, "AKo": 15, "KQJ": 10, "AQJo": 5, "low_pair": 3}
ROYAL, SF, QUADS, STRAIGHT = 9, 8, 7, 4


def floor_to(amount: Fraction, unit: Fraction) -> Fraction:
    return (amount // unit) * unit


def royal_in(cards: list[Card]) -> bool:
    return any(all(Card.of(rank, suit) in cards for rank in (8, 9, 10, 11, 12)) for suit in range(4))


def bonus_odds(hole: list[Card], dealer: list[Card]) -> tuple[str, int] | None:
    a, b = sorted(card.rank for card in hole)
    suited = hole[0].suit == hole[1].suit
    if a == b == 12:
        return ("AA_AA", 1000) if sorted(c.rank for c in dealer) == [12, 12] else ("AA", 30)
    if (a, b) == (11, 12):
        return ("AKs", 25) if suited else ("AKo", 15)
    if b == 12 and a in (9, 10):
        return ("AQJs", 20) if suited else ("AQJo", 5)
    if a == b and a in (9, 10, 11):
        return "KQJ", 10
    if a == b:
        return "low_pair", 3
    return None


def independent(round_: dict[str, Any]) -> dict[str, Any]:
    """R3-R6 from the text of the rule book."""
    cards = {k: [Card.parse(c) for c in v] for k, v in round_["cards"].items()}
    player, dealer, board = cards["player"], cards["dealer"], cards["board"]
    p_key, d_key = ref_key(player + board), ref_key(dealer + board)
    board_cat, seven_cat = ref_key(board)[0], p_key[0]
    pool = F(Decimal(round_["pool"])) + F(95, 100) * sum(1 for b in round_["bettors"] if b.get("progressive"))
    pool_now = pool
    # R5 street of the royal
    street = next((s for s, n in (("flop", 3), ("turn", 4), ("river", 5))
                   if royal_in(player + board[:n]) and not royal_in(board[:n])), None)
    p3 = board_cat if board_cat >= QUADS else None
    p2 = seven_cat if seven_cat in (SF, QUADS) and p3 is None else None
    live = [b for b in round_["bettors"] if b["decisions"]["preflop"] == "flop"]
    prog = [b for b in round_["bettors"] if b.get("progressive")]
    live_prog = [b for b in prog if b in live]
    awards: dict[str, Fraction] = {b["id"]: F(0) for b in prog}
    paid = F(0)

    def share(prize: Fraction, winners: list[dict[str, Any]]) -> None:
        nonlocal pool, paid
        if not winners:
            return
        prize = min(prize, pool)
        cost = F(0)
        for winner in winners:
            m, unit = CURRENCIES[winner["currency"]]
            amount = floor_to(prize * m / len(winners), unit)
            awards[winner["id"]] += amount
            cost += amount / m
        pool -= cost
        paid += cost

    if street:
        share(pool_now * {"flop": F(90, 100), "turn": F(25, 100), "river": F(5, 100)}[street], live_prog)
    if p3 is not None:
        share(F({ROYAL: 4000, SF: 600, QUADS: 120}[p3]), prog)
    elif p2 is not None:
        share(F({SF: 600, QUADS: 120}[p2]), live_prog)

    bettors = {}
    for b in round_["bettors"]:
        ante = F(Decimal(b["ante"]))
        bonus = F(Decimal(b.get("bonus", "0")))
        folded = b["decisions"]["preflop"] == "fold"
        stakes = {"ante": ante, "flop": 0 if folded else 2 * ante,
                  "turn": ante if not folded and b["decisions"].get("flop") == "bet" else 0,
                  "river": ante if not folded and b["decisions"].get("turn") == "bet" else 0}
        returned = {}
        for bet, stake in stakes.items():
            if folded or stake == 0 or p_key < d_key:
                returned[bet] = F(0)
            elif p_key == d_key or (bet == "ante" and seven_cat < STRAIGHT):
                returned[bet] = stake
            else:
                returned[bet] = 2 * stake
        line = bonus_odds(player, dealer)
        returned["bonus"] = bonus * (line[1] + 1) if bonus and line and not folded else F(0)
        m = CURRENCIES[b["currency"]][0]
        returned["progressive"] = awards.get(b["id"], F(0))
        staked = sum(stakes.values()) + bonus + (m if b.get("progressive") else 0)
        bettors[b["id"]] = {"returned": returned, "staked": staked}
    return {"pool_after": pool, "paid": paid, "result": (p_key > d_key) - (p_key < d_key), "bettors": bettors}


TEMPLATES = [  # rare hands (R5): P1 on each street, P2, P3, AA vs AA
    (["As", "Ks"], ["Qs", "Js", "Ts"]), (["Ah", "Kh"], ["Qh", "Jh", "2c", "Th"]),
    (["Ad", "2c"], ["Kd", "Qd", "Jd", "3s", "Td"]),
    ([], ["Ac", "Kc", "Qc", "Jc", "Tc"]), (["9h", "8h"], ["7h", "6h", "5h"]), (["9c", "9d"], ["9h", "9s"]),
    ([], ["8c", "8d", "8h", "8s"]), (["As"], ["9s", "Ts", "Js", "Qs", "Ks"]), (["Th"], ["5h", "6h", "7h", "8h", "9h"]),
    ([], ["5d", "6d", "7d", "8d", "9d"]),
]


def random_round(rng: random.Random) -> dict[str, Any]:
    player, board = rng.choice(TEMPLATES) if rng.random() < 0.5 else ([], [])
    fixed = [Card.parse(c) for c in player + board]
    rest = [c for c in FULL_DECK if c not in fixed]
    rng.shuffle(rest)
    player_cards = [Card.parse(c) for c in player] + rest[: 2 - len(player)]
    rest = rest[2 - len(player):]
    if rng.random() < 0.05 and all(c.rank != 12 for c in fixed):  # AA against AA (R4)
        aces = [Card.of(12, s) for s in range(4)]
        player_cards, dealer_cards = aces[:2], aces[2:]
        rest = [c for c in rest if c.rank != 12]
    else:
        dealer_cards, rest = rest[:2], rest[2:]
    board_cards = [Card.parse(c) for c in board] + rest[: 5 - len(board)]
    rng.shuffle(board_cards[len(board):])
    bettors = []
    for i in range(rng.randint(1, 7)):
        currency = rng.choice(sorted(CURRENCIES))
        m, unit = CURRENCIES[currency]
        preflop = rng.choice(["fold", "flop", "flop", "flop"])
        decisions = {"preflop": preflop}
        if preflop == "flop":
            decisions |= {"flop": rng.choice(["bet", "check"]), "turn": rng.choice(["bet", "check"])}
        ante = Decimal(m * unit.numerator * rng.randint(1, 5000)) / unit.denominator
        bettor = {"id": f"b{i}", "currency": currency, "ante": str(ante), "decisions": decisions,
                  "progressive": rng.random() < 0.7}
        if rng.random() < 0.6:
            bettor["bonus"] = str(Decimal(m * rng.randint(1, 100)))
        bettors.append(bettor)
    return {"pool": str(Decimal(rng.randint(0, 10**9)) / 10**5),
            "cards": {"player": [str(c) for c in player_cards], "dealer": [str(c) for c in dealer_cards],
                      "board": [str(c) for c in board_cards]}, "bettors": bettors}


@pytest.mark.parametrize("seed", range(8))
def test_contract_agrees_with_an_independent_calculation(seed: int, standard) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        round_ = random_round(rng)
        got = settlement_json(play(round_, standard))
        want = independent(round_)
        assert F(Decimal(got["pool"]["after"])) == want["pool_after"], round_
        assert F(Decimal(got["pool"]["paid"])) == want["paid"], round_
        assert got["result"] == {1: "player_wins", -1: "dealer_wins", 0: "tie"}[want["result"]]
        for bettor in got["bettors"]:
            expected = want["bettors"][bettor["id"]]
            for bet, returned in expected["returned"].items():
                assert F(Decimal(bettor["bets"][bet]["returned"])) == returned, (round_, bettor["id"], bet)
            assert F(Decimal(bettor["staked"])) == expected["staked"]


def test_rare_templates_are_hit(standard) -> None:
    """The generator really produces progressive hits, so the comparison above covers R5/R6."""
    rng = random.Random(0)
    tables = set()
    for _ in range(480):
        output = settlement_json(play(random_round(rng), standard))
        for bettor in output["bettors"]:
            tables.update((a["table"], a["hand"], a["street"]) for a in bettor["bets"]["progressive"].get("awards", []))
    assert {("P1", "royal_flush", s) for s in ("flop", "turn", "river")} <= tables
    assert {("P2", "straight_flush", None), ("P2", "four_of_a_kind", None), ("P3", "royal_flush", None),
            ("P3", "straight_flush", None), ("P3", "four_of_a_kind", None)} <= tables

