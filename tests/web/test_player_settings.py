"""The player's settings through the API and the pages (issue 13): the language chosen is kept
with the account, so it follows the player across logins and devices; the reality check's
interval too; the lobby and the history speak the player's language, with amounts and dates
formatted for it by Babel; the rules panel and the settings are in the OpenAPI document."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from flask_babel import force_locale

from casino_holdem.web import openapi
from casino_holdem.web.formatting import money, when
from casino_holdem.web.i18n import TRANSLATIONS
from support.web import WebCasino

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = openapi.document()


def _html(client, path: str) -> str:
    return client.get(path).get_data(as_text=True)


def test_settings_start_unchosen_and_off(casino: WebCasino) -> None:
    casino.player("alice")
    assert casino.client("alice").get("/api/me/settings").get_json() == {"language": None, "reality_check_minutes": 0}


def test_the_language_chosen_follows_the_player_to_another_device_and_login(casino: WebCasino) -> None:
    casino.player("somchai")
    phone = casino.client("somchai")
    response = phone.send("PUT", "/api/me/settings", {"language": "th"})
    assert response.status_code == 200 and response.get_json() == {"language": "th", "reality_check_minutes": 0}
    assert "lang=th" in response.headers["Set-Cookie"]
    laptop = casino.client()  # no cookie of its own: the browser prefers English
    assert '<html lang="en">' in _html(laptop, "/login")
    assert laptop.login("somchai").status_code == 200
    assert '<html lang="th">' in _html(laptop, "/")
    assert laptop.send("DELETE", "/api/session").status_code == 200
    assert laptop.login("somchai").status_code == 200 and '<html lang="th">' in _html(laptop, "/history")


def test_the_language_menu_keeps_the_choice_with_the_account(casino: WebCasino) -> None:
    casino.player("li")
    client = casino.client("li")
    response = client.http.post("/language", data={"language": "zh", "next": "/", "csrf_token": client.refresh_token()})
    assert response.status_code == 302
    assert client.get("/api/me/settings").get_json()["language"] == "zh"
    assert '<html lang="zh">' in _html(casino.client("li"), "/")


def test_the_reality_check_interval_is_kept_and_shown_chosen(casino: WebCasino, clock) -> None:
    table = casino.table()
    casino.advance(table)
    casino.player("mali")
    client = casino.client("mali")
    assert client.send("PUT", "/api/me/settings", {"reality_check_minutes": 30}).get_json() == {
        "language": None, "reality_check_minutes": 30}
    html = _html(casino.client("mali"), f"/tables/{table}")
    assert re.search(r'<option value="30" selected>', html) and not re.search(r'<option value="0" selected>', html)


@pytest.mark.parametrize(("body", "field"), [
    ({"language": "fr"}, "language"), ({"language": ["th"]}, "language"),
    *(({"reality_check_minutes": minutes}, "reality_check_minutes") for minutes in (45, 1.5, "15", False, -15)),
    ({"language": "th", "reality_check_minutes": 7}, "reality_check_minutes"), ([], None),  # not an object
])
def test_bad_settings_are_400_naming_the_field_and_change_nothing(casino: WebCasino, body, field: str | None) -> None:
    casino.player("alice")
    client = casino.client("alice")
    response = client.send("PUT", "/api/me/settings", body)
    assert response.status_code == 400 and response.get_json()["error"]["field"] == field
    assert client.get("/api/me/settings").get_json() == {"language": None, "reality_check_minutes": 0}


def test_settings_need_a_session_and_the_csrf_token(casino: WebCasino) -> None:
    casino.player("alice")
    assert casino.client().get("/api/me/settings").status_code == 401
    client = casino.client("alice")
    assert client.send("PUT", "/api/me/settings", {"language": "th"}, token="wrong").status_code == 403
    assert client.get("/api/me/settings").get_json()["language"] is None


@pytest.mark.parametrize("language", ["en", "th", "zh"])
def test_amounts_and_times_are_formatted_for_the_locale_exactly(app, language: str) -> None:
    moment = dt.datetime(2026, 12, 3, 9, 5, tzinfo=dt.UTC)
    with app.test_request_context(), force_locale(language):
        assert money("1234567.5", "USD") == f"USD {format_decimal(Decimal('1234567.50'), '#,##0.00', locale=language)}"
        assert money("1234567.5", "USD") == "USD 1,234,567.50"  # the three locales group alike
        assert money("-0.5", "USD") == "USD -0.50"
        assert money("12345678901234.12345678", "USD") == "USD 12,345,678,901,234.12345678"  # never a float
        assert money("400000", "JPY") == "JPY 400,000"
        assert when(moment.isoformat()) == {"en": "Dec 3, 2026, 9:05:00\u202fAM", "th": "3 ธ.ค. 2026 09:05:00",
                                            "zh": "2026年12月3日 09:05:00"}[language]


@pytest.mark.parametrize(("language", "lobby", "history"), [
    ("th", ("โต๊ะ", "เล่นที่", "ผู้เดิมพัน"), ("รอบของคุณ", "ตรวจสอบรอบนี้", "ธ.ค.", "ไพ่ของผู้เล่น")),
    ("zh", ("桌台", "投注人数"), ("您的牌局", "验证本局", "年12月", "玩家的牌")),
])
def test_the_lobby_and_history_in_the_players_language(casino: WebCasino, clock, language: str, lobby, history) -> None:
    table = casino.table()
    casino.advance(table)
    casino.player("somchai")
    client = casino.client("somchai")
    casino.folded_round(client, table, clock)
    client.send("PUT", "/api/me/settings", {"language": language})
    assert all(word in _html(client, "/") for word in lobby)
    page = _html(client, "/history")
    assert all(word in page for word in history), [word for word in history if word not in page]
    assert "Your rounds" not in page and "Verify this round" not in page


def _extracted() -> set[str]:
    """Every message id the pages, their scripts and the web layer use (babel.cfg's extraction)."""
    methods = [("casino_holdem/web/**.py", "python"), ("templates/**.html", "jinja2"),
               ("casino_holdem/static/**.js", "javascript")]
    return {message[2] if isinstance(message[2], str) else message[2][0]
            for message in extract_from_dir(str(ROOT), methods, keywords={"_": None, "gettext": None, "t": None,
                                                                          "ngettext": (1, 2)})}


@pytest.mark.parametrize("language", ["th", "zh"])
def test_every_message_of_the_pages_is_translated(language: str) -> None:
    """The rules panel, the table, the lobby and the history: nothing left in English."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalogue = read_po(source)
    missing = sorted(word for word in _extracted() if not (catalogue.get(word) and catalogue.get(word).string))
    assert missing == []


def test_the_rules_panel_the_last_wins_and_the_settings_are_documented(casino: WebCasino, clock) -> None:
    schemas = DOCUMENT["components"]["schemas"]
    table = casino.table()
    casino.advance(table)
    casino.player("alice")
    state = casino.client("alice").get(f"/api/tables/{table}").get_json()
    assert set(state) == set(schemas["TableState"]["properties"])
    assert set(state["rules"]) == set(schemas["Rules"]["properties"])
    assert state["jackpot_wins"] == [] and set(schemas["JackpotWin"]["properties"]) == {
        "round_id", "prize", "hand", "street", "amount", "share_of", "table", "at"}
    assert set(DOCUMENT["paths"]["/api/me/settings"]) == {"get", "put"}
    assert schemas["SettingsRequest"]["properties"]["language"]["enum"] == ["en", "th", "zh"]
