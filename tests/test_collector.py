"""Issue 10: a server process's garbage collector, settled once the process has loaded what it
keeps (casino_holdem.collector): what is alive then is out of the collector's sight, the young
generation is collected every YOUNG_THRESHOLD new objects, and every pause is measured."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from prometheus_client import REGISTRY

from casino_holdem import collector


@contextmanager
def _settling() -> Iterator[None]:
    """:func:`collector.settle` in this test process, undone afterwards (the suite's other tests
    run with Python's defaults)."""
    threshold = gc.get_threshold()
    collector.settle()
    try:
        yield
    finally:
        gc.callbacks.remove(collector._timed)
        gc.set_threshold(*threshold)
        gc.unfreeze()


@pytest.fixture
def settled() -> Iterator[None]:
    with _settling():
        yield


def _pauses(generation: int) -> float:
    return REGISTRY.get_sample_value("casino_gc_pause_seconds_count", {"generation": str(generation)}) or 0.0


def _sum(sample: str) -> float:
    """A sample summed over the generations."""
    return sum(REGISTRY.get_sample_value(sample, {"generation": str(generation)}) or 0.0 for generation in range(3))


def test_what_the_process_holds_at_startup_is_frozen_out_of_the_collectors_sight() -> None:
    loaded = ["kept for the process's life"]
    with _settling():
        made_later = ["a request's"]
        walked = gc.get_objects()  # what the collector walks: frozen objects are not among them
        assert gc.get_freeze_count() > 0
        assert not any(seen is loaded for seen in walked) and any(seen is made_later for seen in walked)


def test_the_young_generation_is_collected_every_young_threshold_new_objects(settled: None) -> None:
    young, middle, oldest = gc.get_threshold()
    assert young == collector.YOUNG_THRESHOLD > 700
    assert (middle, oldest) == (10, 10)  # the older generations keep Python's own rhythm


@pytest.mark.parametrize("generation", [0, 1, 2])
def test_every_collection_is_a_measured_pause(settled: None, generation: int) -> None:
    before = _pauses(generation)
    gc.collect(generation)
    assert _pauses(generation) == before + 1
    assert (REGISTRY.get_sample_value("casino_gc_pause_seconds_sum", {"generation": str(generation)}) or 0.0) > 0
    assert REGISTRY.get_sample_value("casino_gc_cpu_seconds_total", {"generation": str(generation)}) is not None


def test_a_pause_counts_a_finalizers_wait_and_the_cpu_only_the_collectors_work(settled: None) -> None:
    """A finalizer run inside a collection can let the interpreter go (here it sleeps): the pause,
    start to end, counts that time, the collecting thread's CPU does not."""

    class Slow:
        partner: object = None

        def __del__(self) -> None:
            time.sleep(0.2)

    node = Slow()
    node.partner = node  # a cycle: only the collector frees it
    del node
    pause, cpu = _sum("casino_gc_pause_seconds_sum"), _sum("casino_gc_cpu_seconds_total")
    gc.collect()
    assert _sum("casino_gc_pause_seconds_sum") - pause >= 0.2
    assert 0 <= _sum("casino_gc_cpu_seconds_total") - cpu < 0.1


def test_the_startup_collection_is_the_first_measured_pause() -> None:
    before = _pauses(2)
    with _settling():
        assert _pauses(2) == before + 1


def test_settling_twice_keeps_one_measure(settled: None) -> None:
    collector.settle()
    assert gc.callbacks.count(collector._timed) == 1
    before = _pauses(0)
    gc.collect(0)
    assert _pauses(0) == before + 1


def test_cycles_made_after_settling_are_still_collected(settled: None) -> None:
    class Node:
        other: object = None

    first, second = Node(), Node()
    first.other, second.other = second, first  # a reference cycle: only the collector frees it
    del first, second
    assert gc.collect() >= 2
