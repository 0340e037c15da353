"""The ``optimal`` strategy as a lookup, and the cache of the enumeration behind it.

The optimal decisions depend on the paytable (its odds and Ante qualifier, R3), so the registry's
``optimal`` is unbound: :meth:`Optimal.bind` attaches the :class:`~.optimal.Solution` of one
paytable, read from the cache or computed (a few minutes, once per paytable). A bound
``optimal`` then decides by lookup: the flop is mapped onto its canonical member by a suit
permutation, and the holding and the turn card follow the same permutation (R7: suits are
equal, so every decision's value is unchanged).

The cache keeps one file per paytable, named by the SHA-256 of the paytable's bytes and by a hash
of the code the figures come from (evaluator and its tables, enumeration, the strategies scored
beside), so a changed engine is never read from an old file. The pass also scores the other
built-in strategies exactly (:data:`SCORED`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ..core import evaluator, hand_classes
from ..core.paytable import Paytable
from ..settings import cache_dir
from . import completions, isomorphism, optimal, simple, strategies
from .isomorphism import Deck, canonical_flops, canonicalize, local_positions, permute_cards, subset_index
from .optimal import OPTIMAL, MainRules, Solution, solve
from .play_figures import PlayFigures, figures
from .strategies import Strategy, get_strategy
from .vector import BoolArray, IntArray, hole_classes

#: the built-in strategies scored exactly beside ``optimal`` in every cached pass
SCORED = ("always-play", "basic", "simple")
#: the strategies whose main-game figures ``rtp`` takes from the pass (``always-play`` has its own
#: exact enumeration, and ``basic`` stays simulated there, an independent check of the simulator)
REPORTED = (OPTIMAL, "simple")
ENGINE_VERSION = "1"


class UnboundStrategy(ValueError):
    """``optimal`` was asked for a decision before it was bound to a paytable."""


@cache
def _engine_key() -> str:
    """Changes whenever code the cached figures depend on changes (read once: the code a process
    runs is the code it imported)."""
    digest = hashlib.sha256(ENGINE_VERSION.encode())
    for module in (evaluator, hand_classes, completions, isomorphism, optimal, simple, strategies):
        digest.update(Path(module.__file__ or "").read_bytes())
    return digest.hexdigest()[:16]


def cache_path(paytable: Paytable) -> Path:
    return cache_dir() / f"optimal-{paytable.sha256[:16]}-{_engine_key()}.npz"


def _save(solution: Solution, path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp.npz")
        # allow_pickle (the default) named, so the type checker does not take a tally for it
        np.savez_compressed(temporary, seconds=solution.seconds, turn_bits=np.packbits(solution.turn_bits, axis=-1),
                            river_bits=solution.river_bits, allow_pickle=True,
                            **{f"tally:{name}": tally for name, tally in solution.tallies.items()})
        temporary.replace(path)
    except OSError:
        pass  # a read-only cache directory only means computing again next time


def _load(path: Path, rules: MainRules) -> Solution | None:
    deck = Deck.full()
    flops, n = len(canonical_flops(deck)[0]), deck.size - 3
    try:
        with np.load(path) as stored:
            tallies = {key.split(":", 1)[1]: stored[key] for key in stored.files if key.startswith("tally:")}
            turn = np.unpackbits(stored["turn_bits"], axis=-1, count=n * (n - 1) // 2).astype(bool)
            river = stored["river_bits"]
            seconds = float(stored["seconds"])
    except (OSError, KeyError, ValueError):
        return None
    if turn.shape != (flops, n * (n - 1) // 2) or set(tallies) != {OPTIMAL, *SCORED}:
        return None
    return Solution(deck, rules, tallies, turn, river, seconds)


_memory: dict[Path, Solution] = {}


def cached_solution(paytable: Paytable) -> Solution | None:
    """The paytable's solution if this process or the cache already has it, else None."""
    path = cache_path(paytable)
    if path not in _memory and path.exists() and (solution := _load(path, MainRules.of(paytable))) is not None:
        _memory[path] = solution
    return _memory.get(path)


def load_solution(paytable: Paytable, *, use_cache: bool = True, workers: int = 2,
                  progress: Callable[[int], None] | None = None) -> Solution:
    """The full-deck :class:`~.optimal.Solution` of ``paytable``: from this process's memory,
    the cache file, or computed afresh (then cached). ``use_cache=False`` neither reads nor
    writes the file. ``progress(count)`` hears of flop classes done (1,755 in all) when it is
    computed."""
    path = cache_path(paytable)
    solution = _memory.get(path) if path in _memory or not use_cache else cached_solution(paytable)
    if solution is None:
        solution = solve(Deck.full(), MainRules.of(paytable), [get_strategy(name) for name in SCORED],
                         workers=workers, progress=progress)
        if use_cache:
            _save(solution, path)
        _memory[path] = solution
    return solution


@dataclass(frozen=True)
class Optimal:
    """``optimal``: the player's best decision at every point (R2.3-R2.5) for one paytable, by
    exact enumeration and backward induction (:mod:`.optimal`). Unbound in the registry; bound
    to a paytable's :class:`~.optimal.Solution` it decides by lookup."""

    name: str = "optimal"
    summary: str = "the exact optimal strategy of the paytable (computed by enumeration, then looked up)"
    postflop_bets: bool = True
    solution: Solution | None = field(default=None, compare=False, repr=False)

    def bind(self, paytable: Paytable, **options: Any) -> Optimal:
        """This strategy for ``paytable``; ``options`` go to :func:`load_solution`."""
        return Optimal(solution=load_solution(paytable, **options))

    @cached_property
    def figures(self) -> PlayFigures:
        return figures(self._solution())

    def _solution(self) -> Solution:
        if self.solution is None:
            raise UnboundStrategy("strategy optimal depends on the paytable: bind it to one first")
        return self.solution

    def preflop(self, hole: IntArray) -> BoolArray:
        return self.figures.played[hole_classes(np.asarray(hole))]

    def _cells(self, hole: IntArray, flop: IntArray) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64],
                                                              npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """The canonical flop of each row, its suit permutation, the holding's index among the
        canonical flop's holdings, and the canonical flop's cards."""
        solution = self._solution()
        index, permutation = canonicalize(flop, solution.deck)
        canonical = canonical_flops(solution.deck)[0][index]
        local = np.sort(local_positions(permute_cards(hole, permutation), canonical, solution.deck), axis=1)
        return index, permutation, subset_index(local, solution.deck.size - 3), canonical

    def flop(self, hole: IntArray, flop: IntArray) -> BoolArray:
        index, _, holding, _ = self._cells(hole, flop)
        return self._solution().turn_bits[index, holding]

    def turn(self, hole: IntArray, board: IntArray, turn_bet: BoolArray) -> BoolArray:
        board = np.asarray(board)
        index, permutation, holding, canonical = self._cells(hole, board[:, :3])
        turn = local_positions(permute_cards(board[:, 3:4], permutation), canonical, self._solution().deck)[:, 0]
        packed = self._solution().river_bits[index, holding, turn >> 3]
        return cast(BoolArray, ((packed >> (7 - (turn & 7))) & 1).astype(bool))  # numpy.packbits: first bit highest


def exact_main(paytable: Paytable, strategy: Strategy, *, compute: bool = True, **options: Any) -> PlayFigures | None:
    """Exact main-game figures of ``strategy`` for the reports, when they come from the
    paytable's optimal pass (:data:`REPORTED`), else None. ``options`` go to
    :func:`load_solution`; with ``compute=False`` only a pass already done counts."""
    if strategy.name not in REPORTED:
        return None
    if isinstance(strategy, Optimal) and strategy.solution is not None:
        return strategy.figures
    solution = load_solution(paytable, **options) if compute else cached_solution(paytable)
    return None if solution is None else figures(solution, None if strategy.name == OPTIMAL else strategy)
