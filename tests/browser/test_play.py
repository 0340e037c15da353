"""Playing in a real browser: log in, bet, fold; a full round with Flop, Bet and Check next to a
second player; a decision that times out (R8, shown as automatic); a reload mid-round; the
history with its in-browser deck verification; and a phone-width layout without sideways scroll."""

from __future__ import annotations

import re
from typing import Any

import pytest

from conftest import BETTING, DECISION

pytestmark = pytest.mark.browser
#: table ids of the demo tables (services/demo.py): Bangkok, Macau, Monaco, and the live Studio
BANGKOK, MACAU, MONACO, STUDIO = 1, 2, 3, 4


def log_in(page: Any, username: str) -> None:
    """The login page lists the demo players: one click logs in."""
    page.goto("/login")
    page.click(f'button[data-demo="{username}"]')
    page.wait_for_url(re.compile(r"/$"))


def place_ante(page: Any, table: int, *, bonus: bool = False, spare: int = 2) -> str:
    """Sit at ``table``, wait for a betting window with ``spare`` seconds to spare, bet the smallest
    chip; returns the round shown ("Round 4 · 1 betting")."""
    page.goto(f"/tables/{table}")
    page.wait_for_function(f"""() => !document.getElementById('bet-form').hidden
        && parseInt(document.getElementById('countdown').textContent) >= {spare}""")
    page.click("#clear")
    page.click("#chips [data-chip] >> nth=0")
    if bonus:
        page.focus("#bonus")
        page.click("#chips [data-chip] >> nth=0")
    page.click("#place")
    page.wait_for_selector("#bet-form", state="hidden")
    return page.text_content("#round-number").split(" · ")[0]


def wait_for_action(page: Any, action: str) -> None:
    page.wait_for_selector(f'#decisions [data-action="{action}"]:not([hidden]):not([disabled])')


def dealt_in(open_page: Any, username: str, table: int) -> tuple[Any, str]:
    """A page of ``username`` with an Ante on a round at ``table``, at the pre-flop decision (R2.3);
    and the round shown."""
    page = open_page()
    log_in(page, username)
    shown = place_ante(page, table)
    wait_for_action(page, "flop")
    return page, shown


def test_log_in_bet_and_fold(open_page, shot) -> None:
    page, _ = dealt_in(open_page, "demo1", BANGKOK)
    shot(page, "pre-flop")
    page.click("text=Lobby >> nth=0")
    assert page.locator(".table-card").count() == 4  # three dealt by the server, one live
    shot(page, "lobby")
    page.go_back()
    wait_for_action(page, "fold")
    page.click('#decisions [data-action="fold"]')
    page.wait_for_selector("#decision-list li:has-text('Fold')")
    page.wait_for_function("document.getElementById('net').textContent.startsWith('Net USD -1.00')")
    assert page.locator("#decisions button:not([hidden])").count() == 0
    shot(page, "folded")


def test_full_round_with_flop_bet_and_check_beside_a_second_player(open_page, shot) -> None:
    page, other = open_page(), open_page()
    log_in(page, "demo3")
    log_in(other, "demo4")
    place_ante(page, MACAU, bonus=True)
    other.goto(f"/tables/{MACAU}")
    other.click("#chips [data-chip] >> nth=0")
    other.click("#place")
    wait_for_action(page, "flop")
    assert "2 betting" in page.text_content("#round-number")
    page.keyboard.press("p")  # keyboard: P is the Flop bet
    wait_for_action(other, "fold")
    other.click('#decisions [data-action="fold"]')
    wait_for_action(page, "bet")
    assert page.locator("#board-cards [data-card]").count() == 3
    assert page.locator("#dealer-cards .back").count() == 2  # the Dealer's cards stay face down (R1)
    shot(page, "flop")
    page.click('#decisions [data-action="bet"]')
    page.wait_for_function("document.querySelectorAll('#board-cards [data-card]').length === 4")  # the turn
    wait_for_action(page, "check")
    page.keyboard.press("c")
    page.wait_for_function("document.getElementById('net').textContent.startsWith('Net THB')")
    assert page.locator("#dealer-cards [data-card]").count() == 2  # revealed at showdown
    assert page.locator("#board-cards [data-card]").count() == 5
    rows = page.locator("#bet-rows tr")
    assert [rows.nth(i).locator("th").text_content() for i in range(rows.count())] == [
        "Ante", "Bonus", "Flop", "Turn"]
    assert "JPY" not in page.text_content("#my-bet")  # each player sees only their own bets
    shot(page, "showdown")
    assert "Fold" in other.text_content("#decision-list")
    assert "THB" not in other.text_content("#my-bet")
    shot(other, "second-player")


def test_a_decision_not_made_in_time_is_taken_automatically(open_page, shot) -> None:
    page, _ = dealt_in(open_page, "demo5", MONACO)
    page.wait_for_selector("#decision-list .auto", timeout=(BETTING + DECISION + 5) * 1000)
    assert "Fold" in page.text_content("#decision-list")
    assert page.text_content("#decision-list .auto") == "automatic · timeout"
    shot(page, "automatic-fold")


def test_a_reload_mid_round_comes_back_to_the_same_round(open_page, shot) -> None:
    page, shown = dealt_in(open_page, "demo2", BANGKOK)
    cards = page.get_attribute("#player-cards", "data-key")
    page.reload()
    wait_for_action(page, "flop")
    assert page.text_content("#round-number").split(" · ")[0] == shown
    assert page.get_attribute("#player-cards", "data-key") == cards
    assert page.text_content("#connection") == "● live"
    shot(page, "after-reload")
    page.click('#decisions [data-action="flop"]')
    wait_for_action(page, "check")


def test_the_history_shows_each_round_and_verifies_its_deck(open_page, shot) -> None:
    page, _ = dealt_in(open_page, "demo1", MONACO)
    page.click('#decisions [data-action="fold"]')
    page.wait_for_selector("#my-bet-title:has-text('finished')")
    page.click("text=History >> nth=0")
    first = page.locator("article.recall").first
    assert first.locator("[data-card]").count() >= 4  # the Player's and the Dealer's cards at least
    first.locator("summary").click()
    first.locator("button.verify").click()
    page.wait_for_selector(".verify-result.ok")
    assert "matches the commitment" in first.locator(".verify-result").text_content()
    shot(page, "verified")


def test_phone_width_has_no_horizontal_scroll(open_page, shot) -> None:
    page = open_page(375, 740)
    page.goto("/login")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shot(page, "login")
    log_in(page, "demo4")
    for path, name in (("/", "lobby"), (f"/tables/{MONACO}", "table"), ("/history", "history")):
        page.goto(path)
        page.wait_for_load_state("networkidle") if path == "/history" else page.wait_for_timeout(300)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
        shot(page, name)
    place_ante(page, MONACO)
    wait_for_action(page, "flop")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shot(page, "table-decision")
