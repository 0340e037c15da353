"""Every turn and river after one flop: for each Player holding and each turn card, how many
(river, Dealer hand) deals the Player wins, loses, and wins with the Ante qualifier (R3).

This is the inner loop of the optimal strategy (:mod:`.optimal`). With ``n`` cards left after
the flop (49 on the full deck), a holding is two of them, a completion two more (the turn and the
river in either order), and the Dealer takes two of the remaining ``n - 4``.

How (all exact integer counts)
    1. *One evaluation per four cards.* The Player's seven cards are the flop and four of the
       ``n`` cards — the holding and the completion — so the 7-card strength depends only on
       that set of four: C(49,4) = 211,876 evaluations serve all 1,176 × 1,081 (completion,
       holding) pairs, and every Dealer hand too (a Dealer hand is just another holding).
    2. *Dealer hands by inclusion-exclusion.* On a board (flop + completion), the Dealer hands
       that beat or tie the Player's {a, b} are those among all holdings, less those holding a,
       less those holding b (plus the Player's own, counted in all three). The holdings with a
       card a on the board {k, l} share the three cards {a, k, l}, so their strengths are one row
       per 3-set (C(49,3) rows of 46) whatever the board: one sort of those rows and one of the
       (completion × holding) rows give every count, as in :mod:`.exact`.
    3. *Per turn card.* Each completion {k, l} is dealt as turn k then river l, or the reverse:
       its counts are added to (holding, turn k) and (holding, turn l).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from ..core.evaluator import evaluate_batch
from .exact import _greater_and_equal, _unsort
from .isomorphism import subset_index
from .vector import combinations

Int64Array = npt.NDArray[np.int64]
#: per-(holding, turn) sums fit 16 bits (at most 46 rivers x 990 Dealer hands = 45,540)
_FIELD = 16


@dataclass(frozen=True)
class Layout:
    """Index tables for ``n`` cards left after the flop, the same for every flop.

    - ``quads``: every 4-set of the n cards (the part of the Player's seven cards off the flop);
    - ``quad_of[c, h]``: the 4-set of completion ``c`` with the ``h``-th holding of the cards
      left beside it;
    - ``holding[c, h]``: that holding's index among the C(n, 2) holdings of all n cards;
    - ``triple_quads[t, x]``: the 4-set of the 3-set ``t`` with the ``x``-th other card;
    - ``first_slot`` / ``second_slot[c, h]``: where (row ``t`` = the holding's first / second
      card with the completion, column = its other card) lies in ``triple_quads``, flattened;
    - ``by_turn[h, t, r]``: the flat (completion, holding) entry of holding ``h`` with turn
      ``t`` and river ``r`` (the completion {t, r} read both ways), or one past the end (a zero)
      where the three overlap.
    """

    n: int
    quads: npt.NDArray[np.uint8]
    quad_of: npt.NDArray[np.int32]
    holding: npt.NDArray[np.int32]
    triple_quads: npt.NDArray[np.int32]
    first_slot: npt.NDArray[np.int32]
    second_slot: npt.NDArray[np.int32]
    by_turn: npt.NDArray[np.int32]

    @property
    def completions(self) -> int:
        return comb(self.n, 2)

    @property
    def holdings(self) -> int:
        return comb(self.n, 2)

    @property
    def dealer_hands(self) -> int:
        return comb(self.n - 4, 2)


@lru_cache(maxsize=4)
def layout(n: int) -> Layout:
    """The :class:`Layout` for ``n`` cards left after the flop (built once per process)."""
    pairs = combinations(n, 2).astype(np.int64)
    count = len(pairs)
    present = np.ones((count, n), bool)
    present[np.arange(count)[:, None], pairs] = False
    others = np.nonzero(present)[1].reshape(count, n - 2)  # cards beside each completion
    beside = combinations(n - 2, 2).astype(np.int64)
    first, second = others[:, beside[:, 0]], others[:, beside[:, 1]]  # (completion, holding)
    turn, river = (np.broadcast_to(pairs[:, i : i + 1], first.shape) for i in (0, 1))
    quad_of = subset_index(np.sort(np.stack([first, second, turn, river], axis=-1), axis=-1), n)

    triples = combinations(n, 3).astype(np.int64)
    rest = np.ones((len(triples), n), bool)
    rest[np.arange(len(triples))[:, None], triples] = False
    fourth = np.nonzero(rest)[1].reshape(len(triples), n - 3)
    triple_quads = subset_index(
        np.sort(np.concatenate([np.repeat(triples[:, None, :], n - 3, axis=1), fourth[..., None]], axis=-1), axis=-1), n
    )

    def slot(card: Int64Array, other: Int64Array) -> Int64Array:
        triple = np.sort(np.stack([card, turn, river], axis=-1), axis=-1)
        column: Int64Array = other - (other[..., None] > triple).sum(axis=-1)
        return subset_index(triple, n) * (n - 3) + column

    holding = subset_index(np.stack([first, second], axis=-1), n)
    entries = first.size
    by_turn = np.full(comb(n, 2) * n * n, entries, np.int64)
    by_turn[((holding * n + turn) * n + river).ravel()] = np.arange(entries)
    by_turn[((holding * n + river) * n + turn).ravel()] = np.arange(entries)

    def as_int32(array: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(array, dtype=np.int32)

    return Layout(
        n,
        combinations(n, 4),
        as_int32(quad_of),
        as_int32(holding),
        as_int32(triple_quads),
        as_int32(slot(first, second)),
        as_int32(slot(second, first)),
        as_int32(by_turn),
    )


def _ranks_in_rows(values: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """``greater << 16 | equal`` of each entry within its row (equal counts the entry itself)."""
    rows, width = values.shape
    shift = max(1, (width - 1).bit_length())
    keys = np.sort(values << shift | np.arange(width, dtype=np.int32), axis=1)
    return _unsort(*_greater_and_equal(keys, shift)).reshape(rows, width)


@dataclass(frozen=True)
class FlopSums:
    """(holding, turn) sums over every river and Dealer hand after one flop, as (C(n,2), n)
    int64 arrays; cells whose turn card is in the holding are zero.

    ``win`` / ``lose``: deals the Player wins / loses (R3, R7); ``qualified``: deals the Player
    wins with the paytable's Ante qualifier or better (the Ante wins; below it, it pushes)."""

    win: Int64Array
    lose: Int64Array
    qualified: Int64Array


def flop_sums(flop: npt.NDArray[np.uint8], rest: npt.NDArray[np.uint8], qualifier_strength: int) -> FlopSums:
    """The :class:`FlopSums` of one ``flop`` (3 card ids); ``rest`` holds the n cards left,
    ascending; a Player strength of ``qualifier_strength`` or more has the Ante qualifier."""
    table = layout(len(rest))
    seven = np.empty((len(table.quads), 7), np.uint8)
    seven[:, :3] = flop
    seven[:, 3:] = rest[table.quads]
    strength = evaluate_batch(seven)

    player = strength[table.quad_of]
    among_all = _ranks_in_rows(player)
    with_card = _ranks_in_rows(strength[table.triple_quads]).ravel()
    packed = among_all - with_card[table.first_slot] - with_card[table.second_slot] + 1
    lose, tie = packed >> 16, packed & 0xFFFF
    win = table.dealer_hands - lose - tie
    qualified = np.where(player >= qualifier_strength, win, 0)
    # the three counts in one int64, 16 bits each: a sum over the rivers of one (holding, turn)
    # cannot carry from one field into the next
    counts = np.zeros(win.size + 1, np.int64)
    counts[:-1] = (
        win.astype(np.int64) | lose.astype(np.int64) << _FIELD | qualified.astype(np.int64) << 2 * _FIELD
    ).ravel()
    total = counts[table.by_turn].reshape(table.holdings, table.n, table.n).sum(axis=2)
    field = (1 << _FIELD) - 1
    return FlopSums(win=total & field, lose=(total >> _FIELD) & field, qualified=total >> 2 * _FIELD)
