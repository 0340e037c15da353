"""Hostile input found in review: each is a clear 4xx (or a safe default), never a 500, and never
an open redirect or a flood of the audit log."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from casino_holdem import settings
from casino_holdem.models import AuditEntry
from support.casino import PASSWORD
from support.web import WebCasino


@pytest.mark.parametrize("target", ["/\t/evil.com", "/\n/evil.com", "/\\evil.com", "//evil.com", "https://evil.com"])
def test_login_next_with_control_characters_stays_on_site(casino: WebCasino, target: str) -> None:
    casino.player("alice")
    client = casino.client("alice")
    response = client.get("/login", query_string={"next": target})
    assert response.status_code == 302 and response.location == "/"
    token = client.refresh_token()
    response = client.http.post("/login", data={"username": "alice", "password": PASSWORD, "csrf_token": token,
                                                "next": target})
    assert response.status_code == 302 and response.location == "/"


def test_a_non_ascii_csrf_token_is_a_403_not_a_500(casino: WebCasino) -> None:
    client = casino.client()
    client.refresh_token()
    response = client.post("/api/session", {"username": "x", "password": "y"}, token="é")
    assert response.status_code == 403 and response.get_json()["error"]["code"]


@pytest.mark.parametrize("page", ["²", "0", "-1", "1" * 5000, str(2**63), "abc"])
def test_odd_page_numbers_are_a_400(casino: WebCasino, page: str) -> None:
    casino.player("alice")
    client = casino.client("alice")
    assert client.get("/api/history", query_string={"page": page}).status_code == 400
    assert client.get("/history", query_string={"page": page}).status_code == 400


def test_overlong_usernames_are_not_recorded_as_failed_logins(casino: WebCasino, db) -> None:
    client = casino.client()
    client.refresh_token()
    response = client.post("/api/session", {"username": "x" * 200, "password": "y"})
    assert response.status_code in (400, 401)
    response = client.http.post("/login", data={"username": "x" * 100_000, "password": "y",
                                                "csrf_token": client.token})
    assert response.status_code == 401
    count = db.session.scalar(select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "login_failed"))
    assert count == 0


def test_joining_an_unknown_table_is_a_404(casino: WebCasino) -> None:
    casino.player("alice")
    assert casino.client("alice").post("/api/tables/999/join").status_code == 404


# --- issue 10: ids, NUL bytes, JSON shape and size (schemathesis found 500s) ---------------------

API_ID_PATHS = ["/api/tables/{id}", "/api/rounds/{id}"]
PAGE_ID_PATHS = ["/tables/{id}", "/history/{id}"]
BAD_IDS = [str(2**31), str(2**63), "9" * 5000, "0", "-1", "٣", "1.5"]


@pytest.mark.parametrize("path", API_ID_PATHS + PAGE_ID_PATHS + ["/events/tables/{id}"])
@pytest.mark.parametrize("bad_id", BAD_IDS)
def test_ids_outside_1_to_2_31_are_a_404(casino: WebCasino, path: str, bad_id: str) -> None:
    casino.player("alice")
    response = casino.client("alice").get(path.format(id=bad_id))
    assert response.status_code == 404
    if path.startswith(("/api/", "/events/")):
        assert response.get_json()["error"]["code"] == "not_found"
    else:
        assert response.mimetype == "text/html"


@pytest.mark.parametrize("path", ["/api/tables/{id}/bets", "/api/tables/{id}/join", "/api/rounds/{id}/decisions"])
def test_the_largest_id_is_an_unknown_one_not_an_overflow(casino: WebCasino, path: str) -> None:
    casino.player("alice")
    client = casino.client("alice")
    response = client.post(path.format(id=2**31 - 1), {"ante": "10", "action": "fold", "request_id": "r"})
    assert response.status_code == 404 and response.get_json()["error"]["message"] != "Not Found"
    assert client.post(path.format(id=2**31), {"ante": "10", "request_id": "r"}).status_code == 404


@pytest.mark.parametrize("body", [{"ante": "10\x00", "request_id": "r"}, {"ante": "10", "request_id": "r\x00"},
                                  {"ante": "10", "request_id": "r", "extra\x00": 1},
                                  {"ante": "10", "request_id": "\ud800"}])
def test_nul_bytes_and_lone_surrogates_in_json_are_a_400(casino: WebCasino, body: dict[str, object]) -> None:
    casino.player("alice")
    table = casino.table()
    casino.advance(table)
    response = casino.client("alice").post(f"/api/tables/{table}/bets", body)
    assert response.status_code == 400 and response.get_json()["error"]["field"] is None


def test_nul_bytes_in_a_query_are_a_400_naming_the_parameter(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client("alice")
    response = client.get("/api/history?page=1%00")
    assert response.status_code == 400 and response.get_json()["error"]["field"] == "page"
    assert client.get("/login?next=/%00").status_code == 400


def test_nul_bytes_in_a_form_are_a_400_page(casino: WebCasino) -> None:
    client = casino.client()
    token = client.refresh_token()
    response = client.http.post("/login", data={"username": "al\x00ice", "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 400 and response.mimetype == "text/html"


@pytest.mark.parametrize("raw", ["[" * 17 + "]" * 17, '{"a":' * 17 + "1" + "}" * 17, "[" * 100_000 + "]" * 100_000,
                                 "{", '{"ante": "10",}', "\x00"])
def test_deep_or_broken_json_is_a_400(casino: WebCasino, raw: str) -> None:
    casino.player("alice")
    client = casino.client("alice")
    response = client.http.post("/api/session", data=raw, content_type="application/json",
                                headers={"X-CSRF-Token": client.token})
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "bad_request"


def test_json_sixteen_levels_deep_is_read(casino: WebCasino) -> None:
    client = casino.client()
    client.refresh_token()
    nested = "[" * 15 + "]" * 15
    response = client.http.post("/api/session", data='{"username": "x", "password": "y", "n": ' + nested + "}",
                                content_type="application/json", headers={"X-CSRF-Token": client.token})
    assert response.status_code == 401


@pytest.mark.parametrize("body", [[1, 2], "text", 7, None, True])
@pytest.mark.parametrize("path", ["/api/session", "/api/players", "/api/tables/1/join", "/api/tables/1/bets"])
def test_api_json_bodies_that_are_not_objects_are_a_400(casino: WebCasino, path: str, body: object) -> None:
    casino.player("alice")
    client = casino.client("alice")
    response = client.http.post(path, data=json.dumps(body), content_type="application/json",
                                headers={"X-CSRF-Token": client.token})
    assert response.status_code == 400
    assert response.get_json()["error"] == {"code": "bad_request", "message": "body: a JSON object is required",
                                            "field": None}


def test_a_body_over_the_size_limit_is_a_413(casino: WebCasino) -> None:
    client = casino.client()
    client.refresh_token()
    limit = casino.app.config["MAX_CONTENT_LENGTH"]
    assert limit == settings.value("CASINO_MAX_CONTENT_LENGTH")
    response = client.post("/api/session", {"username": "x" * limit, "password": "y"})
    assert response.status_code == 413 and response.get_json()["error"]["code"] == "payload_too_large"


@pytest.mark.parametrize("raw, message", [("1023", "'1023' is below 1024 bytes"),
                                          ("1k", "'1k' is not a whole number of bytes")])
def test_the_request_size_limit_is_a_whole_number_of_bytes(monkeypatch: pytest.MonkeyPatch, raw: str,
                                                             message: str) -> None:
    monkeypatch.setenv("CASINO_MAX_CONTENT_LENGTH", raw)
    with pytest.raises(settings.InvalidSetting, match=f"^CASINO_MAX_CONTENT_LENGTH: {message}$"):
        settings.value("CASINO_MAX_CONTENT_LENGTH")
