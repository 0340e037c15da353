"""The back office over HTTP: an authorization matrix generated from the route table (every
operator route × anonymous, player, pit, manager, auditor, dealer), and the JSON API's flows with
the players' error shape."""

from __future__ import annotations

import pytest

from casino_holdem.services import verify
from support.casino import T0
from support.operator_routes import VISITORS, check_admissions, sign_in, visitor
from support.web import WebCasino


@pytest.mark.parametrize("who", VISITORS)
def test_every_back_office_route_admits_exactly_its_roles(app, web, who) -> None:
    """Generated from the route table: a refused visitor gets 401 (API) or the sign-in page,
    or 403; an allowed one is never refused by the guard (it may still be a 404 or a 400)."""
    assert check_admissions(app, visitor(web, who), who, ("operator_api.", "operator_pages.")) >= 30


def test_four_eyes_paytable_approval_and_assignment_over_the_api(web, variant) -> None:
    table = web.table()
    ann, ben = sign_in(web, "ann", "manager"), sign_in(web, "ben", "manager")
    bad = ann.post("/api/operator/paytables", {"content": variant(2).decode().replace("ante = 1\n", "ante = -1\n")})
    assert bad.status_code == 422 and "main.ante" in bad.get_json()["error"]["problems"]
    draft = ann.post("/api/operator/paytables", {"content": variant(2, aa=40).decode()}).get_json()
    own = ann.post(f"/api/operator/paytables/{draft['id']}/approve")
    assert own.status_code == 409 and own.get_json()["error"]["field"] == "approved_by"
    assert ben.post(f"/api/operator/paytables/{draft['id']}/approve").get_json()["status"] == "approved"
    assigned = ben.post(f"/api/operator/tables/{table}/paytable", {"version_id": draft["id"], "reason": "A-A 40"})
    assert assigned.status_code == 202 and assigned.get_json()["settings"]["paytable_version"] == 2
    assert ann.get(f"/api/operator/tables/{table}/changes").get_json()["changes"][0]["settings"][
        "paytable_version"] == 2
    assert verify.audit_ledger() == []


def test_a_pit_boss_voids_only_at_the_right_stage_and_the_auditor_sees_it(web) -> None:
    table = web.table()
    web.player("punter")
    punter = web.client("punter")
    web.advance(table)
    round_id = punter.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    assert punter.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "r1"}).status_code == 201
    pit = sign_in(web, "pit1", "pit")
    early = pit.post(f"/api/operator/rounds/{round_id}/void", {"reason": "dropped_card_seen"})
    assert early.status_code == 422 and early.get_json()["error"]["field"] == "reason"
    done = pit.post(f"/api/operator/rounds/{round_id}/void", {"reason": "card_exposed_during_betting"})
    assert done.status_code == 200 and done.get_json()["result"]["void"]["reason"] == "card_exposed_during_betting"
    seen = punter.get(f"/api/rounds/{round_id}").get_json()
    assert seen["result"]["void"] == {"reason": "card_exposed_during_betting", "stage": "betting"}
    auditor = sign_in(web, "audrey", "auditor")
    entries = auditor.get(f"/api/operator/audit?round_id={round_id}&action=round_void").get_json()["entries"]
    assert [entry["actor"] for entry in entries] == ["operator:pit1"]
    assert auditor.get(f"/api/operator/audit?format=csv&round_id={round_id}").data.startswith(b"id,at,actor")
    assert verify.audit_ledger() == []


def test_a_jackpot_correction_needs_a_second_manager_over_the_api(web) -> None:
    table = web.table(seed="500")
    pool = _pool_of(web, table)
    ann, ben = sign_in(web, "ann", "manager"), sign_in(web, "ben", "manager")
    asked = ann.post(f"/api/operator/pools/{pool}/corrections", {"amount": "-20", "reason": "meter"}).get_json()
    assert ann.post(f"/api/operator/corrections/{asked['id']}/approve").status_code == 409
    assert ben.post(f"/api/operator/corrections/{asked['id']}/approve").get_json()["status"] == "approved"
    check = ann.get(f"/api/operator/pools/{pool}/reconciliation").get_json()
    assert check["sound"] and check["amount"] == "480"
    assert verify.audit_ledger() == []


def _pool_of(web: WebCasino, table: int) -> int:
    from casino_holdem.services.tables import list_tables

    return next(row.pool_id for row in list_tables() if row.id == table)


def test_reports_over_the_api_add_up_to_the_ledger(web) -> None:
    auditor = sign_in(web, "audrey", "auditor")
    day = T0.date().isoformat()
    result = auditor.get(f"/api/operator/reports?from={day}&to={day}").get_json()
    assert result["ledger_agrees"] is True and result["rounds"] == 0
    bad = auditor.get("/api/operator/reports?from=yesterday&to=2026-12-01")
    assert bad.status_code == 400 and bad.get_json()["error"]["field"] == "from"
