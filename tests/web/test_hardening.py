"""Hostile input found in review: each is a clear 4xx (or a safe default), never a 500, and never
an open redirect or a flood of the audit log."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

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
