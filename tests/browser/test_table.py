"""The table as a live-casino player uses it, on a phone first: every phase fits the screen with all
three bets placed; the cards, the timer and the decision on one screen; a round by touch and by
keyboard alone; the showdown stays readable before the next betting window (R2.7); the bet slip's
Undo, Clear, Rebet and Double; and the defects of issue 13, each with the check that catches it."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from test_play import BANGKOK, MACAU, MONACO, log_in, wait_for_action

from conftest import CEILING_MS, SHOWDOWN_PAUSE

pytestmark = pytest.mark.browser
VIEWPORTS = [(375, 667), (390, 844), (1280, 800)]
FELT_CARDS = "#dealer-cards [data-card], #board-cards [data-card]"


def no_sideways_scroll(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def too_wide(page: Any) -> list[str]:
    """The elements that stick out on the right: what a sideways scroll would come from."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((node) => `${node.tagName}#${node.id}.${node.className}`).slice(0, 5)""")


def on_first_screen(page: Any, selector: str) -> bool:
    """Every element matching ``selector`` lies wholly inside the first screen (no scrolling)."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)].every((node) => {
        const box = node.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth; })""", selector)


def wait_for_betting(page: Any, table: int) -> None:
    """At ``table`` with a betting window that has time to spare."""
    if not page.url.endswith(f"/tables/{table}"):
        page.goto(f"/tables/{table}")
    page.wait_for_function("""() => !document.getElementById('bet-form').hidden
        && parseInt(document.getElementById('countdown').textContent) >= 2""", timeout=CEILING_MS)


def stake(page: Any, spot: str) -> str:
    return page.text_content(f"#{spot}-stack")


def bet_all_three(page: Any, *, tap: bool = False) -> None:
    """Ante, Bonus and Progressive from the felt's spots and the chips (R2.1)."""
    press = page.tap if tap else page.click
    press("#ante")
    press("#chips [data-chip] >> nth=0")
    press("#bonus")
    press("#chips [data-chip] >> nth=0")
    press("#progressive")
    assert stake(page, "ante") and stake(page, "bonus") and stake(page, "progressive")


def play_to_showdown(page: Any, shots: Any = None, *, press: Any = None) -> None:
    """Flop bet, then Bet or Check on each street, as each window allows (a window missed is
    taken automatically, R8), until the showdown's banner; ``shots(phase)`` at each decision."""
    press = press or page.click
    seen = set()
    while True:
        page.wait_for_function("""() => !document.getElementById('banner').hidden
            || document.querySelector('#decisions button:not([hidden]):not([disabled])')""", timeout=CEILING_MS)
        if page.is_visible("#banner"):
            return
        phase = page.text_content("#phase").split(" · ")[0]
        if shots and phase not in seen:
            seen.add(phase)
            shots(phase.lower())
        for action in ("flop", "bet", "check"):
            button = f'#decisions [data-action="{action}"]:not([hidden]):not([disabled])'
            if page.locator(button).count():
                try:
                    press(button, timeout=2_000)
                except Exception:  # the window closed meanwhile: the dealer decided (R8)
                    pass
                break
        page.wait_for_timeout(100)




@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_every_phase_fits_the_screen_with_all_three_bets(open_page, shot, width: int, height: int) -> None:
    page = open_page(width, height, has_touch=width < 900)
    log_in(page, "demo3")
    wait_for_betting(page, MACAU)

    def phase(name: str) -> None:
        shot(page, f"{width}x{height}-{name}")
        assert no_sideways_scroll(page), (name, too_wide(page))
        assert on_first_screen(page, "#player-cards, #dealer-cards, #board-cards, #countdown"), name

    bet_all_three(page)
    phase("betting")
    assert on_first_screen(page, "#place")
    page.click("#place")
    page.wait_for_selector("#bet-form", state="hidden")
    wait_for_action(page, "flop")
    phase("pre-flop")
    assert on_first_screen(page, "#decisions button:not([hidden])"), "decision buttons below the first screen"
    play_to_showdown(page, phase)
    phase("showdown")
    assert page.locator(".felt .card.best, .felt .card.best-dealer").count() >= 5  # the winning five (R7)
    assert page.text_content("#player-hand") and page.text_content("#dealer-hand")


def test_a_whole_round_by_touch(open_page, shot) -> None:
    page = open_page(375, 667, has_touch=True, is_mobile=True)
    log_in(page, "demo2")
    wait_for_betting(page, BANGKOK)
    bet_all_three(page, tap=True)
    page.tap("#place")
    wait_for_action(page, "flop")
    assert on_first_screen(page, "#decisions button:not([hidden])")
    play_to_showdown(page, press=page.tap)
    assert no_sideways_scroll(page)
    shot(page, "showdown")


def test_a_whole_round_by_keyboard_alone(open_page, shot) -> None:
    """Tab reaches the Ante spot before the Bonus; a chip goes on the Ante; after each action the
    focus stays on the next thing to do, not on the page body."""
    page = open_page()
    log_in(page, "demo5")
    wait_for_betting(page, MONACO)
    page.evaluate("document.activeElement.blur()")
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.id")
        if focused in ("ante", "bonus"):
            break
    assert focused == "ante"
    while page.evaluate("document.activeElement.dataset.chip === undefined"):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert stake(page, "ante")
    while page.evaluate("document.activeElement.id") != "place":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.dataset.action === 'fold'", timeout=CEILING_MS)  # pre-flop
    page.keyboard.press("p")
    page.wait_for_function("['bet', 'check'].includes(document.activeElement.dataset.action)", timeout=CEILING_MS)
    page.keyboard.press("c")
    page.wait_for_function("document.activeElement !== document.body", timeout=CEILING_MS)
    wait_for_action(page, "check")
    page.keyboard.press("c")
    page.wait_for_selector("#banner:not([hidden])", timeout=CEILING_MS)
    assert page.evaluate("document.activeElement !== document.body")
    shot(page, "showdown")


def test_r2_7_the_showdown_stays_before_the_next_betting_window(open_page, shot) -> None:
    page = open_page(390, 844)
    log_in(page, "demo4")
    wait_for_betting(page, MACAU)
    page.click("#chips [data-chip] >> nth=0")
    page.click("#place")
    wait_for_action(page, "flop")
    page.click('#decisions [data-action="fold"]')
    page.wait_for_selector("#banner:not([hidden])", timeout=CEILING_MS)
    shown = time.monotonic()
    assert "You lose" in page.text_content("#banner")
    assert page.locator("#dealer-cards [data-card]").count() == 2  # revealed at showdown (R1)
    shot(page, "showdown")
    page.wait_for_selector("#bet-form:not([hidden])", timeout=CEILING_MS)
    assert time.monotonic() - shown >= SHOWDOWN_PAUSE - 1
    assert page.locator(FELT_CARDS).count() == 0  # the last round's cards are not left face-up
    assert page.locator("#strip li").count() >= 1  # it is in the results strip instead
    shot(page, "next-betting")


def test_undo_clear_rebet_and_double(open_page, shot) -> None:
    page = open_page(375, 667)
    log_in(page, "demo1")
    wait_for_betting(page, BANGKOK)
    assert page.is_disabled("#bonus") and page.is_disabled("#progressive")  # R2.1: only with an Ante
    page.click("#chips [data-chip] >> nth=0")
    page.click("#chips [data-chip] >> nth=0")
    assert stake(page, "ante") == "USD 2.00"
    page.click("#undo")
    assert stake(page, "ante") == "USD 1.00"
    page.click("#bonus")
    page.click("#chips [data-chip] >> nth=0")
    page.click("#double")
    assert (stake(page, "ante"), stake(page, "bonus")) == ("USD 2.00", "USD 2.00")
    assert "USD 4.00" in page.text_content("#slip-total")
    shot(page, "doubled")
    page.click("#clear")
    assert stake(page, "ante") == "" and page.is_disabled("#place")
    page.click("#undo")
    page.click("#place")
    page.wait_for_selector("#bet-form", state="hidden")
    page.wait_for_selector("#bet-form:not([hidden])", timeout=CEILING_MS)  # the next round's betting window
    assert stake(page, "ante") == ""  # nothing is repeated unasked
    page.click("#rebet")
    assert (stake(page, "ante"), stake(page, "bonus")) == ("USD 2.00", "USD 2.00")
    shot(page, "rebet")


def test_the_first_chip_keeps_its_face_on_hover(open_page) -> None:
    page = open_page()
    log_in(page, "demo1")
    wait_for_betting(page, MONACO)
    chip = page.locator("#chips [data-chip]").first
    chip.hover()
    background = chip.evaluate("(node) => getComputedStyle(node).backgroundColor")
    assert background not in ("rgb(255, 255, 255)", "rgb(238, 241, 244)")


def test_the_countdown_is_a_timer_for_screen_readers(open_page) -> None:
    page = open_page()
    log_in(page, "demo1")
    page.goto(f"/tables/{MONACO}")
    assert page.get_attribute("#countdown", "role") == "timer"
    assert page.get_attribute("#countdown", "aria-hidden") is None


@pytest.mark.parametrize(("language", "place", "dealer"), [("th", "วางเดิมพัน", "เจ้ามือ"), ("zh", "下注", "庄家")],
                         ids=["th", "zh"])
def test_switching_to_thai_and_to_chinese(open_page, shot, language: str, place: str, dealer: str) -> None:
    page = open_page(375, 667)
    log_in(page, "demo2")
    page.goto(f"/tables/{BANGKOK}")
    page.select_option("#language", language)
    page.wait_for_function(f"document.documentElement.lang === '{language}'")
    assert page.text_content("#place").strip() == place
    assert dealer in page.text_content(".felt")
    wait_for_betting(page, BANGKOK)
    page.click("#chips [data-chip] >> nth=0")
    page.click("#place")
    wait_for_action(page, "flop")
    assert page.text_content("#status") != "" and "Your decision" not in page.text_content("#status")
    assert no_sideways_scroll(page)
    shot(page, f"{language}-pre-flop")
    page.select_option("#language", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")


def test_the_rules_and_pay_tables_are_in_the_game(open_page, shot) -> None:
    """R2-R9 in plain words, the R4 Bonus pays, the R5 prizes and shares in the player's currency
    (R6), and the paytable's version and hash."""
    page = open_page(375, 667)
    log_in(page, "demo4")
    page.goto(f"/tables/{MONACO}")
    page.click("#rules summary")
    text = page.text_content("#rules")
    assert "30 : 1" in text and "P3 · Royal flush" in text and "JPY 400,000" in text and "SHA-256" in text
    assert no_sideways_scroll(page), too_wide(page)
    shot(page, "rules")


def test_issue_10_an_accepted_bet_and_decision_are_one_request_each(open_page) -> None:
    """The table's stream shows each player the change their own bet or decision made (R1: their
    own part), so the page does not read the table again after an accepted action: a floor of
    players in browsers asks one request an action, not two (each read costs the server about
    as much as a decision). The bet's answer is held back a second here, so the stream shows the
    bet first (the first bet of a window moves its deadline, R2.1, a change streamed at once): the
    page, which once waited for the stream's next state after the answer, must see it has it."""
    page = open_page()
    log_in(page, "demo2")
    wait_for_betting(page, MONACO)
    page.wait_for_function("document.getElementById('connection').textContent.includes('live')", timeout=CEILING_MS)
    sent: list[str] = []
    page.on("request", lambda request: sent.append(f"{request.method} {request.url.split('?')[0]}"))

    def answer_late(route: Any) -> None:
        answer = route.fetch()  # the bet is placed and streamed now; its answer comes a second later
        time.sleep(1)
        route.fulfill(response=answer)

    page.route(re.compile(r".*/api/tables/[0-9]+/bets$"), answer_late)
    page.click("#ante")
    page.click("#chips [data-chip] >> nth=0")
    page.click("#place")
    page.wait_for_selector("#bet-form", state="hidden")
    wait_for_action(page, "flop")
    page.click('#decisions [data-action="flop"]')
    page.wait_for_function("!document.querySelector('#decisions [data-action=\"flop\"]:not([hidden])')",
                           timeout=CEILING_MS)
    page.wait_for_timeout(2_000)  # beyond the wait for the stream after which the page would read the table
    api = [re.sub(r"[0-9]+", "{id}", f"{request.split()[0]} /api/{request.split('/api/', 1)[1]}")
           for request in sent if "/api/" in request]
    assert api == ["POST /api/tables/{id}/bets", "POST /api/rounds/{id}/decisions"]
