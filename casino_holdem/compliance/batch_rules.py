"""The settlement rules of ``core/rules.py`` and ``core/progressive.py``, vectorised with numpy over
many rounds at once.

The simulator (:mod:`.simulate`) settles millions of rounds with these functions and the exact
figures (:mod:`.rtp`) read the Bonus lines with them. Each is the twin of a scalar rule: this module
is laid out under the same headings as its scalar twins (R3 and R4 as in ``core/rules.py``, R5 and
R5/R6 as in ``core/progressive.py``, the whole round as in ``core/rules.py``), every function names
its scalar twin, and every constant (the bets, the streets, the Bonus lines, the prize tables, the
dealing order, the street bets' sizes) is imported from the core, never restated.

A rule change edits these files together: ``core/rules.py`` (R3, R4, the whole round, R9) or
``core/progressive.py`` (R5, R6) for the live game, the scenario CLI and replay; this module
(simulate, rtp); the closed forms of ``compliance/rtp.py`` when the change touches the Bonus or the
Progressive; and the tests that hold the twins to each other
(``tests/compliance/test_simulation.py`` settles batch rounds with ``core.rules.settle`` and
compares them cent for cent).

Shapes: a dealt round is one row of card ids (``4 * rank + suit``) in R1 dealing order without the
burns (:data:`PLAYER_COLUMNS` …); amounts are integers of the currency's smallest unit and the pool
integers of 0.00001 base units (quanta), so nothing is rounded but what R6 rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import cast

import numpy as np
import numpy.typing as npt

from ..core.cards import ACE, JACK, KING, QUEEN, TEN
from ..core.evaluator import Category, categories_batch, evaluate_batch
from ..core.money import POOL_QUANTUM
from ..core.paytable import BONUS_LINES, P2_HANDS, P3_HANDS, Paytable
from ..core.phases import DEALING_ORDER, DECISION_PHASES, Receiver
from ..core.rules import BOARD_SIZE, MAIN_BETS, STREETS

IntArray = npt.NDArray[np.integer]
Int64Array = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

# --- the dealt round and the paytable in integers (R1, R6) -----------------------------------

_DEALT = tuple(step.receiver for step in DEALING_ORDER if step.receiver is not Receiver.BURN)
#: R1: the columns of a dealt round (the dealing order without the burns): P, D, P, D, flop, turn, river
PLAYER_COLUMNS = tuple(column for column, receiver in enumerate(_DEALT) if receiver is Receiver.PLAYER)
DEALER_COLUMNS = tuple(column for column, receiver in enumerate(_DEALT) if receiver is Receiver.DEALER)
BOARD_COLUMNS = tuple(column for column, receiver in enumerate(_DEALT) if receiver is Receiver.BOARD)
CARDS_PER_ROUND = len(_DEALT)
QUANTA_PER_BASE = int(1 / POOL_QUANTUM)
#: R5 P1: the street a Royal Flush is first made on, as a code (0: none)
STREET_CODES: tuple[str | None, ...] = (None, *STREETS)
#: R2.3-R2.5: each street bet's size in Antes (the Flop bet 2, the Turn and River bets 1)
STREET_BET_ANTES = {rules.bet.name: rules.bet.antes for rules in DECISION_PHASES.values() if rules.bet is not None}


@dataclass(frozen=True)
class Units:
    """One bettor's stakes and the paytable as integers: stakes in currency units, the pool in quanta."""

    ante: int
    bonus: int
    progressive: int
    main_odds: dict[str, int]                  # R3: bet → "N to 1"
    ante_qualifier: int
    bonus_pays: Int64Array                     # by bonus code: odds + 1 (0 for a losing hand)
    contribution: int                          # quanta per round (all bettors)
    seed: int
    start: int
    p1_shares: tuple[Fraction, ...]            # by street code
    fixed: dict[tuple[str, int], int]          # ("P2"|"P3", category) → prize in quanta
    units_per_quantum: Fraction
    quanta_per_unit: int
    bettors: int

    @classmethod
    def of(cls, paytable: Paytable, currency: str, *, ante: Decimal, bonus: Decimal, progressive: bool,
           bettors: int, pool: Decimal) -> Units:
        spec, rules = paytable.currency(currency), paytable.progressive

        def quanta(base: Decimal) -> int:
            return int(Decimal(base) * QUANTA_PER_BASE)          # exact: the paytable has <= 5 places
        units_per_quantum = Fraction(spec.multiplier) / (Fraction(spec.unit) * QUANTA_PER_BASE)
        return cls(
            ante=int(ante / spec.unit), bonus=int(bonus / spec.unit),
            progressive=int(spec.multiplier / spec.unit) if progressive else 0,
            main_odds={bet: int(getattr(paytable.main, bet)) for bet in MAIN_BETS},
            ante_qualifier=int(paytable.main.ante_qualifier),
            bonus_pays=np.array([0] + [paytable.bonus.odds(line) + 1 for line in BONUS_LINES], np.int64),
            contribution=quanta(rules.contribution) * bettors if progressive else 0,
            seed=quanta(rules.seed), start=quanta(pool),
            p1_shares=(Fraction(0), *(Fraction(rules.p1_share(street)) for street in STREETS)),
            fixed={**{("P2", hand): quanta(rules.p2_prize(hand) or Decimal(0)) for hand in P2_HANDS},
                   **{("P3", hand): quanta(rules.p3_prize(hand) or Decimal(0)) for hand in P3_HANDS}},
            units_per_quantum=units_per_quantum, quanta_per_unit=int(1 / units_per_quantum),
            bettors=bettors,
        )


# --- R3: the main game ------------------------------------------------------------------------

def main_result(player: IntArray, dealer: IntArray) -> tuple[BoolArray, BoolArray]:
    """R3/R7, twin of ``rules.main_result``: (the Player wins, a tie) per round from the two
    strengths; there is no dealer qualifying hand."""
    return player > dealer, player == dealer


def ante_qualifies(category: IntArray, units: Units) -> BoolArray:
    """R3, the Ante test of ``rules.settle_main_bets``: the Player's hand is the qualifier or better."""
    return category >= units.ante_qualifier


def settle_main_bets(win: BoolArray, tie: BoolArray, category: IntArray, played: BoolArray, turn_bet: BoolArray,
                     river_bet: BoolArray, units: Units) -> tuple[dict[str, Int64Array], dict[str, Int64Array]]:
    """R3, twin of ``rules.settle_main_bets``: each main bet's stake and return per round. The Ante
    wins 1:1 with the qualifier or better and pushes below it; Flop/Turn/River bets win 1:1; ties
    push; a fold (R2.3) has no Flop/Turn/River stake and loses the Ante."""
    made = {"flop": played, "turn": turn_bet, "river": river_bet}
    stakes = {"ante": np.full(len(win), units.ante, np.int64),
              **{bet: made[bet] * np.int64(STREET_BET_ANTES[bet] * units.ante) for bet in made}}
    odds: dict[str, int | IntArray] = {bet: units.main_odds[bet] for bet in MAIN_BETS}
    odds["ante"] = np.where(ante_qualifies(category, units), units.main_odds["ante"], 0)
    returns = {}
    for bet in MAIN_BETS:
        paid = np.where(win, stakes[bet] * (np.asarray(odds[bet]) + 1), np.where(tie, stakes[bet], 0))
        returns[bet] = np.where(played, paid, 0)
    return stakes, returns


# --- R4: the Bonus ----------------------------------------------------------------------------

#: R4 pay lines by code: 0 loses, then the paytable's lines strongest first
BONUS_CODES: tuple[str | None, ...] = (None, *BONUS_LINES)


def bonus_codes(hole: IntArray, dealer: IntArray | None = None) -> npt.NDArray[np.int8]:
    """R4, twin of ``rules.bonus_line``: each row's pay line as an index into :data:`BONUS_CODES`
    (0 = the Bonus loses). AA against the Dealer's AA needs ``dealer``; without it AA is plain AA."""
    r0, r1 = hole[:, 0] >> 2, hole[:, 1] >> 2
    high, low = np.maximum(r0, r1), np.minimum(r0, r1)
    suited = (hole[:, 0] & 3) == (hole[:, 1] & 3)
    aces = (high == ACE) & (low == ACE)
    dealer_aces = (np.zeros(len(hole), bool) if dealer is None
                   else ((dealer[:, 0] >> 2) == ACE) & ((dealer[:, 1] >> 2) == ACE))
    ace_high = (high == ACE) & (low != ACE)
    conditions = {
        "aa_vs_dealer_aa": aces & dealer_aces,
        "aa": aces,
        "ak_suited": ace_high & (low == KING) & suited,
        "aq_aj_suited": ace_high & ((low == QUEEN) | (low == JACK)) & suited,
        "ak_offsuit": ace_high & (low == KING),
        "kk_qq_jj": (high == low) & (high >= JACK) & (high <= KING),
        "aq_aj_offsuit": ace_high & ((low == QUEEN) | (low == JACK)),
        "pair_2_to_10": (high == low) & (high <= TEN),
    }
    # np.select takes the first condition that holds: the lines strongest first, as R4 lists them
    return np.select([conditions[line] for line in BONUS_LINES], np.arange(1, len(BONUS_CODES), dtype=np.int8),
                     0).astype(np.int8)


def settle_bonus(code: npt.NDArray[np.int8], played: BoolArray, units: Units) -> Int64Array:
    """R4, twin of ``rules.settle_bonus``: the Bonus return per round, paid on the hole cards
    whatever the main game's outcome, lost on a fold."""
    return np.where(played, units.bonus * units.bonus_pays[code], 0)


# --- R5: which progressive tables a round qualifies for ----------------------------------------

@dataclass
class Hits:
    """Rounds that qualify for a progressive prize (R5), in round order."""

    index: Int64Array
    p1: npt.NDArray[np.int8]          # street code (STREET_CODES)
    p2: npt.NDArray[np.int8]          # Category or 0
    p3: npt.NDArray[np.int8]          # Category or 0
    played: BoolArray
    other_return: Int64Array          # the bettor's main + Bonus return that round
    stake: Int64Array                 # the bettor's total stake that round

    @classmethod
    def concat(cls, parts: list[Hits]) -> Hits:
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in cls.__dataclass_fields__))


def progressive_codes(cards: npt.NDArray[np.uint8], category: npt.NDArray[np.int8]) -> tuple[Int64Array, ...]:
    """R5, twin of ``progressive.progressive_hits`` and ``progressive.royal_street``: (rows, P1 street
    code, P2 category, P3 category) for the rows that qualify for something. The board alone is never
    stronger than the seven cards, so a 7-card hand below four of a kind qualifies for nothing and
    only the other rows are evaluated again."""
    rows = np.flatnonzero(category >= Category.FOUR_OF_A_KIND)
    chosen = cards[rows]
    hole, board = chosen[:, PLAYER_COLUMNS], chosen[:, BOARD_COLUMNS]
    seven = category[rows].astype(np.int64)
    board_alone = categories_batch(evaluate_batch(board)).astype(np.int64) if rows.size else seven
    p3 = np.where(np.isin(board_alone, P3_HANDS), board_alone, 0)
    royal = seven == Category.ROYAL_FLUSH
    p1 = np.zeros(rows.size, np.int64)
    if royal.any():
        def royal_by(street: str) -> BoolArray:
            seen = np.concatenate([hole, board[:, :BOARD_SIZE[street]]], axis=1)
            return np.asarray(categories_batch(evaluate_batch(seen)) == Category.ROYAL_FLUSH)
        # P1: the street where the Royal Flush first appears; a board-alone royal is P3's
        first_made = [royal & royal_by("flop"), royal & royal_by("turn"), royal & (board_alone != Category.ROYAL_FLUSH)]
        p1 = np.select(first_made, [STREET_CODES.index(street) for street in STREETS], 0)
    # no double payment: P2 (on 7 cards) does not pay when the board pays P3
    p2 = np.where(np.isin(seven, P2_HANDS) & (p3 == 0), seven, 0)
    keep = (p1 > 0) | (p2 > 0) | (p3 > 0)
    return rows[keep], p1[keep], p2[keep], p3[keep]


# --- R5/R6: sharing the prizes and the pool ---------------------------------------------------

def share_prize(prize: Fraction | int, winners: int, units: Units) -> tuple[int, int]:
    """R5/R6, twin of ``progressive.share_prize``: one winner's share in currency units (rounded
    down) and what all the shares cost the pool in quanta (the remainder stays in the pool)."""
    amount = int(Fraction(prize) * units.units_per_quantum / winners)  # floor: amounts are >= 0
    return amount, amount * units.quanta_per_unit * winners


@dataclass
class PoolWalk:
    """The exact pool (quanta) through the run and every progressive payment (currency units per
    bettor)."""

    final: int
    top_ups: int
    awards: dict[str, int]                   # table ("P1" | "P2" | "P3") → units paid to one bettor
    paid_counts: dict[str, int]
    award_per_hit: Int64Array                # one bettor's award, per hit
    before: Int64Array                       # pool before each hit round's contributions
    after: Int64Array                        # pool after each hit round, seed top-up included
    top_up: Int64Array
    p1_events: list[dict[str, object]] = field(default_factory=list)


def walk_pool(hits: Hits, rounds: int, units: Units) -> PoolWalk:
    """R5, twin of ``progressive.contribution``, ``progressive.settle_progressive`` and
    ``progressive.seed_top_up``: carry the pool through ``rounds`` rounds, paying the hits in order.
    Every round adds the contributions; a hit round pays P1 (a share of the pool with this round's
    contributions) first, then the one fixed prize (P3, else P2) capped at what remains; after a
    payout the house refills the pool up to its seed. Between two hits the pool only grows by the contributions, so
    only the hit rounds are walked."""
    bettors = units.bettors if units.progressive else 0
    pool, previous, top_ups = units.start, -1, 0
    awards = {"P1": 0, "P2": 0, "P3": 0}
    paid_counts = {"P1": 0, "P2": 0, "P3": 0}
    per_hit = np.zeros(len(hits.index), np.int64)
    before = np.zeros(len(hits.index), np.int64)
    after = np.zeros(len(hits.index), np.int64)
    top_up = np.zeros(len(hits.index), np.int64)
    p1_events: list[dict[str, object]] = []
    for position, index in enumerate(hits.index.tolist()):
        pool += (index - previous - 1) * units.contribution
        before[position] = pool
        remaining = with_contributions = pool + units.contribution
        flop_bettors = bettors if hits.played[position] else 0   # P1/P2 need the Flop bet
        street, p2, p3 = int(hits.p1[position]), int(hits.p2[position]), int(hits.p3[position])
        mine = 0
        prize = with_contributions * units.p1_shares[street]
        if street and flop_bettors and prize > 0:
            amount, cost = share_prize(prize, flop_bettors, units)
            remaining -= cost
            mine += amount
            awards["P1"] += amount
            paid_counts["P1"] += 1
            p1_events.append({"round": index, "street": STREET_CODES[street], "pool_quanta": with_contributions,
                              "share_units": amount, "bettors": flop_bettors})
        table, category, winners = ("P3", p3, bettors) if p3 else ("P2", p2, flop_bettors)
        if category and winners and units.fixed[(table, category)] > 0:
            amount, cost = share_prize(min(units.fixed[(table, category)], remaining), winners, units)
            remaining -= cost
            mine += amount
            awards[table] += amount
            paid_counts[table] += 1
        refill = units.seed - remaining if remaining < with_contributions and remaining < units.seed else 0
        per_hit[position], top_up[position] = mine, refill
        pool = after[position] = remaining + refill
        top_ups += refill
        previous = index
    pool += (rounds - previous - 1) * units.contribution
    return PoolWalk(pool, top_ups, awards, paid_counts, per_hit, before, after, top_up, p1_events)


def pool_before(at: Int64Array, hits: Hits, walk: PoolWalk, units: Units) -> Int64Array:
    """The pool (quanta) before the contributions of the rounds ``at``: what the last hit before
    left (or the starting pool) plus one round's contributions per round since."""
    last = np.searchsorted(hits.index, at, side="left")   # hits strictly before; 0 = none
    left = np.concatenate([[units.start], walk.after])[last]
    since = np.concatenate([[-1], hits.index])[last]
    return np.asarray(left + (at - since - 1) * units.contribution, np.int64)


# --- the whole round --------------------------------------------------------------------------

@dataclass
class Rounds:
    """Rounds settled for one bettor, twin of ``rules.settle`` without the pool (:func:`walk_pool`
    pays the progressive prizes in round order): each bet's stake and return, the outcome, the
    Bonus line, the Player's category and the progressive hits."""

    stakes: dict[str, Int64Array]
    returns: dict[str, Int64Array]
    win: BoolArray
    tie: BoolArray
    qualifies: BoolArray
    bonus_code: npt.NDArray[np.int8]
    category: npt.NDArray[np.int8]
    hits: Hits


def settle_rounds(cards: npt.NDArray[np.uint8], played: BoolArray, turn_bet: BoolArray, river_bet: BoolArray,
                  units: Units, first: int = 0) -> Rounds:
    """Settle the rounds of ``cards`` (n, :data:`CARDS_PER_ROUND`) with the bettor's decisions
    (R2.3-R2.5); ``first`` is the index of the first round in the run (for the hits)."""
    hole, dealer, board = cards[:, PLAYER_COLUMNS], cards[:, DEALER_COLUMNS], cards[:, BOARD_COLUMNS]
    player = evaluate_batch(np.concatenate([hole, board], axis=1))
    category = categories_batch(player)
    win, tie = main_result(player, evaluate_batch(np.concatenate([dealer, board], axis=1)))
    stakes, returns = settle_main_bets(win, tie, category, played, turn_bet, river_bet, units)
    code = bonus_codes(hole, dealer)
    stakes["bonus"] = np.full(len(cards), units.bonus, np.int64)
    returns["bonus"] = settle_bonus(code, played, units)
    other = cast(Int64Array, sum(returns[bet] for bet in (*MAIN_BETS, "bonus")))
    total_stake = cast(Int64Array, sum(stakes[bet] for bet in (*MAIN_BETS, "bonus"))) + units.progressive
    rows, p1, p2, p3 = progressive_codes(cards, category)
    hits = Hits(index=rows.astype(np.int64) + first, p1=p1.astype(np.int8), p2=p2.astype(np.int8),
                p3=p3.astype(np.int8), played=played[rows], other_return=other[rows], stake=total_stake[rows])
    return Rounds(stakes, returns, win, tie, ante_qualifies(category, units), code, category, hits)
