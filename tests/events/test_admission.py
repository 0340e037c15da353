"""Issue 10: streams opened at about the same moment are admitted by one read, not one each."""

from __future__ import annotations

import asyncio
import threading

import pytest

from casino_holdem.events.admission import Batch


def _batch(found: dict[str, int], reads: list[list[str]], gate: threading.Event | None = None) -> Batch[str, int]:
    def read(keys: list[str]) -> dict[str, int]:
        if gate is not None:
            gate.wait(30)
        reads.append(sorted(keys))
        return {key: found[key] for key in keys if key in found}

    return Batch(read)


def test_calls_made_while_a_read_runs_are_answered_together_by_the_next() -> None:
    reads: list[list[str]] = []
    gate = threading.Event()
    batch = _batch({"a": 1, "b": 2, "c": 3}, reads, gate)

    async def scenario() -> list[int | None]:
        first = asyncio.create_task(batch.get("a"))
        await asyncio.sleep(0.05)  # the first read has started and waits at the gate
        rest = [asyncio.create_task(batch.get(key)) for key in ("b", "c", "b", "unknown")]
        await asyncio.sleep(0.05)
        gate.set()
        return [await first] + [await task for task in rest]

    assert asyncio.run(scenario()) == [1, 2, 3, 2, None]
    assert reads == [["a"], ["b", "c", "unknown"]]


def test_an_error_of_the_read_reaches_every_call_it_would_have_answered() -> None:
    def read(_keys: list[str]) -> dict[str, int]:
        raise ConnectionError("database away")

    batch: Batch[str, int] = Batch(read)

    async def scenario() -> list[BaseException | int | None]:
        return await asyncio.gather(batch.get("a"), batch.get("b"), return_exceptions=True)

    results = asyncio.run(scenario())
    assert all(isinstance(result, ConnectionError) for result in results)
    with pytest.raises(ConnectionError):
        asyncio.run(Batch(read).get("again"))
