"""The garbage collector of a long-running server process: a web worker or a dealer (issue 10).

Python's collector walks every object it tracks in a generation each time it collects it, holding
the interpreter the whole time. With its defaults (a collection of the youngest generation every
700 new objects) a web worker on the floor collected about 25 times a second: the objects of the
requests and builds in flight were alive at each collection, so they were carried into the oldest
generation, and about every nine seconds a full collection walked all of it — the process's own
~140,000 objects and about 190 for each open event stream, over 800,000 at 3,500 streams. Measured in
``bench/load.py`` at the target size: 12-17 % of a core per worker went to the collector, and the
full collections stopped the whole worker (every request, every stream) for up to 0.97 s.

:func:`settle` changes that once a process has loaded what it keeps for its life:

- what is alive then (modules, the app, the evaluator's tables) is moved out of the collector's
  sight (``gc.freeze``): it is never garbage, so walking it was pure cost;
- the youngest generation is collected every :data:`YOUNG_THRESHOLD` new objects, not 700. A
  request's or a build's objects are no longer caught alive, mid-request, by a collection every
  few milliseconds and carried into the older generations: those the request leaves in reference
  cycles (a round and its bets point at each other) are freed by the young generation's next
  collection, and the full collection that walks every open stream comes every few minutes, not
  every few seconds. (A threshold of 100,000 was measured too: the same time in the collector,
  in collections five times as long.)

Reference cycles are still collected, only later: at most :data:`YOUNG_THRESHOLD` objects' worth
of young garbage waits for its collection.

Each collection's pause is a histogram, ``casino_gc_pause_seconds{generation}``, and the CPU its
thread spent in it a counter, ``casino_gc_cpu_seconds_total{generation}``
(:mod:`casino_holdem.metrics`), so an operator sees what the collector costs a process. The two
differ where finalizers run inside a collection (a connection given back to its pool) and let the
interpreter go: the pause then counts what other threads ran meanwhile. Measured at the target
size (``bench/load.py``), a web worker's young collections took 34-38 ms from start to end on
average and 14-16 ms of the collecting thread's CPU (the longest: 131 ms and 28 ms).
"""

from __future__ import annotations

import gc
import time
from typing import Any

from . import metrics

#: new objects (allocations less deallocations) between two collections of the youngest
#: generation; Python's default is 700 (module docstring)
YOUNG_THRESHOLD = 20_000

_started: list[tuple[float, float]] = []


def _timed(phase: str, info: dict[str, Any]) -> None:
    """``gc.callbacks``' hook: each collection's pause into the histogram and its thread's CPU into
    the counter, by generation. Collections never nest (the start and stop come from the one
    collecting thread), so one start is pending."""
    if phase == "start":
        _started[:] = [(time.perf_counter(), time.thread_time())]
    elif _started:
        began, spent = _started.pop()
        generation = str(info["generation"])
        metrics.GC_PAUSES.labels(generation).observe(time.perf_counter() - began)
        metrics.GC_CPU.labels(generation).inc(time.thread_time() - spent)


def settle() -> None:
    """Tune the collector for the rest of this process's life (module docstring): collect what
    loading left, freeze what is alive, collect the young generation every
    :data:`YOUNG_THRESHOLD` new objects, and time every collection. Call once per process, after
    it has loaded what it keeps (a second call freezes what has been kept since)."""
    if _timed not in gc.callbacks:
        gc.callbacks.append(_timed)
    gc.collect()  # measured too: the first pause a process reports is this one
    gc.freeze()
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, oldest)
