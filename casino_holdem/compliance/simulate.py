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

Settlement
    With the rules of :mod:`.batch_rules`, the vectorised twins of ``core.rules`` and
    ``core.progressive`` (``core.rules`` says which files change together for a rule change):
    amounts are integers of the currency's smallest unit and the pool integers of 0.00001 base
    units, so nothing is rounded but what R6 rounds.

Speed
    Rounds are dealt and settled in chunks on worker threads (numpy releases the GIL). The only
    sequential dependence is the pool, and it only matters in rounds where a progressive prize is
    won (about 0.2 %): between two such rounds the pool grows by a constant contribution per
    round, so the pool is walked exactly over those rounds alone (:func:`.batch_rules.walk_pool`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from typing import cast

import numpy as np
import numpy.typing as npt

from ..core.evaluator import Category, evaluate_batch
from ..core.money import POOL_QUANTUM, ZERO
from ..core.paytable import Paytable
from ..core.rules import BOARD_SIZE, MAIN_BETS
from .batch_rules import (
    BOARD_COLUMNS,
    BONUS_CODES,
    CARDS_PER_ROUND,
    PLAYER_COLUMNS,
    Hits,
    Int64Array,
    PoolWalk,
    Units,
    pool_before,
    settle_rounds,
    walk_pool,
)
from .strategies import Strategy

#: bet groups with a stake and a return per bettor and round
GROUPS = (*MAIN_BETS, "main", "bonus", "progressive", "total")
CHUNK_ROUNDS = 1 << 16


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

    def units(self) -> Units:
        """The integer arithmetic of this table: stakes in currency units, the pool in quanta."""
        return Units.of(self.paytable, self.currency, ante=self.ante, bonus=self.bonus, progressive=self.progressive,
                        bettors=self.bettors, pool=self.pool)


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
    return cast(npt.NDArray[np.bool_], np.bitwise_count(seen) < cards.shape[1])


# --- one chunk: decisions, main game, Bonus, progressive qualification -----------------------

@dataclass
class Chunk:
    """What a chunk of rounds contributes: exact integer sums and counts, and its hits."""

    rounds: int
    sums: dict[str, list[int | float]]       # group → [Σ stake, Σ return, Σ stake², Σ return², Σ stake×return]
    counts: dict[str, npt.NDArray[np.int64]]
    hits: Hits


def _moments(stake: npt.NDArray[np.int64], returned: npt.NDArray[np.int64]) -> list[int | float]:
    """[Σ stake, Σ return] exactly, then [Σ stake², Σ return², Σ stake × return] in floats: those
    only feed the confidence intervals, and int64 squares could overflow with large stakes."""
    s, r = stake.astype(np.float64), returned.astype(np.float64)
    return [int(stake.sum()), int(returned.sum()), float(s @ s), float(r @ r), float(s @ r)]


def decide(strategy: Strategy, hole: npt.NDArray[np.uint8],
           board: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.bool_], ...]:
    """R2.3-R2.5 for every round: (played, Turn bet, River bet). The later streets are asked of
    every round at once and their answers ignored where the bettor folded."""
    played = np.asarray(strategy.preflop(hole), bool)
    turn_bet = played & np.asarray(strategy.flop(hole, board[:, :BOARD_SIZE["flop"]]), bool)
    river_bet = played & np.asarray(strategy.turn(hole, board[:, :BOARD_SIZE["turn"]], turn_bet), bool)
    return played, turn_bet, river_bet


def play_chunk(cards: npt.NDArray[np.uint8], setup: TableSetup, units: Units, first: int = 0) -> Chunk:
    """Decide and settle the rounds of ``cards`` (n, 9) for one bettor's stakes and sum them;
    progressive prizes are left to :func:`~.batch_rules.walk_pool`. ``first`` is the global index
    of the first round."""
    played, turn_bet, river_bet = decide(setup.strategy, cards[:, PLAYER_COLUMNS], cards[:, BOARD_COLUMNS])
    rounds = settle_rounds(cards, played, turn_bet, river_bet, units, first)
    stakes, returns = rounds.stakes, rounds.returns
    stakes["main"] = cast(Int64Array, sum(stakes[bet] for bet in MAIN_BETS))
    returns["main"] = cast(Int64Array, sum(returns[bet] for bet in MAIN_BETS))
    sums = {group: _moments(stakes[group], returns[group]) for group in (*MAIN_BETS, "main", "bonus")}
    # the total without progressive prizes; add_progressive adds the prizes to these sums
    sums["total"] = _moments(stakes["main"] + stakes["bonus"] + units.progressive, returns["main"] + returns["bonus"])
    win, tie, hits = rounds.win, rounds.tie, rounds.hits
    counts = {
        "bonus": np.bincount(rounds.bonus_code, minlength=len(BONUS_CODES)).astype(np.int64),
        "outcome": np.array([win.sum(), tie.sum(), (~win & ~tie).sum(), (win & rounds.qualifies).sum()], np.int64),
        "category": np.bincount(rounds.category, minlength=len(Category)).astype(np.int64),
        "decisions": np.array([played.sum(), turn_bet.sum(), river_bet.sum()], np.int64),
        "p1": np.bincount(hits.p1, minlength=4).astype(np.int64),
        "p2": np.bincount(hits.p2, minlength=len(Category)).astype(np.int64),
        "p3": np.bincount(hits.p3, minlength=len(Category)).astype(np.int64),
    }
    return Chunk(len(cards), sums, counts, hits)


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
    units = setup.units()

    def work(job: tuple[int, int]) -> Chunk:
        number, size = job
        return play_chunk(deal(chunk_generator(seed, number), size), setup, units, first=number * chunk)

    sums: dict[str, list[int | float]] = {}
    counts: dict[str, npt.NDArray[np.int64]] = {}
    parts: list[Hits] = []
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for part in pool.map(work, _chunks(rounds, chunk)):
            for group, values in part.sums.items():
                sums[group] = [a + b for a, b in zip(sums.get(group, [0] * 5), values, strict=True)]
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

