"""The wheel is the product: built from the repository it carries the templates, static files,
migrations and the standard paytable, and installed alone it serves the game from any folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import urllib.request
import zipfile
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from support.server import serving, wait_until

ROOT = Path(__file__).resolve().parent.parent
#: seconds to build the wheel, and to install it with its dependencies into a fresh venv
BUILD_SECONDS, INSTALL_SECONDS = 300, 600


def test_every_package_of_the_source_tree_is_in_the_wheel_list() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(path.parent.relative_to(ROOT).parts) for path in (ROOT / "casino_holdem").rglob("*.py")
             if "__pycache__" not in path.parts}
    assert found <= listed


def _wanted(request: pytest.FixtureRequest) -> None:
    if "wheel" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("builds and installs the wheel: run with -m wheel (.ci/run does)")


def _run(*command: str | Path, seconds: float, **options: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=seconds,
                          **options)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done


class Player:
    """A player of the lobby JSON API over real HTTP (session cookie and CSRF token)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.token = self.get("/api/session")["csrf_token"]

    def get(self, path: str) -> Any:
        with self.http.open(self.base + path, timeout=10) as response:
            return json.load(response)

    def log_in(self, username: str, password: str) -> None:
        body = json.dumps({"username": username, "password": password}).encode()
        request = urllib.request.Request(self.base + "/api/session", data=body, method="POST",
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": self.token})
        with self.http.open(request, timeout=10) as response:
            assert response.status == 200


@pytest.mark.wheel
def test_the_installed_wheel_serves_the_demo_from_an_empty_folder(request: pytest.FixtureRequest,
                                                                  tmp_path: Path) -> None:
    _wanted(request)
    _run(sys.executable, "-m", "build", "--wheel", "--outdir", tmp_path / "dist", ROOT, seconds=BUILD_SECONDS)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in ("casino_holdem/templates/table.html", "casino_holdem/static/table.js",
                    "casino_holdem/migrations/alembic.ini", "casino_holdem/migrations/versions/0001_initial_schema.py",
                    "casino_holdem/paytables/standard-v1.toml"):
        assert shipped in names

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv, seconds=INSTALL_SECONDS)
    _run(venv / "bin" / "pip", "install", "-q", wheel, seconds=INSTALL_SECONDS)
    empty = tmp_path / "empty"
    empty.mkdir()
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith(("CASINO_", "PYTHON", "VIRTUAL_ENV"))}
    environment.update(CASINO_SECRET_KEY="wheel-check", CASINO_SECURE_COOKIES="0", CASINO_BETTING_SECONDS="2",
                       CASINO_DECISION_SECONDS="2", CASINO_FIGURES_POLL="0")
    command = venv / "bin" / "casino-holdem"

    tie = (ROOT / "tests" / "scenarios" / "r3_tie_every_bet_pushes.json").read_text()
    settled = json.loads(_run(command, "scenario", "settle", "-", input=tie, cwd=empty, env=environment,
                              seconds=120).stdout)
    assert (settled["paytable"]["id"], settled["paytable"]["version"]) == ("standard", "1")

    with serving([str(command), "serve", "--demo"], cwd=empty, env=environment, log=tmp_path / "serve.log") as base:
        player = Player(base)
        player.log_in("demo1", "demo")
        dealt = wait_until(lambda: [t for t in player.get("/api/tables")["tables"]
                                    if t["round"] and t["round"]["phase"] != "betting"],
                           seconds=120, what="dealt round", log=tmp_path / "serve.log")
        assert dealt[0]["paytable"]["id"] == "standard" and dealt[0]["paytable"]["version"] == 1
    assert list(empty.iterdir()) == []  # the installed server keeps its files in its own instance folder
