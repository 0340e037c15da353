"""Issue 10: sessions live on the server. The cookie carries only a token; logging out or a
password change ends every copy of it; sessions end after their idle limit."""

from __future__ import annotations

import datetime as dt

import pytest

from casino_holdem.services import accounts, logins, sessions
from support.casino import PASSWORD
from support.web import Client, WebCasino


def _cookie(client: Client) -> str:
    cookie = client.http.get_cookie("session")
    assert cookie is not None
    return cookie.value


def _copy_of(casino: WebCasino, client: Client) -> Client:
    """A second browser holding a copy of ``client``'s cookie (a stolen cookie)."""
    thief = casino.client()
    thief.http.set_cookie("session", _cookie(client))
    return thief


def test_the_cookie_carries_only_the_session_token_and_the_csrf_token(app, casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client("alice")
    content = app.session_interface.get_signing_serializer(app).loads(_cookie(client))
    assert set(content) - {"_permanent"} == {"session_token", "csrf_token"}


def test_logging_out_ends_every_copy_of_the_cookie(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client("alice")
    thief = _copy_of(casino, client)
    assert thief.get("/api/me").status_code == 200
    assert client.send("DELETE", "/api/session").status_code == 200
    assert thief.get("/api/me").status_code == 401


def test_a_password_change_ends_every_session_of_the_player(casino: WebCasino) -> None:
    alice = casino.player("alice")
    phone, laptop = casino.client("alice"), casino.client("alice")
    accounts.change_password(alice, PASSWORD, "a brand new one", "10.0.0.1")
    assert phone.get("/api/me").status_code == 401 and laptop.get("/api/me").status_code == 401
    assert casino.client().login("alice", "a brand new one").status_code == 200


def test_a_password_change_through_the_api_keeps_this_browser_and_ends_the_others(casino: WebCasino) -> None:
    casino.player("alice")
    phone, laptop = casino.client("alice"), casino.client("alice")
    changed = phone.post("/api/me/password", {"current_password": PASSWORD, "password": "a brand new one"})
    assert changed.status_code == 200 and changed.get_json()["authenticated"] is True
    phone.token = changed.get_json()["csrf_token"]
    assert phone.get("/api/me").status_code == 200 and laptop.get("/api/me").status_code == 401
    assert casino.client().login("alice", PASSWORD).status_code == 401


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"current_password": "not it", "password": "a brand new one"}, 401, "current_password"),
    ({"current_password": PASSWORD, "password": "short"}, 422, "password"),
    ({"password": "a brand new one"}, 400, "current_password"),
])
def test_a_refused_password_change_changes_nothing(casino: WebCasino, body: dict[str, str], status: int,
                                                   field: str) -> None:
    casino.player("alice")
    client = casino.client("alice")
    refused = client.post("/api/me/password", body)
    assert (refused.status_code, refused.get_json()["error"]["field"]) == (status, field)
    assert client.get("/api/me").status_code == 200
    assert casino.client().login("alice", PASSWORD).status_code == 200


def test_guessing_the_current_password_through_a_session_is_stopped_at_the_login_limit(casino: WebCasino) -> None:
    """A stolen cookie cannot guess the password behind it (issue 10): 429 with Retry-After."""
    casino.player("alice")
    client = casino.client("alice")
    for number in range(logins.USER_LIMIT):
        wrong = client.post("/api/me/password", {"current_password": f"guess{number}", "password": "a brand new one"})
        assert wrong.status_code == 401
    refused = client.post("/api/me/password", {"current_password": PASSWORD, "password": "a brand new one"})
    assert refused.status_code == 429 and refused.get_json()["error"]["field"] == "current_password"
    assert int(refused.headers["Retry-After"]) > 0
    assert client.get("/api/me").status_code == 200


def test_a_player_session_ends_after_twelve_idle_hours_and_lives_while_used(casino: WebCasino, clock) -> None:
    casino.player("alice")
    client = casino.client("alice")
    for _ in range(3):
        clock.tick(dt.timedelta(hours=11))
        assert client.get("/api/me").status_code == 200
    clock.tick(sessions.PLAYER_IDLE + dt.timedelta(seconds=1))
    assert client.get("/api/me").status_code == 401


def test_an_unknown_or_forged_token_is_no_session(app, casino: WebCasino) -> None:
    client = casino.client()
    forged = app.session_interface.get_signing_serializer(app).dumps({"session_token": "guessed", "csrf_token": "x"})
    client.http.set_cookie("session", forged)
    assert client.get("/api/me").status_code == 401


@pytest.mark.parametrize("path", ["/api/me", "/api/tables"])
def test_an_operator_session_never_reaches_a_player_route(casino: WebCasino, path: str) -> None:
    from casino_holdem.services import operators

    operators.create("pit1", "a long password", "pit")
    client = casino.client()
    client.refresh_token()
    assert client.post("/api/operator/session", {"username": "pit1", "password": "a long password"}).status_code == 200
    assert client.get(path).status_code == 403
