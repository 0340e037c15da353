"""The operator's scriptable commands: the paytable lifecycle, four-eyes pool corrections and the
report CSV; refusals are one line naming the field and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from casino_holdem import create_app
from casino_holdem.cli import main
from casino_holdem.services.audit_log import AuditFilter, search
from support.cli import command_runner


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    return command_runner(tmp_path, monkeypatch, "office.sqlite3",
                          staff={"ann": "manager", "ben": "manager", "cfo": "manager", "pat": "pit"})


def test_import_approve_and_assign_a_version(run, tmp_path, variant) -> None:
    pool = run("pool", "create", "Linked")
    table = run("table", "create", "Lisbon", "--pool", str(pool["id"]), "--operator", "ann")
    path = tmp_path / "house-v2.toml"
    path.write_bytes(variant(2, aa=40))
    draft = run("paytables", "import", str(path), "--operator", "ann")
    assert draft["status"] == "draft" and draft["version"] == 2
    refused = run("paytables", "approve", str(draft["id"]), "--operator", "ann", code=2)
    assert "four-eyes" in refused.output and len(refused.output.strip().splitlines()) == 1
    assert run("paytables", "approve", str(draft["id"]), "--operator", "ben")["status"] == "approved"
    assigned = run("paytables", "assign", str(table["id"]), str(draft["id"]), "--reason", "richer A-A",
                   "--operator", "ben")
    assert assigned["settings"]["paytable_version"] == 2
    assert {v["version"]: v["status"] for v in run("paytables", "list")} == {1: "in use", 2: "approved"}
    assert CliRunner().invoke(main, ["audit-ledger"]).exit_code == 0


def test_a_bad_paytable_file_is_one_line_naming_its_key(run, tmp_path, variant) -> None:
    path = tmp_path / "bad-v2.toml"
    path.write_bytes(variant(2).replace(b"ante = 1\n", b"ante = -1\n", 1))
    refused = run("paytables", "import", str(path), "--operator", "ann", code=2)
    assert "main.ante" in refused.output and len(refused.output.strip().splitlines()) == 1


def test_a_pool_correction_waits_for_a_second_manager(run) -> None:
    pool = run("pool", "create", "Linked")
    run("pool", "top-up", str(pool["id"]), "100", "--reason", "seed", "--operator", "cfo")
    asked = run("pool", "request-correction", str(pool["id"]), "--amount", "-10", "--reason", "meter",
                "--operator", "ann")
    assert run("pool", "list")[0]["amount"] == "100"
    assert "four-eyes" in run("pool", "approve-correction", str(asked["id"]), "--operator", "ann", code=2).output
    assert run("pool", "approve-correction", str(asked["id"]), "--operator", "ben")["status"] == "approved"
    assert run("pool", "list")[0]["amount"] == "90"
    assert CliRunner().invoke(main, ["audit-ledger"]).exit_code == 0


def test_the_report_as_json_and_csv(run) -> None:
    assert run("report", "--from", "2026-12-01", "--to", "2026-12-02")["ledger_agrees"] is True
    text = run("report", "--from", "2026-12-01", "--to", "2026-12-02", "--csv", raw=True).output
    assert text.splitlines()[0].startswith("start,end,table_id")
    assert "--to" in run("report", "--from", "2026-12-01", code=2).output


@pytest.mark.parametrize(("who", "message"), [("pat", "operator: pat is pit; this is a duty of manager"),
                                              ("nobody", "operator: no active operator 'nobody'")])
def test_operator_names_an_account_whose_role_has_the_duty(run, who, message) -> None:
    """Issue 11: --operator is an account, not free text; the roles' duties hold on the command line too."""
    refused = run("pool", "create", "Linked") and run("table", "create", "T", "--pool", "1", "--operator", who,
                                                       code=2)
    assert message in refused.output and len(refused.output.strip().splitlines()) == 1


def test_a_command_is_audited_under_the_operators_id_and_role(run) -> None:
    run("pool", "create", "Linked")
    table = run("table", "create", "T", "--pool", "1", "--operator", "ann")
    run("table", "close", str(table["id"]), "--operator", "pat")
    with create_app().app_context():
        entries = search(AuditFilter(table_id=table["id"]))
    ids = {o["username"]: o["id"] for o in run("operator", "list")}
    assert {(e["action"], e["detail"]["operator_id"], e["detail"]["role"]) for e in entries} >= {
        ("table_created", ids["ann"], "manager"), ("table_closed", ids["pat"], "pit")}
