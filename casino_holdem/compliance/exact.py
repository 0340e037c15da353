"""The full enumeration behind the exact figures: every board × every Player hand × every Dealer hand.

What is counted
    Every round is a board (5 community cards), the Player's two hole cards and the Dealer's two
    (R1). There are C(52,5) = 2,598,960 boards, C(47,2) = 1,081 Player hands for each and
    C(45,2) = 990 Dealer hands for each of those: 2,809,475,760 (board, Player hand) pairs and
    2.78 × 10^12 complete deals, all counted exactly with integers.

How
    1. *Suit symmetry.* Relabelling suits changes no outcome, so the boards are reduced to one
       representative per class under the 24 suit permutations (134,459 classes), each weighted by
       the number of boards it stands for. The weights sum to 2,598,960.
    2. *Every hand on a board at once.* For a board, the 7-card strength of all 1,081 two-card
       hands from the other 47 cards is computed with ``evaluate_batch``. Each of them is, in turn,
       the Player's hand and a possible Dealer hand.
    3. *Dealer hands by inclusion-exclusion.* For a Player hand {a, b}, the Dealer hands that beat
       it are those that beat it among all 1,081, less those holding a and those holding b (no hand
       holds both but the Player's own, which does not beat itself). Counts "among all" come from
       one sort of the 1,081 strengths; counts "holding a" from a sort of row a of the 47 × 47
       matrix of strengths of {a, x}. Ties count the same way (the Player's own hand is added back
       once). The Dealer then loses to the Player in ``990 - beats - ties`` hands.
    4. The board alone is evaluated too (P3, and P2's "no double payment", R5).

The results are grouped by the Player's pre-flop class (169: pairs, suited, offsuit), the
Player's 7-card category and the board-alone group, which is everything the Bonus, Progressive and
main-game figures of :mod:`.rtp` need for any pre-flop strategy.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..core import evaluator, hand_classes
from ..core.evaluator import Category, categories_batch, evaluate_batch
from ..settings import cache_dir
from .vector import HOLE_CLASSES, combinations, hole_classes

BOARDS = comb(52, 5)
PLAYER_HANDS = comb(47, 2)
DEALER_HANDS = comb(45, 2)
#: (board, Player hand) pairs: every way to deal the Player's seven cards as 2 hole + 5 board
PAIRS = BOARDS * PLAYER_HANDS
#: the board alone (R5 P3): below four of a kind, four of a kind, straight flush, royal flush
BOARD_GROUPS = ("none", "four_of_a_kind", "straight_flush", "royal_flush")
CATEGORIES = len(Category)
ENGINE_VERSION = "1"

_PAIR_I, _PAIR_J = (column.astype(np.intp) for column in combinations(47, 2).T)
_COMBO = np.arange(PLAYER_HANDS, dtype=np.int32)
#: (47, 47) → index of the hand {i, j} among the 1,081; the diagonal points at a padding column
_PAIR_INDEX = np.full((47, 47), PLAYER_HANDS, dtype=np.intp)
_PAIR_INDEX[_PAIR_I, _PAIR_J] = _COMBO
_PAIR_INDEX[_PAIR_J, _PAIR_I] = _COMBO
_COLUMN = np.arange(47, dtype=np.int32)
_SLOTS = _PAIR_I * 47 + _PAIR_J
_MIRRORED = _PAIR_J * 47 + _PAIR_I


@dataclass(frozen=True)
class Enumeration:
    """Exact counts over all (board, Player hand) pairs, each weighted 1 (so they sum to
    :data:`PAIRS`); win/tie/loss counts are over the 990 Dealer hands of each pair as well.

    - ``joint[c, k, g]``: pairs with Player hole class ``c``, Player 7-card category ``k`` and
      board-alone group ``g`` (:data:`BOARD_GROUPS`);
    - ``wins[c, k]`` / ``ties[c, k]`` / ``losses[c, k]``: (pair, Dealer hand) deals that the
      Player wins / ties / loses (R3, R7), by hole class and Player category.
    """

    joint: npt.NDArray[np.int64]
    wins: npt.NDArray[np.int64]
    ties: npt.NDArray[np.int64]
    losses: npt.NDArray[np.int64]
    board_classes: int
    seconds: float

    def check(self) -> None:
        """Totals every correct enumeration must have (a cheap guard against a partial run)."""
        if int(self.joint.sum()) != PAIRS:
            raise AssertionError(f"enumeration covers {int(self.joint.sum())} pairs, not {PAIRS}")
        if int(self.wins.sum() + self.ties.sum() + self.losses.sum()) != PAIRS * DEALER_HANDS:
            raise AssertionError("enumeration: win + tie + loss is not every deal")


@lru_cache(maxsize=1)
def canonical_boards() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """One board per class under the 24 permutations of suit labels, and how many boards each
    stands for (the weights sum to C(52,5)).

    A board is its four per-suit rank masks; relabelling suits only reorders them, so the masks
    sorted are the class's key. Any member represents the class: no figure depends on suit labels.
    """
    boards = combinations(52, 5)
    masks = np.zeros((len(boards), 4), np.uint16)
    rows = np.arange(len(boards))
    for column in boards.T:
        masks[rows, column & 3] |= np.left_shift(np.uint16(1), (column >> 2).astype(np.uint16))
    masks.sort(axis=1)
    key = masks.astype(np.uint64) @ np.array([1 << 39, 1 << 26, 1 << 13, 1], np.uint64)
    _, first, weights = np.unique(key, return_index=True, return_counts=True)
    representatives = boards[first]
    representatives.setflags(write=False)
    return representatives, weights.astype(np.int64)


def _remaining(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """(B, 47): the cards not on each board, ascending."""
    present = np.zeros((len(boards), 52), bool)
    present[np.arange(len(boards))[:, None], boards] = True
    return np.nonzero(~present)[1].reshape(len(boards), 47).astype(np.uint8)


def _greater_and_equal(keys: npt.NDArray[np.int32], shift: int) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.intp]]:
    """For rows sorted ascending by ``keys >> shift`` (the low bits carry each entry's column):
    ``greater << 16 | equal`` at each position — how many entries of the row are greater, and how
    many equal (itself included) — and the flat index of the entry's original place."""
    rows, width = keys.shape
    values = (keys >> shift).ravel()
    starts_group = np.ones(values.size, bool)
    np.not_equal(values[1:], values[:-1], out=starts_group[1:])
    starts_group[::width] = True
    group = np.cumsum(starts_group, dtype=np.int32) - 1
    first = np.flatnonzero(starts_group).astype(np.int32)
    last = np.append(first[1:], np.int32(values.size)) - 1
    row_end = np.repeat(np.arange(1, rows + 1, dtype=np.int32) * width - 1, width)
    end, start = last[group], first[group]
    packed = (row_end - end) << 16 | (end - start + 1)
    places = (np.arange(rows, dtype=np.intp) * width)[:, None] + (keys & ((1 << shift) - 1))
    return packed, places.ravel()


def _unsort(values: npt.NDArray[np.int32], places: npt.NDArray[np.intp]) -> npt.NDArray[np.int32]:
    out = np.empty(values.size, np.int32)
    out[places] = values
    return out


def showdown_counts(boards: npt.NDArray[np.uint8]) -> dict[str, npt.NDArray[np.int32]]:
    """For each board (B, 5) and each of its 1,081 Player hands (the pairs of
    :func:`remaining_hands`): the Player's 7-card ``strength`` and how many of the 990 Dealer
    hands ``beat`` the Player, ``tie`` or ``lose`` (R3, R7). Arrays of shape (B, 1081)."""
    count = len(boards)
    seven = np.empty((count, PLAYER_HANDS, 7), np.uint8)
    seven[:, :, :2] = remaining_hands(boards)
    seven[:, :, 2:] = boards[:, None, :]
    strength = np.asarray(evaluate_batch(seven.reshape(-1, 7))).reshape(count, PLAYER_HANDS).astype(np.int32)

    among_all = _unsort(*_greater_and_equal(np.sort(strength << 11 | _COMBO, axis=1), 11))
    padded = np.concatenate([strength, np.zeros((count, 1), np.int32)], axis=1)
    rows = np.sort(padded[:, _PAIR_INDEX] << 6 | _COLUMN, axis=2).reshape(count * 47, 47)
    with_card = _unsort(*_greater_and_equal(rows, 6))
    # the hand {i, j} sits at (i, j) and (j, i) of each board's 47 x 47 block; the hand itself is
    # equal to itself in all three counts, so it is added back once (1)
    block = np.arange(count, dtype=np.intp)[:, None] * (47 * 47)
    packed = among_all - with_card[(block + _SLOTS).ravel()] - with_card[(block + _MIRRORED).ravel()] + 1
    beat, tie = (packed >> 16).reshape(count, PLAYER_HANDS), (packed & 0xFFFF).reshape(count, PLAYER_HANDS)
    return {"strength": strength, "beat": beat, "tie": tie, "lose": DEALER_HANDS - beat - tie}


def remaining_hands(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """(B, 1081, 2): every two-card hand from the 47 cards off each board, in a fixed order."""
    rest = _remaining(boards)
    return np.stack([rest[:, _PAIR_I], rest[:, _PAIR_J]], axis=2)


def board_groups(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Index into :data:`BOARD_GROUPS` of each board alone (R5 P3)."""
    category = categories_batch(np.asarray(evaluate_batch(boards))).astype(np.int64)
    return np.clip(category - int(Category.FULL_HOUSE), 0, 3)


def _enumerate_chunk(boards: npt.NDArray[np.uint8],
                     weights: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], ...]:
    counts = showdown_counts(boards)
    category = categories_batch(counts["strength"]).astype(np.int32)
    cell = (hole_classes(remaining_hands(boards)).astype(np.int32) * CATEGORIES + category).ravel()
    weight = np.repeat(weights.astype(np.float64), PLAYER_HANDS)
    group = np.repeat(board_groups(boards), PLAYER_HANDS)
    cells = HOLE_CLASSES * CATEGORIES
    # float64 sums of integers stay exact below 2**53; one chunk stays far below
    joint = np.bincount(cell * len(BOARD_GROUPS) + group, weights=weight, minlength=cells * len(BOARD_GROUPS))
    by_outcome = [np.bincount(cell, weights=weight * counts[key].ravel(), minlength=cells)
                  for key in ("lose", "tie", "beat")]
    return tuple(np.rint(array).astype(np.int64) for array in (joint, *by_outcome))


def enumerate_all(*, threads: int = 2, chunk: int = 256,
                  progress: Callable[[int], None] | None = None) -> Enumeration:
    """Run the whole enumeration (about 145 million 7-card evaluations)."""
    started = time.perf_counter()
    boards, weights = canonical_boards()
    starts = range(0, len(boards), chunk)
    totals: list[npt.NDArray[np.int64]] | None = None
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        chunks = pool.map(lambda s: _enumerate_chunk(boards[s:s + chunk], weights[s:s + chunk]), starts)
        for start, parts in zip(starts, chunks, strict=True):
            totals = list(parts) if totals is None else [t + p for t, p in zip(totals, parts, strict=True)]
            if progress is not None:
                progress(min(chunk, len(boards) - start))
    assert totals is not None
    shape = (HOLE_CLASSES, CATEGORIES)
    result = Enumeration(
        joint=totals[0].reshape(*shape, len(BOARD_GROUPS)), wins=totals[1].reshape(shape),
        ties=totals[2].reshape(shape), losses=totals[3].reshape(shape),
        board_classes=len(boards), seconds=time.perf_counter() - started)
    result.check()
    return result


def _cache_key() -> str:
    """Changes whenever the evaluator (with its tables) or this engine changes, so a stale result
    is never read."""
    source = b"".join(Path(module.__file__ or "").read_bytes() for module in (evaluator, hand_classes))
    return hashlib.sha256(source + ENGINE_VERSION.encode()).hexdigest()[:16]


_memory: dict[str, Enumeration] = {}


def load_enumeration(*, use_cache: bool = True, threads: int = 2,
                     progress: Callable[[int], None] | None = None) -> Enumeration:
    """The enumeration, from this process's memory, the on-disk cache, or computed afresh (and
    then cached). The cache holds pure counts that no paytable changes."""
    key = _cache_key()
    if use_cache and key in _memory:
        return _memory[key]
    path = cache_dir() / f"enumeration-{key}.npz"
    result = None
    if use_cache and path.exists():
        try:
            with np.load(path) as stored:
                result = Enumeration(stored["joint"], stored["wins"], stored["ties"], stored["losses"],
                                     int(stored["board_classes"]), float(stored["seconds"]))
            result.check()
        except (OSError, KeyError, ValueError, AssertionError):
            result = None
    if result is None:
        result = enumerate_all(threads=threads, progress=progress)
        if use_cache:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                temporary = path.with_suffix(f".{os.getpid()}.tmp.npz")
                np.savez(temporary, joint=result.joint, wins=result.wins, ties=result.ties, losses=result.losses,
                         board_classes=result.board_classes, seconds=result.seconds)
                temporary.replace(path)
            except OSError:
                pass  # a read-only home is fine: the figures are recomputed next time
    _memory[key] = result
    return result
