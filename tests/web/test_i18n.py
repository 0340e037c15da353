"""Languages (issue 13): English, Thai and Simplified Chinese through Flask-Babel catalogues, chosen
by the player and remembered in a cookie; the pages' scripts fetch the same catalogue; every precise
hand name (R7) and rank name is translated."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from casino_holdem.core.hand_names import HOLE_PAIR, RANK_NAMES, TEMPLATES
from casino_holdem.web.i18n import LANGUAGES, TRANSLATIONS, compile_catalogues
from support.web import WebCasino

MESSAGES = re.compile(r'<meta name="messages" content="([^"]+)">')


def choose(client, language: str, back: str = "/tables/1") -> None:
    response = client.http.post("/language", data={"language": language, "next": back,
                                                   "csrf_token": client.refresh_token()})
    assert response.status_code == 302 and response.location == back


@pytest.mark.parametrize(("language", "words"), [("th", ("ล็อบบี้", "วางเดิมพัน", "เจ้ามือ")),
                                                 ("zh", ("大厅", "下注", "庄家")),
                                                 ("en", ("Lobby", "Place bets", "Dealer"))])
def test_the_table_page_in_the_players_language(casino: WebCasino, language: str, words: tuple[str, ...]) -> None:
    casino.player("somchai")
    table = casino.table()
    client = casino.client("somchai")
    choose(client, language, f"/tables/{table}")
    html = client.get(f"/tables/{table}").get_data(as_text=True)
    assert f'<html lang="{language}">' in html
    assert all(word in html for word in words)
    catalogue = client.get(MESSAGES.search(html).group(1))  # the scripts' catalogue, one URL per language
    messages = catalogue.get_json()
    assert (messages == {}) == (language == "en") and catalogue.cache_control.max_age == 3600


#: what the login and register pages say in English: none of it may be left on a translated page
ENGLISH_ON_THE_DOOR = ("Log in", "Username", "Password", "Create an account", "Have an account?", "New here?",
                       "Account currency", "Wrong username or password.", "That username is taken.")


@pytest.mark.parametrize(("language", "words"), [("th", ("เข้าสู่ระบบ", "ชื่อผู้ใช้", "ชื่อผู้ใช้นี้มีผู้ใช้แล้ว")),
                                                 ("zh", ("登录", "用户名", "该用户名已被占用。"))])
def test_the_login_and_register_pages_in_the_browsers_language(casino: WebCasino, language: str,
                                                               words: tuple[str, ...]) -> None:
    """A visitor who is not logged in yet reads the door in their browser's language (issue 13)."""
    casino.player("somchai")
    client = casino.client()
    token = client.refresh_token()
    asked = {"Accept-Language": language}
    wrong = client.http.post("/login", data={"username": "somchai", "password": "nope", "csrf_token": token},
                             headers=asked)
    taken = client.http.post("/register", data={"username": "somchai", "password": "long enough",
                                                "currency": "USD", "csrf_token": token}, headers=asked)
    assert (wrong.status_code, taken.status_code) == (401, 409)
    html = wrong.get_data(as_text=True) + taken.get_data(as_text=True)
    assert f'<html lang="{language}">' in html and all(word in html for word in words)
    assert [text for text in ENGLISH_ON_THE_DOOR if text in html] == []


def test_the_scripts_catalogue_of_an_unknown_language_is_404(casino: WebCasino) -> None:
    assert casino.client().get("/i18n/xx.json").status_code == 404


def test_an_unknown_language_keeps_the_choice_and_never_redirects_off_site(casino: WebCasino) -> None:
    casino.player("li")
    client = casino.client("li")
    choose(client, "zh", "/")
    response = client.http.post("/language", data={"language": "xx", "next": "//evil.example/",
                                                   "csrf_token": client.refresh_token()})
    assert response.location == "/"
    assert '<html lang="zh">' in client.get("/").get_data(as_text=True)


def test_the_browsers_language_without_a_choice(casino: WebCasino) -> None:
    casino.player("mali")
    client = casino.client("mali")
    html = client.get("/", headers={"Accept-Language": "th-TH,th;q=0.9,en;q=0.5"}).get_data(as_text=True)
    assert '<html lang="th">' in html


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_r7_every_hand_name_and_rank_is_translated(language: str) -> None:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        catalogue = read_po(source)
    wanted = [*TEMPLATES.values(), HOLE_PAIR, *(word for pair in RANK_NAMES for word in pair)]
    assert [word for word in wanted if not (catalogue.get(word) and catalogue.get(word).string)] == []
    for template in TEMPLATES.values():  # the translation fills in the same arguments
        assert re.findall(r"%\((\w+)\)s", catalogue.get(template).string) != [] or "%(" not in template


def test_a_fresh_checkout_compiles_its_catalogues(tmp_path: Path) -> None:
    shutil.copytree(TRANSLATIONS, tmp_path / "translations", ignore=shutil.ignore_patterns("*.mo"))
    written = compile_catalogues(tmp_path / "translations")
    assert sorted(path.parent.parent.name for path in written) == ["th", "zh"]
    assert compile_catalogues(tmp_path / "translations") == []
