"""Issue 10: what ``serve --production`` runs beside its web workers (the dealers, the streams'
workers) is kept running: a child that dies is started again, one stopped on purpose is not, and a
stop ends every child for good."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from casino_holdem.commands import children as children_module
from casino_holdem.commands.children import Children
from support.server import wait_until

SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)"]


def test_a_child_killed_is_started_again_and_its_siblings_are_left_alone() -> None:
    children = Children([SLEEPER, SLEEPER])
    children.start()
    try:
        killed, sibling = children.processes
        killed.kill()
        killed.wait()
        restarted = wait_until(lambda: children.processes[0] is not killed and children.processes[0],
                               seconds=60, what="the killed child started again")
        assert restarted.poll() is None and children.processes[1] is sibling and sibling.poll() is None
    finally:
        children.stop()


def test_a_stop_ends_every_child_and_starts_none_again() -> None:
    children = Children([SLEEPER])
    children.start()
    children.stop()
    (stopped,) = children.processes
    assert stopped.poll() is not None
    time.sleep(3 * children_module.WATCH_SECONDS)
    assert children.processes == [stopped]


def test_a_child_stopped_on_purpose_is_not_started_again() -> None:
    """A service manager's stop signals every process of the service at once: the children that
    SIGTERM ends stay ended, while ``serve`` itself finishes its own stop."""
    children = Children([SLEEPER])
    children.start()
    try:
        (stopped,) = children.processes
        stopped.terminate()
        stopped.wait()
        time.sleep(3 * children_module.WATCH_SECONDS)
        assert children.processes == [stopped]
    finally:
        children.stop()


@pytest.mark.parametrize(("quick_ends", "seconds"), [
    (0, 0.0),    # it had run steadily: started again at once
    (1, 1.0),    # the first quick end: within the watch's second, as before
    (2, 2.0),
    (3, 4.0),
    (6, 32.0),
    (7, 60.0),   # never longer than a minute
    (40, 60.0),
])
def test_a_child_that_keeps_ending_at_once_waits_twice_as_long_each_time(quick_ends: int, seconds: float) -> None:
    assert children_module.restart_wait(quick_ends) == seconds


def test_a_child_that_fails_at_start_is_not_started_every_second(tmp_path: Path) -> None:
    """A child that cannot start (its port taken, a setting it refuses) ends at once each time: it
    is started again after 1, 2, 4 … seconds, not every second without end."""
    starts = tmp_path / "starts"
    failing = [sys.executable, "-c", f"open({str(starts)!r}, 'a').write('x'); raise SystemExit(3)"]
    children = Children([failing])
    children.start()
    try:
        wait_until(lambda: starts.exists() and len(starts.read_text()) >= 2, seconds=60,
                   what="the failing child started again once")
        started_again_at = time.monotonic()
        time.sleep(4 * children_module.WATCH_SECONDS)
        # after its second quick end it waits 2 s, after its third 4 s: at most one more start in 4 s
        assert len(starts.read_text()) <= 3, time.monotonic() - started_again_at
    finally:
        children.stop()
