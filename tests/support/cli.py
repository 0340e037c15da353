"""The ``casino-holdem`` command run in-process against a fresh SQLite database, as the operator
command tests drive it: JSON output parsed, a refusal's exit code checked."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from casino_holdem.cli import main

from .casino import OPERATOR_PASSWORD


def command_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: str,
                   staff: dict[str, str] | None = None) -> Callable[..., Any]:
    """``run(*args, code=0, raw=False)``: the command's JSON, or its click result when it is
    expected to fail (``code``) or prints no JSON (``raw``). ``staff`` maps the operator accounts
    to create first (name → role) for the commands' ``--operator``."""
    monkeypatch.setenv("CASINO_DATABASE_URL", f"sqlite:///{tmp_path / database}")
    monkeypatch.setenv("CASINO_SECRET_KEY", "test")
    runner = CliRunner()
    assert runner.invoke(main, ["init-db"]).exit_code == 0

    def invoke(*args: str, code: int = 0, raw: bool = False) -> Any:
        result = runner.invoke(main, list(args))
        assert result.exit_code == code, result.output
        return result if code or raw else json.loads(result.output)

    for name, role in (staff or {}).items():
        created = runner.invoke(main, ["operator", "create", name, "--role", role, "--password-stdin"],
                                input=f"{OPERATOR_PASSWORD}\n")
        assert created.exit_code == 0, created.output
    return invoke
