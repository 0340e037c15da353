"""The computation of the paytables' exact figures in the commands layer (issues 11 and 13):
``paytables figures`` stores each waiting version once, and the servers' background worker
stores a newly uploaded version's figures without anyone asking. The real computation takes
minutes; these tests hand in :func:`support.figures.sample_figures` (the exact one is compared
with ``rtp --json`` in tests/compliance/test_paytable_figures_exact.py)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from casino_holdem.commands import figures
from casino_holdem.services import paytable_figures, paytable_versions
from support.casino import staff
from support.cli import command_runner
from support.figures import sample_figures
from support.server import wait_until

STANDARD = (Path(__file__).resolve().parents[2] / "paytables" / "standard-v1.toml").read_bytes()


def _fake(paytable: object) -> dict[str, object]:
    return sample_figures()


def test_compute_missing_stores_each_waiting_version_once(db, variant) -> None:
    first = paytable_versions.submit(STANDARD, staff("ann", "manager"))
    second = paytable_versions.submit(variant(2, aa=40), staff("ann", "manager"))
    done = figures.compute_missing(_fake)
    assert [entry["paytable"] for entry in done] == ["standard@1", "standard@2"]
    for version in (first, second):
        stored = paytable_figures.figures_of(version.sha256)
        assert stored is not None and stored.engine == figures.engine_hash()
        assert stored.figures["strategies"] == sample_figures()["strategies"] and float(stored.figures["seconds"]) >= 0
    assert figures.compute_missing(_fake) == []


def test_a_failed_computation_keeps_its_claim_and_the_others_go_on(db, variant) -> None:
    broken = paytable_versions.submit(STANDARD, staff("ann", "manager"))
    paytable_versions.submit(variant(2, aa=40), staff("ann", "manager"))

    def compute(paytable):
        if paytable.sha256 == broken.sha256:
            raise RuntimeError("out of memory")
        return sample_figures()

    assert [entry["paytable"] for entry in figures.compute_missing(compute)] == ["standard@2"]
    assert paytable_figures.figures_of(broken.sha256) is None
    assert paytable_figures.pending(figures.engine_hash()) == []     # claimed: retried once the claim is stale


def test_the_command_prints_what_it_computed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = command_runner(tmp_path, monkeypatch, "figures.sqlite3", staff={"ann": "manager"})
    monkeypatch.setattr(figures, "paytable_figures", lambda paytable, threads: sample_figures())
    path = tmp_path / "standard-v1.toml"
    path.write_bytes(STANDARD)
    run("paytables", "import", str(path), "--operator", "ann")
    done = run("paytables", "figures", "--threads", "1")
    assert [entry["paytable"] for entry in done] == ["standard@1"] and done[0]["engine"] == figures.engine_hash()
    assert run("paytables", "figures") == []
    listed = run("paytables", "list")
    assert listed[0]["rtp"]["figures"]["bonus"] == sample_figures()["bonus"]


def test_the_engine_hash_names_the_code_the_figures_come_from() -> None:
    assert len(figures.engine_hash()) == 16 and figures.engine_hash() == figures.engine_hash()
    assert {strategy.name for strategy in figures.exact_strategies()} == {"always-play", "simple", "optimal"}


def test_the_background_worker_stores_a_new_versions_figures(app, db, variant) -> None:
    """The worker of ``serve`` and ``dealer`` (here with its child process replaced by the same
    computation in-process) finds a version uploaded while it runs."""
    stop = threading.Event()

    def run() -> None:
        with app.app_context():
            figures.compute_missing(_fake)

    worker = figures.FiguresWorker(app, stop, poll=0.2, run=run)
    worker.thread.start()
    try:
        version = paytable_versions.submit(variant(2, aa=40), staff("ann", "manager"))
        wait_until(lambda: paytable_figures.figures_of(version.sha256), seconds=120, what="stored figures")
    finally:
        stop.set()
        worker.thread.join(timeout=60)
    assert not worker.thread.is_alive()


def test_the_worker_is_off_when_the_poll_is_zero(app, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASINO_FIGURES_POLL", "0")
    assert figures.start_worker(app, threading.Event()) is None
