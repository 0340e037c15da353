"""Issue 10: what ``serve --production`` runs beside its web workers (the dealers, the streams'
workers) is kept running: a child that dies is started again, one stopped on purpose is not, and a
stop ends every child for good."""

from __future__ import annotations

import sys
import time

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
