"""The players' pages in a real browser: the results strip coloured for every outcome (R3, R9),
the R9 notices in the player's language, and changing one's password from the account page."""

from __future__ import annotations

import pytest
from test_play import MONACO, log_in

pytestmark = pytest.mark.browser
#: the colours of app.css's :root
OK, BAD, MUTED = "rgb(30, 125, 50)", "rgb(179, 38, 30)", "rgb(91, 100, 112)"


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
