"""The back office over HTTP: an authorization matrix generated from the route table (every
operator route × anonymous, player, pit, manager, auditor, dealer), and the JSON API's flows with
the players' error shape."""

from __future__ import annotations

from fractions import Fraction

import pytest

from casino_holdem.services import paytable_figures, verify
from support.casino import T0
from support.figures import STANDARD_BONUS, sample_figures
from support.operator_routes import VISITORS, check_admissions
from support.web import WebCasino


@pytest.fixture
def web(db, app) -> WebCasino:
    return WebCasino(app)


@pytest.mark.parametrize("who", VISITORS)
def test_every_back_office_route_admits_exactly_its_roles(app, web, who) -> None:
    """Generated from the route table: a refused visitor gets 401 (API) or the sign-in page,
    or 403; an allowed one is never refused by the guard (it may still be a 404 or a 400)."""
    assert check_admissions(app, web.visitor(who), who, ("operator_api.", "operator_pages.")) >= 30


def test_four_eyes_paytable_approval_and_assignment_over_the_api(web, variant) -> None:
    table = web.table()
    ann, ben = web.operator_client("ann", "manager"), web.operator_client("ben", "manager")
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
    pit = web.operator_client("pit1", "pit")
    early = pit.post(f"/api/operator/rounds/{round_id}/void", {"reason": "dropped_card_seen"})
    assert early.status_code == 422 and early.get_json()["error"]["field"] == "reason"
    done = pit.post(f"/api/operator/rounds/{round_id}/void", {"reason": "card_exposed_during_betting"})
    assert done.status_code == 200 and done.get_json()["result"]["void"]["reason"] == "card_exposed_during_betting"
    seen = punter.get(f"/api/rounds/{round_id}").get_json()
    assert seen["result"]["void"] == {"reason": "card_exposed_during_betting", "stage": "betting"}
    auditor = web.operator_client("audrey", "auditor")
    entries = auditor.get(f"/api/operator/audit?round_id={round_id}&action=round_void").get_json()["entries"]
    assert [entry["actor"] for entry in entries] == ["operator:pit1"]
    assert auditor.get(f"/api/operator/audit?format=csv&round_id={round_id}").data.startswith(b"id,at,actor")
    assert verify.audit_ledger() == []


def test_a_jackpot_correction_needs_a_second_manager_over_the_api(web) -> None:
    table = web.table(seed="500")
    pool = _pool_of(web, table)
    ann, ben = web.operator_client("ann", "manager"), web.operator_client("ben", "manager")
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
    auditor = web.operator_client("audrey", "auditor")
    day = T0.date().isoformat()
    result = auditor.get(f"/api/operator/reports?from={day}&to={day}").get_json()
    assert result["ledger_agrees"] is True and result["rounds"] == 0
    bad = auditor.get("/api/operator/reports?from=yesterday&to=2026-12-01")
    assert bad.status_code == 400 and bad.get_json()["error"]["field"] == "from"


def test_a_manager_creates_a_table_and_the_pit_suspends_and_resumes_it(web) -> None:
    pool = _pool_of(web, web.table())
    ann, pit = web.operator_client("ann", "manager"), web.operator_client("pit1", "pit")
    bad = ann.post("/api/operator/tables", {"name": "Studio", "pool_id": str(pool), "dealing": "robot"})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "dealing"
    assert ann.post("/api/operator/tables", {"name": "Studio"}).get_json()["error"]["field"] == "pool_id"
    created = ann.post("/api/operator/tables", {"name": "Studio", "pool_id": str(pool), "ante_min": "1",
                                                "ante_max": "200", "dealing": "live", "betting_seconds": "20"})
    assert created.status_code == 201
    table = created.get_json()
    assert (table["dealing"], table["ante_max"], table["betting_seconds"]) == ("live", "200", 20)
    assert pit.post("/api/operator/tables", {"name": "Nope", "pool_id": str(pool)}).status_code == 403
    refused = pit.post(f"/api/operator/tables/{table['id']}/suspend", {})
    assert refused.status_code == 400 and refused.get_json()["error"]["field"] == "reason"
    suspended = pit.post(f"/api/operator/tables/{table['id']}/suspend", {"reason": "camera down"}).get_json()
    assert suspended["suspended_reason"] == "camera down"
    web.player("punter")
    state = web.client("punter").get(f"/api/tables/{table['id']}").get_json()
    assert state["table"]["is_open"] is False  # the players' table page: no betting while suspended
    page = pit.get("/operator/tables").get_data(as_text=True)
    assert "Suspended: camera down" in page and "Resume" in page
    assert pit.post(f"/api/operator/tables/{table['id']}/resume", {}).get_json()["suspended_reason"] is None
    assert pit.post(f"/api/operator/tables/{table['id']}/resume", {}).status_code == 409
    edited = ann.post(f"/api/operator/tables/{table['id']}/settings", {"reason": "studio closes", "dealing": "rng"})
    assert edited.status_code == 200 and edited.get_json()["dealing"] == "live"  # not inside a round: pending
    page = ann.get("/operator/tables").get_data(as_text=True)
    assert "Pending, from the next round" in page and '{"dealing": "rng"}' in page


def test_game_recall_shows_the_auditor_what_the_players_own_history_shows(web) -> None:
    table = web.table()
    player = web.player("punter")
    punter = web.client("punter")
    web.advance(table)
    round_id = punter.get(f"/api/tables/{table}").get_json()["round"]["round_id"]
    assert punter.post(f"/api/tables/{table}/bets", {"ante": "10", "request_id": "r1"}).status_code == 201
    pit = web.operator_client("pit1", "pit")
    assert pit.post(f"/api/operator/rounds/{round_id}/void", {"reason": "operator"}).status_code == 200
    auditor = web.operator_client("audrey", "auditor")
    recalled = auditor.get(f"/api/operator/players/{player}/rounds/{round_id}").get_json()
    assert recalled == punter.get(f"/api/rounds/{round_id}").get_json()
    listed = auditor.get(f"/api/operator/players/{player}/rounds").get_json()
    assert [row["round_id"] for row in listed["rounds"]] == [round_id]
    assert auditor.get(f"/api/operator/players/{player}/rounds/{round_id + 1}").status_code == 404
    page = auditor.get(f"/operator/recall?player_id={player}&round_id={round_id}").get_data(as_text=True)
    assert "operator" in page and str(round_id) in page


def test_the_paytable_pages_show_each_versions_exact_figures_and_their_change(web, variant) -> None:
    """Issue 11: every version's exact RTP figures (``rtp``) in the list, the detail page and the
    JSON API, "computing…" until the background worker stores them, and the RTP change between two."""
    web.table()                                   # the table keeps standard@1 in the database
    ann = web.operator_client("ann", "manager")
    draft = ann.post("/api/operator/paytables", {"content": variant(2, aa=40).decode()}).get_json()
    standard = next(v for v in ann.get("/api/operator/paytables").get_json()["versions"] if v["version"] == 1)
    assert draft["rtp"] is None and standard["rtp"] is None
    assert "computing…" in ann.get("/operator/paytables").get_data(as_text=True)
    assert 'id="figures-computing"' in ann.get(f"/operator/paytables/{draft['id']}").get_data(as_text=True)
    assert 'id="figures-computing"' in ann.get(
        f"/operator/paytables/{standard['id']}/compare/{draft['id']}").get_data(as_text=True)

    paytable_figures.record(standard["sha256"], "engine", sample_figures())
    paytable_figures.record(draft["sha256"], "engine", sample_figures(bonus=STANDARD_BONUS + Fraction(1, 100)))
    listed = ann.get("/operator/paytables").get_data(as_text=True)
    assert "computing…" not in listed and "main game 99.0000 %" in listed and "Bonus 91.4594 %" in listed
    detail = ann.get(f"/api/operator/paytables/{draft['id']}").get_json()
    assert detail["rtp"]["figures"]["strategies"]["optimal"]["main"]["rtp"] == {"fraction": "99/100",
                                                                                 "decimal": "0.9900000000"}
    page = ann.get(f"/operator/paytables/{draft['id']}").get_data(as_text=True)
    assert 'id="paytable-figures"' in page and "River bet (R3)" in page and "92.4594 %" in page
    change = ann.get(f"/api/operator/paytables/{standard['id']}/compare/{draft['id']}").get_json()["rtp"]
    rows = {row["figure"]: row for row in change["rows"]}
    assert change["computed"] == [True, True] and rows["Bonus (R4)"]["change"]["fraction"] == "1/100"
    compared = ann.get(f"/operator/paytables/{standard['id']}/compare/{draft['id']}").get_data(as_text=True)
    assert 'id="rtp-change"' in compared and "+1.0000 %" in compared and "figures-computing" not in compared
