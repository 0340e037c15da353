"""Issue 11: operator accounts from the command line. The password comes from a hidden prompt or
standard input, never an argument; bad input is one line on stderr and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casino_holdem.cli import main

SECRET = "a long password"


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CASINO_DATABASE_URL", f"sqlite:///{tmp_path / 'operators.sqlite3'}")
    monkeypatch.setenv("CASINO_SECRET_KEY", "test")
    runner = CliRunner()
    assert runner.invoke(main, ["init-db"]).exit_code == 0

    def invoke(*args: str, stdin: str | None = None, code: int = 0):
        result = runner.invoke(main, list(args), input=stdin)
        assert result.exit_code == code, result.output
        return json.loads(result.output.removeprefix("Password: \nRepeat for confirmation: \n")) \
            if code == 0 else result

    return invoke


def test_an_operator_is_created_listed_given_a_new_password_and_disabled(run) -> None:
    created = run("operator", "create", "pit1", "--role", "pit", "--password-stdin", stdin=f"{SECRET}\n")
    assert created == {"id": 1, "username": "pit1", "role": "pit", "active": True}
    run("operator", "create", "manager1", "--role", "manager", stdin=f"{SECRET}\n{SECRET}\n")  # the prompt, twice
    assert [(o["username"], o["role"]) for o in run("operator", "list")] == [("pit1", "pit"), ("manager1", "manager")]
    assert run("operator", "password", "PIT1", "--password-stdin", stdin="another long one\n")["username"] == "pit1"
    assert run("operator", "disable", "pit1")["active"] is False


@pytest.mark.parametrize("args, stdin, field", [
    (("create", "pit1", "--role", "croupier", "--password-stdin"), SECRET, "role"),
    (("create", "pit1", "--role", "pit", "--password-stdin"), "short", "password"),
    (("create", "p", "--role", "pit", "--password-stdin"), SECRET, "username"),
    (("disable", "nobody"), None, "username"),
    (("password", "nobody", "--password-stdin"), SECRET, "username"),
])
def test_refusals_name_the_field_and_exit_2(run, args: tuple[str, ...], stdin: str | None, field: str) -> None:
    result = run("operator", *args, stdin=stdin, code=2)
    assert result.output.strip().startswith(f"{field}:") and len(result.output.strip().splitlines()) == 1


def test_a_second_operator_of_the_same_name_in_any_case_is_refused(run) -> None:
    run("operator", "create", "pit1", "--role", "pit", "--password-stdin", stdin=SECRET)
    result = run("operator", "create", "Pit1", "--role", "pit", "--password-stdin", stdin=SECRET, code=2)
    assert "taken" in result.output


def test_the_password_is_never_an_argument(run) -> None:
    result = run("operator", "create", "pit1", "--role", "pit", "--password", SECRET, code=2)
    assert "No such option" in result.output


def test_init_db_demo_states_the_demo_operators(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASINO_DATABASE_URL", f"sqlite:///{tmp_path / 'demo.sqlite3'}")
    monkeypatch.setenv("CASINO_SECRET_KEY", "test")
    result = CliRunner().invoke(main, ["init-db", "--demo"])
    assert result.exit_code == 0, result.output
    assert "demo operators (password 'demo', sign in at /operator/login): pit1, manager1, manager2, auditor1, " \
           "dealer1" in result.output
