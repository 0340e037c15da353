"""The operator's commands: tables, pools, players and voids, each one audited service call;
a refused request is one line on stderr and exit 2 (the README's Architecture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casino_holdem.cli import main
from support.cli import command_runner


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    return command_runner(tmp_path, monkeypatch, "operator.sqlite3", staff={"mia": "manager", "pat": "pit"})


def test_operator_sets_up_a_table_and_runs_its_pool(run) -> None:
    pool = run("pool", "create", "Linked")
    assert pool["amount"] == "0"
    table = run("table", "create", "Lisbon", "--pool", str(pool["id"]), "--ante", "1", "500", "--bonus", "1", "100",
                "--max-bettors", "7", "--betting-seconds", "20", "--operator", "mia")
    assert table["paytable"] == "standard@1" and table["ante_max"] == "500" and table["is_open"]
    assert run("table", "close", str(table["id"]), "--operator", "pat")["is_open"] is False
    assert run("table", "open", str(table["id"]), "--operator", "pat")["is_open"] is True
    suspended = run("table", "suspend", str(table["id"]), "--reason", "camera down", "--operator", "pat")
    assert suspended["suspended_reason"] == "camera down"
    assert "already suspended" in run("table", "suspend", str(table["id"]), "--reason", "again", "--operator", "pat",
                                      code=2).output
    assert run("table", "resume", str(table["id"]), "--operator", "pat")["suspended_reason"] is None
    assert [t["name"] for t in run("table", "list")] == ["Lisbon"]
    topped = run("pool", "top-up", str(pool["id"]), "1000.5", "--reason", "seed", "--key", "s1", "--operator", "mia")
    assert run("pool", "top-up", str(pool["id"]), "1000.5", "--reason", "seed", "--key", "s1",
               "--operator", "mia")["amount"] == topped["amount"] == "1000.5"  # R5: recorded once
    assert run("pool", "list")[0]["meters"]["KRW"] == "1000500"  # R6 meter
    assert CliRunner().invoke(main, ["audit-ledger"]).exit_code == 0


def test_operator_creates_and_credits_a_player(run) -> None:
    player = run("player", "create", "alice", "--currency", "THB", "--password", "s3cret")
    assert player["currency"] == "THB"
    assert run("player", "deposit", "alice", "2500", "--key", "cash-1", "--operator", "mia")["balance"] == "2500"
    assert run("player", "deposit", "alice", "2500", "--key", "cash-1", "--operator", "mia")["balance"] == "2500"


def _lines(path: Path, rows: list[dict[str, str]]) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def test_a_floor_of_players_is_created_and_funded_in_two_commands(run, tmp_path: Path) -> None:
    """The load benchmark's set-up: many players at once, created only when missing (whatever
    the case of the name), then funded once per cashier reference."""
    run("player", "create", "P0", "--currency", "USD", "--password", "other")
    people = [{"username": f"p{i}", "currency": ("USD", "THB", "JPY")[i % 3], "password": "shared"} for i in range(30)]
    assert run("player", "create-many", _lines(tmp_path / "people.jsonl", people)) == {"created": 29, "existing": 1}
    assert run("player", "create-many", _lines(tmp_path / "people.jsonl", people)) == {"created": 0, "existing": 30}
    money = [{"username": row["username"], "amount": "100", "key": f"float-{row['username']}"} for row in people]
    for _ in range(2):  # the same references again credit nothing
        assert run("player", "deposit-many", _lines(tmp_path / "money.jsonl", money), "--operator", "mia") == {
            "deposits": 30}
    assert run("player", "deposit", "p1", "100", "--key", "float-p1", "--operator", "mia")["balance"] == "100"
    assert CliRunner().invoke(main, ["audit-ledger"]).exit_code == 0


@pytest.mark.parametrize("command, text, message", [
    ("create-many", '{"username": "a", "currency": "USD"}\n', "line 2: password: required"),
    ("create-many", '{"username": "a", "currency": "USD", "password": "p"}\n[1]\n', "line 3: not a JSON object"),
    ("create-many", '{"username": "a", "currency": "XYZ", "password": "p"}\n', "XYZ"),
    ("deposit-many", '{"username": "nobody", "amount": "1", "key": "k"}\n', "username: no player 'nobody'"),
    ("deposit-many", 'nonsense\n', "line 2: not a JSON object"),
])
def test_a_bad_line_refuses_the_whole_batch(run, tmp_path: Path, command: str, text: str, message: str) -> None:
    run("player", "create", "fine", "--currency", "USD", "--password", "p")
    first = ({"username": "new", "currency": "USD", "password": "p"} if command == "create-many"
             else {"username": "fine", "amount": "5", "key": "k0"})
    source = tmp_path / "batch.jsonl"
    source.write_text(json.dumps(first) + "\n" + text)
    extra = ["--operator", "mia"] if command == "deposit-many" else []
    result = run("player", command, str(source), *extra, code=2)
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    # nothing of the batch happened: its first line's player is new, its first deposit not made
    assert run("player", "create", "new", "--currency", "USD", "--password", "p")["username"] == "new"
    assert run("player", "deposit", "fine", "1", "--key", "k1", "--operator", "mia")["balance"] == "1"


@pytest.mark.parametrize("args, message", [
    (["pool", "top-up", "1", "0.000001", "--reason", "x", "--operator", "mia"], "amount 0.000001: must be positive"),
    (["table", "create", "T", "--pool", "99", "--operator", "mia"], "pool: no jackpot pool 99"),
    (["table", "close", "42", "--operator", "pat"], "table: no table 42"),
    (["player", "create", "bob", "--currency", "XYZ", "--password", "p"], "XYZ"),
    (["player", "deposit", "nobody", "10", "--key", "k", "--operator", "mia"], "username: no player 'nobody'"),
    (["void", "7", "--reason", "operator", "--operator", "pat"], "round: no round 7"),
])
def test_refused_requests_exit_2_with_one_line(run, args: list[str], message: str) -> None:
    run("pool", "create", "Linked")
    result = run(*args, code=2)
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_operator_voids_a_round_in_play(run) -> None:
    from casino_holdem import create_app
    from casino_holdem.services.dealer_steps import advance

    pool = run("pool", "create", "Linked")
    table = run("table", "create", "Lisbon", "--pool", str(pool["id"]), "--operator", "mia")
    with create_app().app_context():
        opened = advance(table["id"])
    assert opened is not None
    voided = run("void", str(opened.round_id), "--reason", "card_exposed_during_betting", "--stage", "betting",
                 "--operator", "pat")
    assert voided["phase"] == "void" and voided["result"]["void"] == {"reason": "card_exposed_during_betting",
                                                                      "stage": "betting"}
    again = run("void", str(opened.round_id), "--reason", "operator", "--operator", "pat", code=2)
    assert "already void" in again.output


def test_r1_a_table_is_created_live_and_its_dealing_mode_is_set(run) -> None:
    pool = run("pool", "create", "Linked")
    table = run("table", "create", "Studio", "--pool", str(pool["id"]), "--dealing", "live", "--operator", "mia")
    assert table["dealing"] == "live" and table["name"] == "Studio"
    run("table", "dealing", str(table["id"]), "rng", "--reason", "the studio closes", "--operator", "mia")
    assert run("table", "list")[0]["dealing"] == "live"  # R1: from the table's next round, never inside one
    refused = run("table", "dealing", str(table["id"]), "robot", "--reason", "x", "--operator", "mia", code=2)
    assert "robot" in refused.output
