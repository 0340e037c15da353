"""Live dealing in a real browser (issue 12, R1, R9): ``dealer1`` deals the demo's live table
(Studio) from the console by typing card codes as a scanner does (the code, then Enter) while two
players bet and decide on it at their own pages; a dropped card is used again; a misdeal is
corrected. The players see the round as on any table (the Dealer's cards face down until
showdown) and the incidents that did not void it as notices.

The module's server has long windows (a dealer typing twelve cards, two players deciding, on a
machine shared by many sessions); every wait is on a condition with a generous ceiling. (The
basename is not test_dealer.py: tests/services/ has one, and the suite collects by basename.)"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel.support import Translations
from test_play import STUDIO, log_in, place_ante, wait_for_action

from casino_holdem.core.incidents import NOTICES, Effect
from casino_holdem.web.i18n import TRANSLATIONS
from conftest import CEILING_MS, demo_server
from support.live import TYPED

pytestmark = pytest.mark.browser
BETTING, DECISION = 15, 40
#: the seconds of betting window the first player waits for, so that a second one bets on the same round
SPARE = 11


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with demo_server(tmp_path_factory.mktemp("dealer"), betting=BETTING, decision=DECISION) as base:
        yield base


def console(open_page: Any) -> Any:
    """``dealer1`` signed in, at Studio's console reached from the back office's navigation."""
    page = open_page(1024, 1200)
    page.set_default_timeout(CEILING_MS)
    page.goto("/operator/login")
    page.fill("#username", "dealer1")
    page.fill("#password", "demo")
    page.click("#operator-login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/operator/$"))
    page.click("text=Live dealing")
    page.click("#live-tables >> text=Studio")
    page.wait_for_selector("#next:has-text('Betting is open'), #next:has-text('Next card')")
    return page


def player(open_page: Any, username: str) -> Any:
    page = open_page()
    page.set_default_timeout(CEILING_MS)
    log_in(page, username)
    return page


def speak(page: Any, language: str) -> None:
    """The player's language, kept with their account (PUT /api/me/settings, as the pages do)."""
    page.evaluate("(language) => Casino.api('PUT', '/api/me/settings', { language })", language)


def bet_at_studio(page: Any, spare: int = 2) -> None:
    """The smallest Ante at Studio once its betting window has ``spare`` seconds left. A page that
    has sat through empty windows may not have rolled its countdown over: it is opened again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.set_default_timeout((BETTING + 5) * 1000)
    try:
        for _ in range(CEILING_MS // ((BETTING + 5) * 1000)):
            try:
                place_ante(page, STUDIO, spare=spare)
                return
            except PlaywrightTimeout:
                continue
        pytest.fail(f"no betting window with {spare} s to spare at Studio")
    finally:
        page.set_default_timeout(CEILING_MS)


def player_cards(page: Any) -> list[str]:
    return page.eval_on_selector_all("#player-cards [data-card]", "nodes => nodes.map((node) => node.dataset.card)")


def deal(dealer: Any, code: str) -> None:
    """Wait until the console expects a card, type it as a scanner does, wait until it is dealt."""
    dealer.wait_for_selector("#next:has-text('Next card')")
    position = dealer.get_attribute("#steps li.next", "data-position")
    dealer.locator("#card-code").press_sequentially(code)
    dealer.press("#card-code", "Enter")
    dealer.wait_for_selector(f'#steps li[data-position="{position}"].dealt')


def deal_cards(dealer: Any, first: int, last: int) -> None:
    for code in TYPED[first:last]:
        deal(dealer, code)


def decide(pages: list[Any], actions: list[str]) -> None:
    for page, action in zip(pages, actions, strict=True):
        wait_for_action(page, action)
        if action in ("flop", "fold"):  # R2.3: the Player's cards are on the felt, the Dealer's face down
            assert player_cards(page) == ["Ac", "Ad"] and page.locator("#dealer-cards [data-card]").count() == 0
        page.click(f'#decisions [data-action="{action}"]')


def settled(page: Any, outcome: str) -> None:
    """The player's round is over with a net ``plus`` or ``minus`` (kept after the next round opens),
    and the results strip names both hands: the Dealer's cards were shown at showdown (R2.7)."""
    page.wait_for_selector("#my-bet-title:has-text('finished')")
    page.wait_for_selector(f"#net.{outcome}")
    page.wait_for_selector("#strip li:has-text('Dealer:')")


def test_a_dealer_deals_a_whole_live_round_with_typed_codes_while_two_players_bet_and_decide(open_page, shot) -> None:
    dealer = console(open_page)
    ann, bob = player(open_page, "demo1"), player(open_page, "demo2")
    bet_at_studio(ann, SPARE)
    bet_at_studio(bob)
    dealer.wait_for_selector("#next:has-text('Next card: Player 1st')")
    assert dealer.text_content("#bettors") == "2"
    shot(dealer, "first-card-due")
    deal(dealer, TYPED[0])
    dealer.locator("#card-code").press_sequentially("ac")  # the same card again: refused, nothing changes
    dealer.press("#card-code", "Enter")
    dealer.wait_for_selector("#dealer-message.refused:has-text('duplicate card Ac: already dealt as Player 1st')")
    assert dealer.text_content("#next") == "Next card: Dealer 1st"
    deal_cards(dealer, 1, 4)
    dealer.wait_for_selector("#next:has-text('players are deciding')")
    assert dealer.text_content("#timer") != "—"
    shot(dealer, "hole-cards")
    decide([ann, bob], ["flop", "flop"])
    deal_cards(dealer, 4, 8)
    decide([ann, bob], ["check", "bet"])
    assert ann.locator("#board-cards [data-card]").count() == 3
    assert ann.locator("#dealer-cards [data-card]").count() == 0
    deal_cards(dealer, 8, 10)
    decide([ann, bob], ["check", "check"])
    deal_cards(dealer, 10, 12)
    dealer.wait_for_selector("#phase:has-text('Settled')")
    shot(dealer, "settled")
    for page in (ann, bob):
        settled(page, "plus")
    shot(ann, "player-showdown")


def test_a_dropped_card_is_used_again_and_the_players_see_a_notice(open_page, shot) -> None:
    dealer = console(open_page)
    cat = player(open_page, "demo3")
    speak(cat, "th")  # the notice in the player's language; the console's is English
    bet_at_studio(cat)
    deal_cards(dealer, 0, 2)
    dealer.click('.incident[data-kind="dropped_face_unseen"]')
    dealer.click("#incident-report")
    dealer.wait_for_selector("#dealer-message.ok:has-text('the card is used again')")
    assert dealer.text_content("#next") == "Next card: Player 2nd"  # nothing was dealt by the incident
    deal(dealer, TYPED[2])  # the dropped card, picked up and dealt to the position it was going to
    notice = NOTICES[Effect.USED_AGAIN]
    thai = Translations.load(str(TRANSLATIONS), ["th"]).gettext(notice)
    assert thai != notice
    cat.wait_for_selector(f"#notices li:has-text('{thai}')")
    assert cat.is_hidden("#fairness")  # R1: a live round has no deck commitment to show
    dealer.wait_for_selector(f"#notices li:has-text('{notice}')")
    shot(cat, "notice-th")
    speak(cat, "en")
    cat.goto(f"/tables/{STUDIO}")  # a reload mid-round comes back to the same round (R8)
    cat.wait_for_selector(f"#notices li:has-text('{notice}')")
    deal(dealer, TYPED[3])
    decide([cat], ["fold"])
    deal_cards(dealer, 4, 12)  # a round everybody folded is still dealt to the river (R5: the board)
    dealer.wait_for_selector("#phase:has-text('Settled')")
    settled(cat, "minus")


def test_a_misdeal_caught_before_the_next_card_is_corrected(open_page, shot) -> None:
    dealer = console(open_page)
    dan = player(open_page, "demo4")
    bet_at_studio(dan)
    deal_cards(dealer, 0, 3)  # the Player's second card went to the Dealer's spot
    dealer.click('.incident[data-kind="misdeal"]')
    dealer.locator("#incident-card").fill("Ad")
    dealer.select_option("#wrong-position", label="Dealer 1st")
    assert dealer.locator("#house-voids").count() == 0  # the house's void is the pit's (R9)
    assert dealer.locator('.incident[data-kind="other_error"]').is_disabled()
    shot(dealer, "misdeal-form")
    dealer.click("#incident-report")
    dealer.wait_for_selector("#dealer-message.ok:has-text('taken back from Dealer 1st and dealt to Player 2nd')")
    notice = NOTICES[Effect.CORRECTED]
    dan.wait_for_selector(f"#notices li:has-text('{notice}')")
    shot(dan, "corrected")
    assert dealer.text_content("#next") == "Next card: Dealer 2nd"
    deal(dealer, TYPED[3])
    decide([dan], ["flop"])
    deal_cards(dealer, 4, 8)
    decide([dan], ["check"])
    deal_cards(dealer, 8, 10)
    decide([dan], ["check"])
    deal_cards(dealer, 10, 12)
    settled(dan, "plus")
