"""The players' pages in a real browser: the results strip coloured for every outcome (R3, R9), a
suspended table shown as such in the lobby and on its page, and changing one's password from the
account page."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from test_play import MACAU, MONACO, log_in

pytestmark = pytest.mark.browser
#: the colours of app.css's :root
OK, BAD, MUTED = "rgb(30, 125, 50)", "rgb(179, 38, 30)", "rgb(91, 100, 112)"
STATE = re.compile(r'<script type="application/json" id="state">(.*?)</script>', re.DOTALL)


def test_r3_the_results_strip_colours_every_outcome(open_page) -> None:
    page = open_page()
    log_in(page, "demo3")
    page.route("**/events/**", lambda route: route.abort())  # no streamed state redraws the strip meanwhile
    page.goto(f"/tables/{MONACO}")
    page.wait_for_selector("#status:not(:empty)")
    recent = [{"number": 4, "result": "player_wins", "void": None, "player": None, "dealer": None},
              {"number": 3, "result": "dealer_wins", "void": None, "player": None, "dealer": None},
              {"number": 2, "result": "tie", "void": None, "player": None, "dealer": None},
              {"number": 1, "result": "void", "void": "misdeal", "player": None, "dealer": None}]
    colours = page.evaluate("""(recent) => {
        TablePanels.renderStrip({ recent });
        return Array.from(document.querySelectorAll('#strip li'),
                          (item) => [item.querySelector('strong').textContent, getComputedStyle(item).borderLeftColor]);
    }""", recent)
    assert colours == [["#4 Player wins", OK], ["#3 Dealer wins", BAD], ["#2 Tie", MUTED], ["#1 Void", MUTED]]


def served_suspended(page: Any, table: int) -> None:
    """Pages whose embedded state marks ``table`` as suspended (``table.suspended``, as the payload
    of a table the pit suspended has it), and no stream to replace that state meanwhile: the demo
    server is shared by the browser tests, so its tables are never really suspended here."""
    def mark(item: dict[str, Any]) -> dict[str, Any]:
        return {**item, "suspended": item["id"] == table}

    def inject(route: Any) -> None:
        response = route.fetch()
        html = response.text()
        found = STATE.search(html)
        if found is None:
            route.fulfill(response=response)
            return
        state = json.loads(found.group(1))
        if "tables" in state:
            state["tables"] = [mark(item) for item in state["tables"]]
        else:
            state["table"] = mark(state["table"])
        body = html[:found.start(1)] + json.dumps(state).replace("<", "\\u003c") + html[found.end(1):]
        route.fulfill(response=response, body=body)

    page.route(re.compile(r"^https?://[^/]+/(tables/\d+)?$"), inject)  # the lobby and the table pages only
    page.route("**/events/**", lambda route: route.abort())


def test_a_suspended_table_says_so_in_the_lobby_and_on_its_page(open_page, shot) -> None:
    page = open_page()
    log_in(page, "demo3")
    served_suspended(page, MONACO)
    page.goto("/")
    page.wait_for_selector(f'[data-table="{MONACO}"] [data-field=phase].suspended')
    assert page.text_content(f'[data-table="{MONACO}"] [data-field=phase]') == "Suspended"
    assert page.text_content(f'[data-table="{MONACO}"] [data-field=countdown]') == ""
    assert page.locator(f'[data-table="{MACAU}"] [data-field=phase].suspended').count() == 0
    shot(page, "lobby")
    page.goto(f"/tables/{MONACO}")
    page.wait_for_selector("#status:not(:empty)")
    assert page.is_visible("#suspended") and page.text_content("#suspended") == "Suspended"
    assert page.text_content("#status") == "This table is suspended: it takes no bets until it resumes."
    assert page.is_hidden("#bet-form")
    shot(page, "table")
    page.goto(f"/tables/{MACAU}")
    page.wait_for_selector("#status:not(:empty)")
    assert page.is_hidden("#suspended")
    assert page.is_visible("#fairness")  # a table dealt by the server's shuffle shows its deck commitment
    page.unroute_all(behavior="ignoreErrors")


def sign_in(page: Any, username: str, password: str) -> None:
    page.goto("/login")
    page.fill("#username", username)
    page.fill("#password", password)
    page.click("#login-form button[type=submit]")


def test_a_player_changes_their_password_and_their_other_browser_is_logged_out(open_page, shot) -> None:
    """POST /account/password, as the API's: the old password fails, the new one works, this
    browser goes on and another browser's session is over (the service ends every other session)."""
    name = f"changer{time.time_ns() % 10**9}"  # a player of this test's own: the demo players keep theirs
    page = open_page()
    page.goto("/register")
    page.fill("#username", name)
    page.fill("#password", "first secret")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    other = open_page()  # another browser (its own cookies), logged in as the same player
    sign_in(other, name, "first secret")
    other.wait_for_url(re.compile(r"/$"))
    page.click("header >> text=Account")
    page.wait_for_url(re.compile(r"/account$"))
    page.fill("#current-password", "not the password")
    page.fill("#new-password", "second secret")
    page.fill("#new-password-again", "second secret")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#form-error:has-text('Your current password is not right.')")
    assert page.get_attribute("#current-password", "aria-invalid") == "true"
    page.fill("#current-password", "first secret")
    page.fill("#new-password", "second secret")
    page.fill("#new-password-again", "second secret")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#form-done")
    shot(page, "changed")
    page.goto("/")  # this browser goes on with a fresh session
    assert page.url.endswith("/") and page.locator(f"header .who:has-text('{name}')").count() == 1
    other.goto("/")  # the other one is logged out
    other.wait_for_url(re.compile(r"/login\?next=/$"))
    sign_in(other, name, "first secret")  # the old password fails
    other.wait_for_selector("[role=alert]:has-text('Wrong username or password.')")
    sign_in(other, name, "second secret")  # the new one works
    other.wait_for_url(re.compile(r"/$"))
