"""The settings table: every CASINO_* variable, its type, default and meaning, read in one place;
a bad value is one clear error naming the variable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from casino_holdem import create_app, settings
from casino_holdem.cli import main

ROOT = Path(__file__).resolve().parent.parent

#: (variable, value in the environment or None for unset, the value the project reads)
VALUES = [
    ("CASINO_BETTING_SECONDS", None, 15),
    ("CASINO_BETTING_SECONDS", "20", 20),
    ("CASINO_DECISION_SECONDS", None, 15),
    ("CASINO_DECISION_SECONDS", " 7 ", 7),
    ("CASINO_DEALER_TICK", None, 0.3),
    ("CASINO_DEALER_TICK", "0.05", 0.05),
    ("CASINO_SSE_POLL", None, 0.5),
    ("CASINO_SSE_POLL", "2", 2.0),
    ("CASINO_SSE_LIFETIME", None, 60.0),
    ("CASINO_SSE_LIFETIME", "15.5", 15.5),
    ("CASINO_SECURE_COOKIES", None, None),
    ("CASINO_SECURE_COOKIES", "0", False),
    ("CASINO_SECURE_COOKIES", "Off", False),
    ("CASINO_SECURE_COOKIES", "yes", True),
    ("CASINO_DATABASE_URL", None, None),
    ("CASINO_DATABASE_URL", "", None),
    ("CASINO_DATABASE_URL", "postgresql://casino@db/casino", "postgresql://casino@db/casino"),
    ("CASINO_SECRET_KEY", "s3cret", "s3cret"),
    ("CASINO_PAYTABLES_DIR", "/srv/paytables", Path("/srv/paytables")),
    ("CASINO_CACHE_DIR", "/var/cache/casino", Path("/var/cache/casino")),
    ("CASINO_BROWSER_TESTS", None, False),
    ("CASINO_BROWSER_TESTS", "1", True),
]

#: (variable, a bad value, what the one-line error says after the variable's name)
BAD_VALUES = [
    ("CASINO_BETTING_SECONDS", "abc", "'abc' is not a whole number of seconds"),
    ("CASINO_BETTING_SECONDS", "1.5", "'1.5' is not a whole number of seconds"),
    ("CASINO_DECISION_SECONDS", "0", "'0' is below 1 second"),
    ("CASINO_DEALER_TICK", "-1", "'-1' is not a number of seconds above 0"),
    ("CASINO_SSE_POLL", "nan", "'nan' is not a number of seconds above 0"),
    ("CASINO_SSE_LIFETIME", "forever", "'forever' is not a number of seconds"),
    ("CASINO_SECURE_COOKIES", "maybe", "'maybe' is not one of 1/0, true/false, yes/no, on/off"),
]


@pytest.mark.parametrize("variable, raw, expected", VALUES)
def test_each_variable_reads_its_type_or_its_default(monkeypatch: pytest.MonkeyPatch, variable: str,
                                                      raw: str | None, expected: object) -> None:
    if raw is None:
        monkeypatch.delenv(variable, raising=False)
    else:
        monkeypatch.setenv(variable, raw)
    assert settings.value(variable) == expected


@pytest.mark.parametrize("variable, raw, message", BAD_VALUES)
def test_a_bad_value_is_one_error_naming_the_variable(monkeypatch: pytest.MonkeyPatch, variable: str, raw: str,
                                                       message: str) -> None:
    monkeypatch.setenv(variable, raw)
    with pytest.raises(settings.InvalidSetting) as refused:
        create_app({"SQLALCHEMY_DATABASE_URI": "sqlite:///:memory:", "SECRET_KEY": "test"})
    assert str(refused.value) == f"{variable}: {message}"


def test_a_command_refuses_a_bad_value_with_exit_2_and_one_line(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    monkeypatch.setenv("CASINO_DATABASE_URL", f"sqlite:///{tmp_path / 'never.sqlite3'}")
    monkeypatch.setenv("CASINO_BETTING_SECONDS", "abc")
    result = CliRunner().invoke(main, ["init-db"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "CASINO_BETTING_SECONDS: 'abc' is not a whole number of seconds\n"
    assert not (tmp_path / "never.sqlite3").exists()  # nothing was changed


def test_the_app_takes_every_setting_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable, raw in [("CASINO_SSE_POLL", "0.25"), ("CASINO_SSE_LIFETIME", "30"), ("CASINO_DEALER_TICK", "1"),
                          ("CASINO_BETTING_SECONDS", "9"), ("CASINO_SECURE_COOKIES", "0")]:
        monkeypatch.setenv(variable, raw)
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite:///:memory:", "SECRET_KEY": "test"})
    assert (app.config["CASINO_SSE_POLL"], app.config["CASINO_SSE_LIFETIME"]) == (0.25, 30.0)
    assert (app.config["CASINO_DEALER_TICK"], app.config["CASINO_BETTING_SECONDS"]) == (1.0, 9)
    assert app.config["SESSION_COOKIE_SECURE"] is False


def test_the_paytable_folder_is_the_checkouts_own() -> None:
    assert settings.paytable_dir() == ROOT / "paytables"
    assert settings.shipped("templates") == ROOT / "templates"


def test_nothing_else_reads_the_environment() -> None:
    readers = [path.relative_to(ROOT).as_posix() for path in (ROOT / "casino_holdem").rglob("*.py")
               if re.search(r"\benviron\b|\bgetenv\b", path.read_text(encoding="utf-8"))]
    assert readers == ["casino_holdem/settings.py"]


def test_the_readme_lists_every_variable() -> None:
    assert settings.markdown_table() in (ROOT / "README.md").read_text(encoding="utf-8")
