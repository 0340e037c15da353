"""Issue 11: operators sign in apart from players (same hashing, CSRF and limit), their sessions
end after inactivity, and one guard decides every back-office route, as the route table says."""

from __future__ import annotations

import datetime as dt

import pytest
from flask import Blueprint, Flask
from sqlalchemy import select

from casino_holdem.models import AuditEntry
from casino_holdem.services import audit, demo, logins, operators
from casino_holdem.services.operators import Role
from casino_holdem.web.operator_auth import operator_required
from support.casino import OPERATOR_PASSWORD as SECRET
from support.operator_routes import ALLOWED, VISITORS, expected, operator_routes
from support.web import WebCasino


def _guarded_routes(app: Flask) -> None:
    """Routes of the shapes the back office will add: a page and an API endpoint per duty."""
    probe = Blueprint("probe", __name__)
    probe.add_url_rule("/operator/probe/paytables", "paytables", operator_required(Role.MANAGER)(lambda: "ok"))
    probe.add_url_rule("/api/operator/probe/voids", "voids", operator_required(Role.PIT)(lambda: {"ok": True}),
                       methods=["POST"])
    probe.add_url_rule("/api/operator/probe/reports", "reports",
                       operator_required(Role.AUDITOR, Role.MANAGER)(lambda: {"ok": True}))
    app.register_blueprint(probe)


@pytest.mark.parametrize("who", VISITORS)
def test_every_operator_route_admits_exactly_its_roles(app, casino: WebCasino, who: str) -> None:
    _guarded_routes(app)
    client = casino.visitor(who)
    # the back office's and the dealer's own routes are walked by tests/operator/ (with ids and bodies)
    guarded = [route for route in operator_routes(app) if route.roles is not None and not route.endpoint.startswith(
        ("operator_api.", "operator_pages.", "dealer_api.", "dealer_pages."))]
    assert {route.rule for route in guarded} >= {"/operator/", "/operator/probe/paytables",
                                                  "/api/operator/probe/voids", "/api/operator/probe/reports"}
    for route in guarded:
        for method in route.methods:
            status = client.send(method, route.rule).status_code
            want = expected(route, who)
            assert (status < 300 if want == ALLOWED else status == want), (route.rule, method, who, status)


def test_only_the_sign_in_and_out_are_public(app) -> None:
    public = {route.rule for route in operator_routes(app) if route.roles is None}
    assert public == {"/operator/login", "/operator/logout", "/api/operator/session"}


def test_anonymous_pages_go_to_the_operator_sign_in_and_come_back(casino: WebCasino) -> None:
    operators.create("pit1", SECRET, "pit")
    client = casino.client()
    response = client.get("/operator/")
    assert response.status_code == 302 and response.location.startswith("/operator/login?next=")
    client.refresh_token()
    response = client.http.post("/operator/login", data={"username": "pit1", "password": SECRET,
                                                         "csrf_token": client.token, "next": "/operator/"})
    assert response.status_code == 302 and response.location == "/operator/"
    page = client.get("/operator/").get_data(as_text=True)
    assert "pit1" in page and "pit" in page


def test_the_sign_in_needs_the_csrf_token_and_the_right_password(casino: WebCasino) -> None:
    operators.create("pit1", SECRET, "pit")
    client = casino.client()
    client.refresh_token()
    assert client.post("/api/operator/session", {"username": "pit1", "password": SECRET}, token="").status_code == 403
    response = client.post("/api/operator/session", {"username": "pit1", "password": "wrong"})
    assert response.status_code == 401 and response.get_json()["error"]["field"] == "password"
    assert client.post("/api/operator/session", {"username": "pit1"}).status_code == 400
    page = client.http.post("/operator/login", data={"username": "pit1", "password": "wrong",
                                                     "csrf_token": client.token})
    assert page.status_code == 401


def test_a_player_password_does_not_open_the_back_office(casino: WebCasino) -> None:
    casino.player("alice")
    client = casino.client()
    client.refresh_token()
    assert client.post("/api/operator/session", {"username": "alice", "password": "correct horse"}).status_code == 401


def test_the_operator_sign_in_is_rate_limited_like_the_players(casino: WebCasino, clock) -> None:
    operators.create("pit1", SECRET, "pit")
    client = casino.client()
    client.refresh_token()
    for _ in range(logins.USER_LIMIT):
        assert client.post("/api/operator/session", {"username": "pit1", "password": "guess"}).status_code == 401
    refused = client.post("/api/operator/session", {"username": "pit1", "password": SECRET})
    assert refused.status_code == 429 and 1 <= int(refused.headers["Retry-After"]) <= 300
    page = client.http.post("/operator/login", data={"username": "pit1", "password": SECRET,
                                                     "csrf_token": client.token})
    assert page.status_code == 429


def test_an_operator_session_ends_after_the_idle_limit(casino: WebCasino, clock, monkeypatch) -> None:
    monkeypatch.setenv("CASINO_OPERATOR_IDLE_SECONDS", "900")
    operators.create("pit1", SECRET, "pit")
    client = casino.operator_client("pit1")
    for _ in range(3):
        clock.tick(dt.timedelta(minutes=14))
        assert client.get("/operator/").status_code == 200
    clock.tick(dt.timedelta(minutes=15, seconds=1))
    assert client.get("/api/operator/session").get_json()["authenticated"] is False
    assert client.get("/operator/").status_code == 302


def test_signing_out_and_disabling_end_the_operator_sessions(casino: WebCasino) -> None:
    operators.create("pit1", SECRET, "pit")
    operators.create("manager1", SECRET, "manager")
    pit = casino.operator_client("pit1")
    assert pit.send("DELETE", "/api/operator/session").get_json()["authenticated"] is False
    assert pit.get("/operator/").status_code == 302
    manager = casino.operator_client("manager1")
    operators.disable("manager1")
    assert manager.get("/api/operator/session").get_json()["authenticated"] is False
    client = casino.client()
    client.refresh_token()
    assert client.post("/api/operator/session", {"username": "manager1", "password": SECRET}).status_code == 401


def test_a_new_password_ends_the_sessions_signed_in_with_the_old_one(casino: WebCasino) -> None:
    operators.create("pit1", SECRET, "pit")
    client = casino.operator_client("pit1")
    operators.set_password("pit1", "another long one")
    assert client.get("/api/operator/session").get_json()["authenticated"] is False
    casino.operator_client("pit1", password="another long one")


def test_the_demo_operators_sign_in_with_the_demo_password(casino: WebCasino) -> None:
    demo.ensure_demo_data()
    demo.ensure_demo_data()
    assert [(o.username, o.role.value) for o in operators.list_operators()] == [
        ("pit1", "pit"), ("manager1", "manager"), ("manager2", "manager"), ("auditor1", "auditor"),
        ("dealer1", "dealer")]
    for username, _ in demo.OPERATORS:
        assert casino.operator_client(username, password=demo.PASSWORD).get("/operator/").status_code == 200


def test_an_operator_action_is_audited_with_who_when_what_before_after_and_why(db, casino: WebCasino, clock) -> None:
    from casino_holdem.services.transaction import transactional

    manager = operators.create("manager1", SECRET, "manager")
    table = casino.table()
    transactional(audit.operator_action)(manager, "table_limits_changed", reason="high rollers tonight",
                                         before={"ante_max": "500"}, after={"ante_max": "1000"}, table_id=table)
    entry = db.session.scalars(select(AuditEntry).where(AuditEntry.action == "table_limits_changed")).one()
    assert entry.actor == "operator:manager1" and entry.table_id == table
    assert entry.at == dt.datetime.now(dt.UTC)
    assert entry.detail == {"operator_id": manager.id, "role": "manager", "before": {"ante_max": "500"},
                            "after": {"ante_max": "1000"}, "reason": "high rollers tonight"}
