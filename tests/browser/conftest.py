"""The browser suite: the real app (``casino-holdem serve --demo``) on a free localhost port with a
temporary SQLite database and short timers, driven by Playwright for Python in Debian's Chromium.

It runs when asked for (``pytest -m browser`` or ``CASINO_BROWSER_TESTS=1``) and skips cleanly
when Playwright or ``/usr/bin/chromium`` is missing. Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from casino_holdem import settings
from support.server import serving

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: seconds of the betting window and of each decision window on the demo tables
BETTING = DECISION = 4
#: seconds a settled round stays on the felt before the next betting window (R2.7)
SHOWDOWN_PAUSE = 2
#: how long a test waits for the game to get somewhere (a window, a street, a banner): far above the
#: ~20 s a round takes, because these machines are shared and a loaded one is slow
CEILING_MS = 90_000
MISSING = ("Playwright for Python is not installed" if importlib.util.find_spec("playwright") is None
           else f"{CHROMIUM} is missing (apt-get install chromium)" if not CHROMIUM.exists() else None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = "browser" in (config.getoption("markexpr") or "") or settings.value("CASINO_BROWSER_TESTS")
    reason = MISSING or (None if wanted else "browser tests run with -m browser or CASINO_BROWSER_TESTS=1")
    for item in items:
        if item.get_closest_marker("browser") and reason:
            item.add_marker(pytest.mark.skip(reason=reason))


@contextmanager
def demo_server(folder: Path, *, betting: int = BETTING, decision: int = DECISION) -> Iterator[str]:
    """``casino-holdem serve --demo --no-bots`` in a subprocess on a database in ``folder``, with
    these windows; its base URL."""
    environment = {**os.environ, "CASINO_DATABASE_URL": f"sqlite:///{folder / 'casino.sqlite3'}",
                   "CASINO_SECRET_KEY": "browser-tests", "CASINO_BETTING_SECONDS": str(betting),
                   "CASINO_DECISION_SECONDS": str(decision), "CASINO_DEALER_TICK": "0.1",
                   "CASINO_SHOWDOWN_PAUSE": str(SHOWDOWN_PAUSE)}
    with serving([sys.executable, "-m", "casino_holdem", "serve", "--demo", "--no-bots"], cwd=ROOT,
                 env=environment, log=folder / "server.log") as base:
        yield base


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The demo server with short windows, shared by the suite; its base URL."""
    with demo_server(tmp_path_factory.mktemp("browser")) as base:
        yield base


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(chromium: Any, server: str) -> Iterator[Callable[..., Any]]:
    """Pages in fresh browser contexts (one player each); JavaScript errors fail the test."""
    contexts, errors = [], []

    def make(width: int = 1280, height: int = 900, **options: Any) -> Any:
        # The pages' CSP forbids eval; Playwright's wait_for_function evaluates its predicate as a
        # string inside the page, so the tests' own helper scripts bypass the policy (the pages
        # themselves are served and run under it: test_headers checks the policy on every page).
        context = chromium.new_context(viewport={"width": width, "height": height}, base_url=server,
                                       bypass_csp=True, **options)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == []


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], None]:
    """Save a full-page screenshot as artifacts/screenshots/<test>-<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    test = request.node.name.removeprefix("test_")

    def save(page: Any, name: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{test}-{name}.png"), full_page=True, animations="disabled")

    return save
