"""The HTML pages: login (with the demo players), registration, logout, the lobby, the table, the
history and recall, with CSRF on every form and secure session cookies."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from casino_holdem.services import demo
from support.casino import PASSWORD
from support.web import WebCasino

TOKEN = re.compile(r'name="csrf-token" content="([^"]+)"')


def form_token(client) -> str:
    """The session's CSRF token, as every page carries it in its meta tag and forms."""
    return client.refresh_token()


def embedded_state(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="state">(.*?)</script>', html, re.DOTALL).group(1))


def test_pages_need_a_login_and_come_back_after_it(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client()
    for path in ("/", "/tables/1", "/history", "/history/1"):
        response = client.get(path)
        assert response.status_code == 302 and response.location.startswith("/login?next=")
    token = form_token(client)
    response = client.http.post("/login", data={"username": "alice", "password": PASSWORD, "csrf_token": token,
                                                "next": "/history"})
    assert response.status_code == 302 and response.location == "/history"


def test_login_never_redirects_off_site(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client()
    response = client.http.post("/login", data={"username": "alice", "password": PASSWORD,
                                                "csrf_token": form_token(client), "next": "//evil.example/"})
    assert response.location == "/"


def test_a_wrong_password_shows_the_form_again(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client()
    response = client.http.post("/login", data={"username": "alice", "password": "nope",
                                                "csrf_token": form_token(client)})
    assert response.status_code == 401 and "Wrong username or password" in response.get_data(as_text=True)


def test_a_form_without_the_csrf_token_is_refused(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client()
    page = client.get("/login").get_data(as_text=True)
    assert TOKEN.search(page).group(1) == form_token(client)
    assert f'name="csrf_token" value="{form_token(client)}"' in page
    response = client.http.post("/login", data={"username": "alice", "password": PASSWORD})
    assert response.status_code == 403 and "CSRF" in response.get_data(as_text=True)
    assert client.get("/").status_code == 302


def test_the_login_page_rate_limits_with_a_429_page(casino: WebCasino, clock) -> None:
    casino.player("alice")
    client = casino.client()
    token = form_token(client)
    for _ in range(5):
        client.http.post("/login", data={"username": "alice", "password": "x", "csrf_token": token})
    response = client.http.post("/login", data={"username": "alice", "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 429 and "Too many failed attempts: try again in" in response.get_data(as_text=True)


def test_demo_mode_lists_the_demo_players_and_registration_gets_demo_money(app, casino: WebCasino) -> None:
    demo.ensure_demo_data()
    client = casino.client()
    page = client.get("/login").get_data(as_text=True)
    for username, currency, _ in demo.PLAYERS:
        assert f'data-demo="{username}"' in page and f"<span>{currency}</span>" in page
    assert "bot1" not in page
    token = form_token(client)
    response = client.http.post("/login", data={"username": "demo3", "password": demo.PASSWORD, "csrf_token": token})
    assert response.status_code == 302
    client.http.post("/logout", data={"csrf_token": form_token(client)})
    response = client.http.post("/register", data={"username": "newbie", "password": "long enough",
                                                   "currency": "JPY", "csrf_token": form_token(client)})
    assert response.status_code == 302
    client.refresh_token()
    assert client.get("/api/me").get_json()["balance"]["balance"] == "1000000"  # 10,000 × JPY 100 (R6)


@pytest.mark.parametrize(("form", "status", "words"), [
    ({"username": "ab"}, 422, "A username has 3 to 32 letters, digits"),
    ({"username": "ALICE"}, 409, "That username is taken."),  # whatever its case
    ({"password": "short"}, 422, "A password needs at least 8 characters."),
    ({"currency": "XXX"}, 422, "Choose one of the currencies offered."),
])
def test_registration_errors_are_shown_on_the_form(casino: WebCasino, form: dict[str, str], status: int,
                                                   words: str) -> None:
    casino.player("alice")
    client = casino.client()
    page = client.get("/register").get_data(as_text=True)
    assert '<option value="KRW"' in page
    response = client.http.post("/register", data={"username": "newbie", "password": "long enough", "currency": "USD",
                                                   **form, "csrf_token": form_token(client)})
    html = response.get_data(as_text=True)
    assert response.status_code == status and words in html
    assert 'aria-invalid="true"' in html or "currency" in form


def test_logout_ends_the_session(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client("alice")
    assert client.get("/").status_code == 200
    assert client.http.post("/logout", data={"csrf_token": form_token(client)}).status_code == 302
    assert client.get("/").status_code == 302


def test_the_lobby_page_lists_tables_in_the_players_currency(casino: WebCasino, clock) -> None:
    table = casino.table()
    casino.advance(table)
    casino.player("yen", currency="JPY")
    html = casino.client("yen").get("/").get_data(as_text=True)
    assert f'data-table="{table}"' in html
    assert "JPY 100,000" in html  # the meter: 1,000 base units × 100 (R6)
    assert "JPY 100 – JPY 50,000" in html  # Ante limits × 100
    assert embedded_state(html)["currency"]["code"] == "JPY"


def test_the_table_page_embeds_its_state_and_every_control(casino: WebCasino, clock) -> None:
    table = casino.table()
    casino.advance(table)
    casino.player("alice")
    html = casino.client("alice").get(f"/tables/{table}").get_data(as_text=True)
    state = embedded_state(html)
    assert state["table"]["id"] == table and state["round"]["phase"] == "betting"
    for control in ('id="ante"', 'id="bonus"', 'id="progressive"', 'data-action="fold"', 'data-action="flop"',
                    'data-action="bet"', 'data-action="check"', 'role="status" aria-live="polite"'):
        assert control in html
    assert casino.client("alice").get("/tables/99").status_code == 404


def test_the_table_page_brings_a_player_who_left_back(casino: WebCasino, clock) -> None:
    """R8: the round went on without them; opening the table reconnects them to it."""
    table = casino.table()
    casino.advance(table)
    casino.player("alice")
    client = casino.client("alice")
    client.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "b"})
    clock.tick(dt.timedelta(seconds=11))
    casino.advance(table)
    client.post(f"/api/tables/{table}/leave")
    state = embedded_state(client.get(f"/tables/{table}").get_data(as_text=True))
    assert state["round"]["you"]["bet"]["connected"] is True
    assert state["round"]["you"]["bet"]["decisions"]["preflop"] == {"action": "fold", "automatic": "disconnect"}


def test_history_and_recall_pages_show_everything_to_verify(casino: WebCasino, clock) -> None:
    table = casino.table()
    casino.advance(table)
    casino.player("alice")
    client = casino.client("alice")
    client.post(f"/api/tables/{table}/bets", {"ante": "10", "bonus": "5", "request_id": "b"})
    clock.tick(dt.timedelta(seconds=11))
    casino.advance(table)
    round_id = client.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    clock.tick(dt.timedelta(seconds=10))
    casino.advance(table)  # R8: the pre-flop decision times out: automatic fold
    recall = client.get(f"/api/rounds/{round_id}").get_json()
    for html in (client.get("/history").get_data(as_text=True),
                 client.get(f"/history/{round_id}").get_data(as_text=True)):
        assert f'data-round="{round_id}"' in html
        assert "automatic · timeout" in html
        assert recall["commitment"] in html and recall["reveal"]["nonce"] in html and recall["reveal"]["deck"] in html
        assert recall["paytable"]["sha256"] in html and "standard v1" in html
        assert "USD 10.00" in html and "USD 5.00" in html
        for card in recall["cards"]["player"] + recall["cards"]["dealer"]:
            assert f'data-card="{card}"' in html


def test_history_pages_beyond_ten_rounds_link_to_each_other(casino: WebCasino, clock) -> None:
    table = casino.table()
    casino.advance(table)
    casino.player("alice")
    client = casino.client("alice")
    for number in range(11):
        client.post(f"/api/tables/{table}/bets", {"ante": "1", "request_id": f"b{number}"})
        clock.tick(dt.timedelta(seconds=11))
        casino.advance(table)
        clock.tick(dt.timedelta(seconds=10))
        casino.advance(table)
    first = client.get("/history").get_data(as_text=True)
    assert first.count('<article class="recall"') == 10 and 'rel="next"' in first and "Page 1 of 2" in first
    second = client.get("/history?page=2").get_data(as_text=True)
    assert second.count('<article class="recall"') == 1 and 'rel="prev"' in second


@pytest.mark.parametrize("testing, secure", [(True, False), (False, True)])
def test_session_cookies_are_httponly_lax_and_secure_outside_testing(app, testing: bool, secure: bool) -> None:
    from casino_holdem import create_app

    other = create_app({"SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"], "SECRET_KEY": "test",
                        "TESTING": testing})
    cookie = other.test_client().get("/api/session").headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and ("Secure" in cookie) is secure
