"""Small things the players' pages say and show: the results strip's colours for every R3 outcome
and R9 void, the footer's sentence on how a table deals its cards (R1), the R9 notices and a
suspended table in the player's language, and the account page where a player changes their
password."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from test_i18n import MESSAGES
from test_pages import embedded_state

from casino_holdem.core.incidents import NOTICES, Effect
from casino_holdem.core.settlement import Result
from casino_holdem.models import Player
from casino_holdem.services import accounts, logins, tables
from casino_holdem.web.i18n import TRANSLATIONS
from support.app import quick_password_hashes
from support.casino import PASSWORD, RiggedCasino
from support.live import LiveRound
from support.web import WebCasino

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "casino_holdem" / "static"


def test_r3_every_result_of_the_strip_has_its_colour() -> None:
    """The strip's entries are classed ``result-<the round's result>`` (``result-void`` for a void
    round, R9) and app.css colours each of them: a winner's, a loser's, a push's and a void's."""
    script = (STATIC / "table_panels.js").read_text(encoding="utf-8")
    assert 'element("li", `result-${r.void ? "void" : r.result}`)' in script
    styled = set(re.findall(r"\.strip \.result-(\w+)", (STATIC / "app.css").read_text(encoding="utf-8")))
    assert styled == {result.value for result in Result}
    words = (STATIC / "table_view.js").read_text(encoding="utf-8")
    assert all(f"{result.value}: " in words for result in Result)  # each result named in words, not a slug


@pytest.mark.parametrize("language", ["th", "zh"])
def test_r9_every_incident_notice_is_in_the_catalogues(language: str) -> None:
    """The notices are recorded in English (core.incidents.NOTICES) and translated where they are
    shown (the table page's script, through /i18n/<lang>.json): each one is in every catalogue."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalogue = read_po(source)
    assert [text for text in NOTICES.values() if not (catalogue.get(text) and catalogue.get(text).string)] == []


def test_r9_a_thai_player_reads_the_notice_of_their_round_in_thai(app, db, monkeypatch: pytest.MonkeyPatch) -> None:
    quick_password_hashes(monkeypatch)
    live = LiveRound(RiggedCasino(monkeypatch))
    live.deal_to(2)
    notice = live.report("dropped_face_unseen", card="Ad")["notice"]
    client = WebCasino(app).client(db.session.get(Player, live.alice).username)
    assert client.send("PUT", "/api/me/settings", {"language": "th"}).status_code == 200
    html = client.get(f"/tables/{live.table}").get_data(as_text=True)
    assert embedded_state(html)["round"]["notices"] == [notice] == [NOTICES[Effect.USED_AGAIN]]
    messages = client.get(MESSAGES.search(html).group(1)).get_json()  # the catalogue the page's script reads
    assert messages[notice] == "มีไพ่หล่นและนำกลับมาใช้ต่อ รอบนี้ดำเนินต่อไป"


DECK_SENTENCE = "every deck is committed before the deal and revealed after it"
LIVE_SENTENCE = "cards are dealt by a live dealer and every card is recorded"
NEUTRAL_SENTENCE = "each table's page says how its cards are dealt"


def footer(html: str) -> str:
    return re.search(r'<span id="dealing">(.*?)</span>', html, re.DOTALL).group(1).strip()


def test_r1_the_footer_says_how_this_table_deals_and_stays_neutral_elsewhere(casino: WebCasino, clock) -> None:
    """A table dealt by the server's shuffle commits to its deck; a live table's cards come from a
    dealer's shoe, entered one by one: no deck is committed there, and the footer says so."""
    shuffled, live, unopened = casino.table(), casino.table(dealing="live"), casino.table()
    for table in (shuffled, live):
        casino.advance(table)
    casino.player("somchai")
    client = casino.client("somchai")
    shuffled_page, live_page = (client.get(f"/tables/{table}").get_data(as_text=True) for table in (shuffled, live))
    assert footer(shuffled_page) == DECK_SENTENCE and '<p class="fairness wide" id="fairness">' in shuffled_page
    assert footer(live_page) == LIVE_SENTENCE and '<p class="fairness wide" id="fairness" hidden>' in live_page
    assert footer(client.get(f"/tables/{unopened}").get_data(as_text=True)) == NEUTRAL_SENTENCE  # no round yet
    for html in (client.get("/").get_data(as_text=True), client.get("/history").get_data(as_text=True),
                 casino.client().get("/login").get_data(as_text=True)):
        assert footer(html) == NEUTRAL_SENTENCE and DECK_SENTENCE not in html
    client.send("PUT", "/api/me/settings", {"language": "th"})
    assert footer(client.get(f"/tables/{live}").get_data(as_text=True)) == "ไพ่แจกโดยเจ้ามือตัวจริง และทุกใบถูกบันทึกไว้"
    assert footer(client.get("/").get_data(as_text=True)) == "หน้าของแต่ละโต๊ะบอกว่าแจกไพ่อย่างไร"


#: a suspended table's payload (lobby and table page alike) says so (issue 11)
SUSPENDED_FIELD = "suspended"


def lobby_phases(html: str) -> dict[int, str]:
    phase = r'<span class="phase[^"]*" data-field="phase">[^<]*</span>'
    rows = re.findall(rf'data-table="(\d+)".*?({phase})', html, re.DOTALL)
    return {int(table): span for table, span in rows}


def test_a_suspended_table_says_so_in_the_lobby_and_on_its_page(casino: WebCasino, clock) -> None:
    suspended, running = casino.table(), casino.table()
    for table in (suspended, running):
        casino.advance(table)
    tables.suspend_table(suspended, "a card seen during the shuffle", casino.operator("pit1", "pit"))
    casino.player("somchai")
    client = casino.client("somchai")
    phases = lobby_phases(client.get("/").get_data(as_text=True))
    assert phases[suspended] == '<span class="phase suspended" data-field="phase">Suspended</span>'
    assert phases[running] == '<span class="phase" data-field="phase">Betting</span>'
    page = client.get(f"/tables/{suspended}").get_data(as_text=True)
    assert embedded_state(page)["table"]["suspended"] is True
    assert '<span class="phase suspended" id="suspended">Suspended</span>' in page
    other = client.get(f"/tables/{running}").get_data(as_text=True)
    assert '<span class="phase suspended" id="suspended" hidden>' in other
    client.send("PUT", "/api/me/settings", {"language": "th"})
    assert lobby_phases(client.get("/").get_data(as_text=True))[suspended].endswith(">ระงับชั่วคราว</span>")
    assert '<span class="phase suspended" id="suspended">ระงับชั่วคราว</span>' in \
        client.get(f"/tables/{suspended}").get_data(as_text=True)


def test_the_table_payload_says_whether_the_table_is_suspended(casino: WebCasino, clock) -> None:
    table = casino.table()
    casino.advance(table)
    tables.suspend_table(table, "a card seen during the shuffle", casino.operator("pit1", "pit"))
    casino.player("somchai")
    client = casino.client("somchai")
    assert client.get(f"/api/tables/{table}").get_json()["table"].get(SUSPENDED_FIELD) is True
    assert embedded_state(client.get("/").get_data(as_text=True))["tables"][0].get(SUSPENDED_FIELD) is True


def change_password(client, current: str, new: str, again: str | None = None, *, token: str | None = None):
    return client.http.post("/account/password", data={
        "current_password": current, "password": new, "password_again": new if again is None else again,
        "csrf_token": client.refresh_token() if token is None else token})


def test_a_player_changes_their_password_on_the_account_page(casino: WebCasino) -> None:
    casino.player("somchai")
    anonymous = casino.client()
    assert anonymous.get("/account").location == "/login?next=/account"
    here, elsewhere = casino.client("somchai"), casino.client("somchai")
    page = here.get("/").get_data(as_text=True)
    assert '<a href="/account">Account</a>' in page
    assert 'id="password-form"' in here.get("/account").get_data(as_text=True)
    assert change_password(here, PASSWORD, "new secret", token="forged").status_code == 403  # CSRF as every form
    refusals = [
        (change_password(here, "not it", "new secret"), 401, "current_password", "Your current password is not right."),
        (change_password(here, PASSWORD, "short"), 422, "password", "The new password needs at least 8 characters."),
        (change_password(here, PASSWORD, "new secret", "new secreT"), 422, "password_again",
         "The new password and its repetition differ.")]
    for response, status, field, words in refusals:
        html = response.get_data(as_text=True)
        assert response.status_code == status and words in html
        assert re.search(rf'name="{field}"[^>]*aria-invalid="true"', html)
    assert casino.client().login("somchai").status_code == 200  # nothing changed yet
    done = change_password(here, PASSWORD, "new secret")
    assert done.status_code == 302 and done.location == "/account?changed=password"
    assert "Every other device you were logged in on is logged out." in here.get(done.location).get_data(as_text=True)
    assert here.get("/api/me").status_code == 200  # this browser goes on with a fresh session
    assert elsewhere.get("/api/me").status_code == 401 and elsewhere.get("/").status_code == 302
    assert casino.client().login("somchai").status_code == 401
    assert casino.client().login("somchai", "new secret").status_code == 200


def test_the_account_page_stops_guesses_of_the_current_password_at_the_login_limit(casino: WebCasino) -> None:
    casino.player("somchai")
    here = casino.client("somchai")
    for number in range(logins.USER_LIMIT):
        assert change_password(here, f"guess{number}", "new secret").status_code == 401
    refused = change_password(here, PASSWORD, "new secret")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "Too many wrong passwords: try again in a few minutes." in refused.get_data(as_text=True)
    assert accounts.login("somchai", PASSWORD, "10.0.0.2") is not None  # nothing changed (another address)


def test_the_account_page_in_thai(casino: WebCasino) -> None:
    casino.player("somchai")
    client = casino.client("somchai")
    client.send("PUT", "/api/me/settings", {"language": "th"})
    html = client.get("/account").get_data(as_text=True)
    assert all(words in html for words in ("บัญชีของคุณ", "รหัสผ่านปัจจุบัน", "เปลี่ยนรหัสผ่าน", "อย่างน้อย 8 ตัวอักษร"))
    assert "Change password" not in html
