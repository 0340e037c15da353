"""Batch simulation: millions of complete rounds dealt, played and settled with the rules of
:mod:`casino_holdem.core.rules`, vectorised with numpy.

This is simulation, not play: the cards come from a seeded numpy ``Generator`` (the play shuffle is
:func:`casino_holdem.core.shuffle.secure_shuffle`), so a run is reproduced exactly from its seed.

Model of the table
    Every round deals one Player hand and one Dealer hand (R1). ``bettors`` players sit at the
    table; they all play the shared Player hand with the same strategy and the same stakes
    (R1, R2), so their main-game and Bonus results are equal and only the progressive prizes are
    *shared* (R5). Each bettor places the Ante, the Bonus (unless it is zero) and the Progressive
    bet (unless disabled), all in one currency of the paytable (R6).

Settlement (same semantics as ``core.rules.settle``; amounts are integers of the currency's
smallest unit, the pool integers of 0.00001 base units, so nothing is rounded but what R6 rounds)
    - R3: Ante 1:1 with the qualifier or better, else push; Flop/Turn/River bets 1:1; ties push;
      a fold loses the Ante (R2.3);
    - R4: the Bonus on the hole cards, AA vs the Dealer's AA included, lost on a fold;
    - R5/R6: the pool receives ``contribution`` per Progressive bet; P1 is a share of the pool
      including this round's contributions and is paid first, then one fixed prize (P3 from the
      board alone, else P2) capped at what remains; shares are rounded down per bettor and the
      remainder stays in the pool; after a payout the house tops the pool up to its seed.

Speed
    Rounds are dealt and settled in chunks on worker threads (numpy releases the GIL). The only
    sequential dependence is the pool, and it only matters in rounds where a progressive prize is
    won (about 0.2 %): between two such rounds the pool grows by a constant contribution per
    round, so the pool is walked exactly over those rounds alone (:func:`walk_pool`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..core.evaluator import Category, categories_batch, evaluate_batch
from ..core.money import POOL_QUANTUM, ZERO
from ..core.paytable import Paytable
from .strategies import Strategy
from .vector import BONUS_CODES, bonus_codes

#: columns of a dealt round (R1 order without the burns): P, D, P, D, flop ×3, turn, river
PLAYER_COLUMNS = (0, 2)
DEALER_COLUMNS = (1, 3)
BOARD_COLUMNS = (4, 5, 6, 7, 8)
CARDS_PER_ROUND = 9
MAIN_BETS = ("ante", "flop", "turn", "river")
#: bet groups with a stake and a return per bettor and round
GROUPS = (*MAIN_BETS, "main", "bonus", "progressive", "total")
STREET_CODES = (None, "flop", "turn", "river")
CHUNK_ROUNDS = 1 << 16
QUANTA_PER_BASE = int(1 / POOL_QUANTUM)


@dataclass(frozen=True)
class TableSetup:
    """The simulated table: paytable, strategy and what each of the ``bettors`` stakes (R2, R6)."""

    paytable: Paytable
    strategy: Strategy
    bettors: int = 1
    ante: Decimal = Decimal(1)
    bonus: Decimal = Decimal(1)
    progressive: bool = True
    currency: str = "USD"
    pool: Decimal = ZERO

    def __post_init__(self) -> None:
        spec = self.paytable.currency(self.currency)
        if self.bettors < 1:
            raise ValueError(f"bettors {self.bettors}: at least one bettor plays the round")
        for name in ("ante", "bonus"):
            amount = getattr(self, name)
            if amount < 0 or amount % spec.unit:
                raise ValueError(f"{name} {amount}: not a whole number of {self.currency} units {spec.unit}")
        if self.ante <= 0:
            raise ValueError("ante: R2.1 needs an Ante above zero")
        if self.pool < 0 or self.pool % POOL_QUANTUM:
            raise ValueError(f"pool {self.pool}: a pool is >= 0 with at most 5 decimal places")


@dataclass(frozen=True)
class Units:
    """The integer arithmetic of a :class:`TableSetup`: stakes in currency units, the pool in quanta."""

    ante: int
    bonus: int
    progressive: int
    main_odds: tuple[int, int, int, int]
    ante_qualifier: int
    bonus_pays: npt.NDArray[np.int64]          # by bonus code: odds + 1 (0 for a losing hand)
    contribution: int                          # quanta per round (all bettors)
    seed: int
    start: int
    p1_shares: tuple[Fraction, Fraction, Fraction, Fraction]   # by street code
    fixed: dict[tuple[str, int], int]          # ("P2"|"P3", category) → prize in quanta
    units_per_quantum: Fraction
    quanta_per_unit: int
    bettors: int

    @classmethod
    def of(cls, setup: TableSetup) -> Units:
        paytable, spec = setup.paytable, setup.paytable.currency(setup.currency)
        rules = paytable.progressive

        def quanta(base: Decimal) -> int:
            return int(Decimal(base) * QUANTA_PER_BASE)          # exact: the paytable has <= 5 places
        bonus_odds = [0] + [paytable.bonus.odds(line) + 1 for line in BONUS_CODES[1:]]  # type: ignore[arg-type]
        units_per_quantum = Fraction(spec.multiplier) / (Fraction(spec.unit) * QUANTA_PER_BASE)
        return cls(
            ante=int(setup.ante / spec.unit), bonus=int(setup.bonus / spec.unit),
            progressive=int(spec.multiplier / spec.unit) if setup.progressive else 0,
            main_odds=(paytable.main.ante, paytable.main.flop, paytable.main.turn, paytable.main.river),
            ante_qualifier=int(paytable.main.ante_qualifier),
            bonus_pays=np.array(bonus_odds, np.int64),
            contribution=quanta(rules.contribution) * setup.bettors if setup.progressive else 0,
            seed=quanta(rules.seed), start=quanta(setup.pool),
            p1_shares=(Fraction(0), *(Fraction(rules.p1_share(street)) for street in STREET_CODES[1:])),  # type: ignore[arg-type]
            fixed={("P2", Category.STRAIGHT_FLUSH): quanta(rules.p2_straight_flush),
                   ("P2", Category.FOUR_OF_A_KIND): quanta(rules.p2_four_of_a_kind),
                   ("P3", Category.ROYAL_FLUSH): quanta(rules.p3_royal_flush),
                   ("P3", Category.STRAIGHT_FLUSH): quanta(rules.p3_straight_flush),
                   ("P3", Category.FOUR_OF_A_KIND): quanta(rules.p3_four_of_a_kind)},
            units_per_quantum=units_per_quantum, quanta_per_unit=int(1 / units_per_quantum),
            bettors=setup.bettors,
        )


# --- dealing ----------------------------------------------------------------------------------

def deal(rng: np.random.Generator, rounds: int, size: int = CARDS_PER_ROUND) -> npt.NDArray[np.uint8]:
    """(rounds, size) card ids, uniform over ordered tuples of distinct cards; with the default
    size 9, the law of the Player, Dealer and board cards dealt from a uniformly shuffled deck (R1;
    burns do not change it). Rows with a repeated card are drawn again (rejection keeps the law
    exact). Also the random hands of the evaluator's tests and benchmark."""
    cards = _uniform_cards(rng, rounds, size)
    redo = np.flatnonzero(_repeats(cards))
    while redo.size:
        cards[redo] = _uniform_cards(rng, redo.size, size)
        redo = redo[_repeats(cards[redo])]
    return cards


#: 16-bit draws below this multiple of 52 are uniform modulo 52; the rare others are drawn again
_ACCEPT = 65536 - 65536 % 52


def _uniform_cards(rng: np.random.Generator, rounds: int, size: int) -> npt.NDArray[np.uint8]:
    """(rounds, size) independent uniform card ids, from the generator's raw 64-bit output."""
    count = rounds * size
    draws = rng.bit_generator.random_raw(-(-count // 4)).view(np.uint16)[:count].copy()
    redo = np.flatnonzero(draws >= _ACCEPT)
    while redo.size:
        draws[redo] = rng.bit_generator.random_raw(redo.size).astype(np.uint16)
        redo = redo[draws[redo] >= _ACCEPT]
    return (draws % 52).astype(np.uint8).reshape(rounds, size)


def _repeats(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    seen = np.zeros(len(cards), np.uint64)
    for column in cards.T:
        seen |= np.left_shift(np.uint64(1), column.astype(np.uint64))
    return np.bitwise_count(seen) < cards.shape[1]


# --- one chunk: decisions, main game, Bonus, progressive qualification -----------------------

@dataclass
class Hits:
    """Rounds that qualify for a progressive prize (R5), in round order."""

    index: npt.NDArray[np.int64]
    p1: npt.NDArray[np.int8]          # street code (STREET_CODES)
    p2: npt.NDArray[np.int8]          # Category or 0
    p3: npt.NDArray[np.int8]          # Category or 0
    played: npt.NDArray[np.bool_]
    other_return: npt.NDArray[np.int64]   # the bettor's main + Bonus return that round
    stake: npt.NDArray[np.int64]          # the bettor's total stake that round

    @classmethod
    def concat(cls, parts: list[Hits]) -> Hits:
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in cls.__dataclass_fields__))


@dataclass
class Chunk:
    """What a chunk of rounds contributes: exact integer sums and counts, and its hits."""

    rounds: int
    sums: dict[str, list[int | float]]       # group → [Σ stake, Σ return, Σ stake², Σ return², Σ stake×return]
    counts: dict[str, npt.NDArray[np.int64]]
    hits: Hits
    detail: dict[str, npt.NDArray[np.int64]] | None = None


def _moments(stake: npt.NDArray[np.int64], returned: npt.NDArray[np.int64]) -> list[int | float]:
    """[Σ stake, Σ return] exactly, then [Σ stake², Σ return², Σ stake × return] in floats: those
    only feed the confidence intervals, and int64 squares could overflow with large stakes."""
    s, r = stake.astype(np.float64), returned.astype(np.float64)
    return [int(stake.sum()), int(returned.sum()), float(s @ s), float(r @ r), float(s @ r)]


def decide(strategy: Strategy, hole: npt.NDArray[np.uint8], board: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.bool_], ...]:
    """R2.3-R2.5 for every round: (played, Turn bet, River bet). The later streets are asked of
    every round at once and their answers ignored where the bettor folded."""
    played = np.asarray(strategy.preflop(hole), bool)
    turn_bet = played & np.asarray(strategy.flop(hole, board[:, :3]), bool)
    river_bet = played & np.asarray(strategy.turn(hole, board[:, :4], turn_bet), bool)
    return played, turn_bet, river_bet


def progressive_codes(cards: npt.NDArray[np.uint8], category: npt.NDArray[np.int8]) -> tuple[npt.NDArray[np.int64], ...]:
    """R5 qualification of every round: (rows, P1 street code, P2 category, P3 category), only
    for the rows that qualify for something. A 7-card hand below four of a kind qualifies for
    nothing (the board alone cannot beat the seven cards), so only those rows are evaluated."""
    rows = np.flatnonzero(category >= Category.FOUR_OF_A_KIND)
    chosen = cards[rows]
    hole, board = chosen[:, PLAYER_COLUMNS], chosen[:, BOARD_COLUMNS]
    seven = category[rows].astype(np.int64)
    board_alone = categories_batch(evaluate_batch(board)).astype(np.int64) if rows.size else seven
    p3 = np.where(board_alone >= Category.FOUR_OF_A_KIND, board_alone, 0)
    royal = seven == Category.ROYAL_FLUSH
    p1 = np.zeros(rows.size, np.int64)
    if royal.any():
        on_flop = categories_batch(evaluate_batch(np.concatenate([hole, board[:, :3]], axis=1))) == Category.ROYAL_FLUSH
        on_turn = categories_batch(evaluate_batch(np.concatenate([hole, board[:, :4]], axis=1))) == Category.ROYAL_FLUSH
        # R5 P1: the street where the Royal Flush first appears; a board-alone royal is P3's
        p1 = np.select([royal & on_flop, royal & on_turn, royal & (board_alone != Category.ROYAL_FLUSH)], [1, 2, 3], 0)
    # R5: P2 is a straight flush or quads on 7 cards, unless the board pays P3 (no double payment)
    p2 = np.where(((seven == Category.STRAIGHT_FLUSH) | (seven == Category.FOUR_OF_A_KIND)) & (p3 == 0), seven, 0)
    keep = (p1 > 0) | (p2 > 0) | (p3 > 0)
    return rows[keep], p1[keep], p2[keep], p3[keep]


def play_chunk(cards: npt.NDArray[np.uint8], setup: TableSetup, units: Units, first: int = 0,
               *, detail: bool = False) -> Chunk:
    """Decide and settle the rounds of ``cards`` (n, 9) for one bettor's stakes; progressive
    prizes are left to :func:`walk_pool`. ``first`` is the global index of the first round."""
    count = len(cards)
    hole, dealer, board = cards[:, PLAYER_COLUMNS], cards[:, DEALER_COLUMNS], cards[:, BOARD_COLUMNS]
    player = evaluate_batch(np.concatenate([hole, board], axis=1))
    rival = evaluate_batch(np.concatenate([dealer, board], axis=1))
    category = categories_batch(player)
    played, turn_bet, river_bet = decide(setup.strategy, hole, board)

    # R3: the Player's hand against the Dealer's; no qualifying hand for the Dealer
    win, tie = player > rival, player == rival
    qualifies = category >= units.ante_qualifier
    ante_odds, flop_odds, turn_odds, river_odds = units.main_odds
    stakes = {"ante": np.full(count, units.ante, np.int64),
              "flop": played * np.int64(2 * units.ante),
              "turn": turn_bet * np.int64(units.ante),
              "river": river_bet * np.int64(units.ante)}
    odds = {"ante": np.where(qualifies, ante_odds, 0), "flop": flop_odds, "turn": turn_odds, "river": river_odds}
    returns = {}
    for bet in MAIN_BETS:
        # a fold (R2.3) has no Flop/Turn/River stake and loses the Ante
        paid = np.where(win, stakes[bet] * (np.asarray(odds[bet]) + 1), np.where(tie, stakes[bet], 0))
        returns[bet] = np.where(played, paid, 0)

    # R4: the Bonus on the hole cards whatever the main game, unless the bettor folded
    code = bonus_codes(hole, dealer)
    stakes["bonus"] = np.full(count, units.bonus, np.int64)
    returns["bonus"] = np.where(played, units.bonus * units.bonus_pays[code], 0)

    stakes["main"] = sum(stakes[bet] for bet in MAIN_BETS)
    returns["main"] = sum(returns[bet] for bet in MAIN_BETS)
    other = returns["main"] + returns["bonus"]
    total_stake = stakes["main"] + stakes["bonus"] + units.progressive
    sums = {group: _moments(stakes[group], returns[group]) for group in (*MAIN_BETS, "main", "bonus")}
    # the total without progressive prizes; walk_pool adds the prizes to these sums
    sums["total"] = _moments(total_stake, other)

    rows, p1, p2, p3 = progressive_codes(cards, category)
    hits = Hits(index=rows.astype(np.int64) + first, p1=p1.astype(np.int8), p2=p2.astype(np.int8),
                p3=p3.astype(np.int8), played=played[rows], other_return=other[rows], stake=total_stake[rows])
    counts = {
        "bonus": np.bincount(code, minlength=len(BONUS_CODES)).astype(np.int64),
        "outcome": np.array([win.sum(), tie.sum(), (~win & ~tie).sum(), (win & qualifies).sum()], np.int64),
        "category": np.bincount(category, minlength=len(Category)).astype(np.int64),
        "decisions": np.array([played.sum(), turn_bet.sum(), river_bet.sum()], np.int64),
        "p1": np.bincount(p1, minlength=4).astype(np.int64),
        "p2": np.bincount(p2, minlength=len(Category)).astype(np.int64),
        "p3": np.bincount(p3, minlength=len(Category)).astype(np.int64),
    }
    rounds_detail = None
    if detail:
        rounds_detail = {"played": played.astype(np.int64), "turn_bet": turn_bet.astype(np.int64),
                         "river_bet": river_bet.astype(np.int64)}
        for bet in (*MAIN_BETS, "bonus"):
            rounds_detail[f"{bet}_stake"], rounds_detail[f"{bet}_return"] = stakes[bet], returns[bet]
    return Chunk(count, sums, counts, hits, rounds_detail)


# --- the pool ---------------------------------------------------------------------------------

@dataclass
class PoolWalk:
    """The exact pool (quanta) through the run and every progressive payment (currency units per
    bettor)."""

    final: int
    top_ups: int
    awards: dict[str, int]                   # table ("P1" | "P2" | "P3") → units paid to one bettor
    paid_counts: dict[str, int]
    award_per_hit: npt.NDArray[np.int64]      # one bettor's award, per hit
    before: npt.NDArray[np.int64]             # pool before each hit round's contributions
    after: npt.NDArray[np.int64]              # pool after each hit round, seed top-up included
    top_up: npt.NDArray[np.int64]
    p1_events: list[dict[str, object]] = field(default_factory=list)


def _share(prize: Fraction | int, winners: int, units: Units) -> tuple[int, int]:
    """R6: one winner's share in currency units (rounded down) and what all the shares cost the
    pool in quanta."""
    amount = int(Fraction(prize) * units.units_per_quantum / winners)  # floor: amounts are >= 0
    return amount, amount * units.quanta_per_unit * winners


def walk_pool(hits: Hits, rounds: int, units: Units) -> PoolWalk:
    """R5: carry the pool through ``rounds`` rounds, paying the hits in order. Every round adds the
    contributions; a hit round pays P1 (a share of the pool with this round's contributions)
    first, then the one fixed prize (P3, else P2) capped at what remains."""
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
        flop_bettors = bettors if hits.played[position] else 0   # R5: P1/P2 need the Flop bet
        street, p2, p3 = int(hits.p1[position]), int(hits.p2[position]), int(hits.p3[position])
        mine = 0
        prize = with_contributions * units.p1_shares[street]
        if street and flop_bettors and prize > 0:
            amount, cost = _share(prize, flop_bettors, units)
            remaining -= cost
            mine += amount
            awards["P1"] += amount
            paid_counts["P1"] += 1
            p1_events.append({"round": index, "street": STREET_CODES[street], "pool_quanta": with_contributions,
                              "share_units": amount, "bettors": flop_bettors})
        table, category, winners = ("P3", p3, bettors) if p3 else ("P2", p2, flop_bettors)
        if category and winners and units.fixed[(table, category)] > 0:
            amount, cost = _share(min(units.fixed[(table, category)], remaining), winners, units)
            remaining -= cost
            mine += amount
            awards[table] += amount
            paid_counts[table] += 1
        # R5 [reading]: after a payout the house refills the pool up to its seed
        refill = units.seed - remaining if remaining < with_contributions and remaining < units.seed else 0
        per_hit[position], top_up[position] = mine, refill
        pool = after[position] = remaining + refill
        top_ups += refill
        previous = index
    pool += (rounds - previous - 1) * units.contribution
    return PoolWalk(pool, top_ups, awards, paid_counts, per_hit, before, after, top_up, p1_events)


def pool_before(at: npt.NDArray[np.int64], hits: Hits, walk: PoolWalk, units: Units) -> npt.NDArray[np.int64]:
    """The pool (quanta) before the contributions of the rounds ``at``: what the last hit before
    left (or the starting pool) plus one round's contributions per round since."""
    last = np.searchsorted(hits.index, at, side="left")   # hits strictly before; 0 = none
    left = np.concatenate([[units.start], walk.after])[last]
    since = np.concatenate([[-1], hits.index])[last]
    return left + (at - since - 1) * units.contribution


def pool_samples(walk: PoolWalk, hits: Hits, rounds: int, units: Units, samples: int) -> tuple[list[int], list[int]]:
    """The pool (quanta) before the contributions of ``samples`` evenly spaced rounds."""
    at = np.unique(np.linspace(0, max(rounds - 1, 0), num=min(samples, rounds)).astype(np.int64))
    return at.tolist(), pool_before(at, hits, walk, units).tolist()


# --- the run ----------------------------------------------------------------------------------

@dataclass
class Simulation:
    """The totals of a run; :mod:`.report` turns them into RTPs, intervals and z-scores."""

    setup: TableSetup
    rounds: int
    seed: int
    seconds: float
    sums: dict[str, list[int | float]]
    counts: dict[str, npt.NDArray[np.int64]]
    hits: Hits
    walk: PoolWalk
    samples: tuple[list[int], list[int]]
    units: Units

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds else float("inf")


def chunk_generator(seed: int, index: int) -> np.random.Generator:
    """Chunk ``index``'s own stream: the run is the same whatever the number of threads."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(index,))))


def _chunks(rounds: int, size: int) -> Iterator[tuple[int, int]]:
    for number, start in enumerate(range(0, rounds, size)):
        yield number, min(size, rounds - start)


def add_progressive(sums: dict[str, list[int | float]], hits: Hits, walk: PoolWalk, rounds: int, units: Units) -> None:
    """Fold the progressive prizes into the per-bettor sums (prizes are zero outside hits)."""
    award = walk.award_per_hit.astype(np.float64)
    stake = float(units.progressive)
    sums["progressive"] = [units.progressive * rounds, int(walk.award_per_hit.sum()), stake * stake * rounds,
                           float(award @ award), stake * float(award.sum())]
    other = hits.other_return.astype(np.float64)
    total = sums["total"]
    total[1] += int(walk.award_per_hit.sum())
    total[3] += float(2 * (other @ award) + award @ award)
    total[4] += float(hits.stake.astype(np.float64) @ award)


def simulate(setup: TableSetup, rounds: int, seed: int, *, threads: int = 2, chunk: int = CHUNK_ROUNDS,
             samples: int = 1000, progress: Callable[[int], None] | None = None) -> Simulation:
    """Deal, play and settle ``rounds`` rounds. Reproducible: the same (seed, chunk) gives the same
    run on any machine and with any number of threads. ``seconds`` excludes the evaluator's
    one-time table build."""
    if rounds < 1:
        raise ValueError("rounds: at least one round")
    evaluate_batch(np.zeros((1, 7), np.uint8) + np.arange(7, dtype=np.uint8))  # builds its tables once
    started = time.perf_counter()
    units = Units.of(setup)

    def work(job: tuple[int, int]) -> Chunk:
        number, size = job
        return play_chunk(deal(chunk_generator(seed, number), size), setup, units, first=number * chunk)

    sums: dict[str, list[int | float]] = {}
    counts: dict[str, npt.NDArray[np.int64]] = {}
    parts: list[Hits] = []
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for part in pool.map(work, _chunks(rounds, chunk)):
            for group, values in part.sums.items():
                sums[group] = [a + b for a, b in zip(sums.get(group, [0] * 5), values)]
            for name, array in part.counts.items():
                counts[name] = counts[name] + array if name in counts else array
            parts.append(part.hits)
            if progress is not None:
                progress(part.rounds)
    hits = Hits.concat(parts)
    walk = walk_pool(hits, rounds, units)
    add_progressive(sums, hits, walk, rounds, units)
    return Simulation(setup, rounds, seed, time.perf_counter() - started, sums, counts, hits, walk,
                      pool_samples(walk, hits, rounds, units, samples), units)


def settle_cards(cards: npt.NDArray[np.uint8], setup: TableSetup) -> dict[str, npt.NDArray[np.int64]]:
    """Round-by-round settlement of given cards (n, 9) for one bettor's stakes: decisions, every
    bet's stake and return, the progressive award and the pool before and after each round
    (quanta, the seed top-up included in ``pool_after``). The cross-check against
    ``core.rules.settle`` uses it; the batch path gives the same totals."""
    units = Units.of(setup)
    part = play_chunk(cards, setup, units, detail=True)
    assert part.detail is not None
    walk = walk_pool(part.hits, len(cards), units)
    detail = dict(part.detail)
    detail["progressive_stake"] = np.full(len(cards), units.progressive, np.int64)
    detail["progressive_return"] = np.zeros(len(cards), np.int64)
    detail["progressive_return"][part.hits.index] = walk.award_per_hit
    detail["pool_before"] = pool_before(np.arange(len(cards)), part.hits, walk, units)
    detail["pool_after"] = detail["pool_before"] + units.contribution
    detail["pool_after"][part.hits.index] = walk.after
    detail["top_up"] = np.zeros(len(cards), np.int64)
    detail["top_up"][part.hits.index] = walk.top_up
    return detail
