"""A real ``casino-holdem serve`` in a subprocess on a free localhost port, for the browser suite
and the installed-wheel check: started, waited for by condition (the machine is shared and may be
slow, so the ceilings are generous) and stopped the way a service manager stops it."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")
#: seconds a server may take to answer its login page, and to stop
START_SECONDS, STOP_SECONDS = 120, 30


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(condition: Callable[[], T | None], *, seconds: float, what: str,
               process: subprocess.Popen[bytes] | None = None, log: Path | None = None) -> T:
    """The first truthy value of ``condition()``, polled every 0.1 s; fails the test after
    ``seconds``, or as soon as ``process`` exits (with the end of ``log``)."""
    deadline = time.monotonic() + seconds
    while True:
        found = condition()
        if found:
            return found
        if process is not None and process.poll() is not None:
            pytest.fail(f"the server exited ({process.returncode}) before {what}: {_tail(log)}")
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {seconds} s: {_tail(log)}")
        time.sleep(0.1)


def _tail(log: Path | None) -> str:
    return log.read_text(errors="replace")[-2000:] if log is not None and log.exists() else ""


def answers(url: str) -> bool:
    """Whether ``url`` answers 200."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def stop_cleanly(process: subprocess.Popen[bytes], log: Path) -> None:
    """SIGTERM, as a service manager stops a server or a dealer: it must exit 0 within
    ``STOP_SECONDS`` (killed and failed otherwise)."""
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise
    assert code == 0, f"the process did not stop cleanly ({code}): {_tail(log)}"


@contextmanager
def serving(command: Sequence[str], *, cwd: Path, env: dict[str, str], log: Path) -> Iterator[str]:
    """Run ``command`` (a ``serve`` without ``--port``) on a free port; yields its base URL once the
    login page answers 200. On exit: SIGTERM, and the server must stop cleanly (exit 0)."""
    port = free_port()
    with log.open("w") as output:
        process = subprocess.Popen([*command, "--port", str(port)], cwd=cwd, env=env, stdout=output,
                                   stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until(lambda: answers(f"{base}/login"), seconds=START_SECONDS, what="login page", process=process,
                       log=log)
            yield base
        finally:
            stop_cleanly(process, log)
