"""The back office in a real browser: two managers sign in, upload, approve (four-eyes) and assign
a paytable version; a pit boss voids a round and the player sees the void and its reason; a
jackpot correction is requested by one manager and approved by another."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.server import serving

pytestmark = [pytest.mark.browser, pytest.mark.skipif(
    importlib.util.find_spec("casino_holdem.web.operator_auth") is None,
    reason="the back office's pages stand on the operators' sign-in (the auth foundation)")]
ROOT = Path(__file__).resolve().parents[2]
SECRET = "a long password"
ROLES = {"ann": "manager", "ben": "manager", "pat": "pit", "aud": "auditor"}


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``serve --demo --no-bots`` with four operators created through the CLI (password on stdin)."""
    folder = tmp_path_factory.mktemp("office")
    environment = {**os.environ, "CASINO_DATABASE_URL": f"sqlite:///{folder / 'casino.sqlite3'}",
                   "CASINO_SECRET_KEY": "browser-tests", "CASINO_BETTING_SECONDS": "30",
                   "CASINO_DECISION_SECONDS": "30", "CASINO_DEALER_TICK": "0.1"}
    subprocess.run([sys.executable, "-m", "casino_holdem", "init-db", "--demo"], cwd=ROOT, env=environment,
                   check=True, capture_output=True)
    for name, role in ROLES.items():
        subprocess.run([sys.executable, "-m", "casino_holdem", "operator", "create", name, "--role", role,
                        "--password-stdin"], cwd=ROOT, env=environment, input=f"{SECRET}\n", text=True,
                       check=True, capture_output=True)
    with serving([sys.executable, "-m", "casino_holdem", "serve", "--demo", "--no-bots"], cwd=ROOT,
                 env=environment, log=folder / "server.log") as base:
        yield base


@pytest.fixture
def page_of(chromium: Any, office: str) -> Iterator[Any]:
    contexts, errors = [], []

    def make(name: str) -> Any:
        context = chromium.new_context(viewport={"width": 1280, "height": 900}, base_url=office)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        if name.startswith("demo"):
            page.goto("/login")
            page.click(f'button[data-demo="{name}"]')
            page.wait_for_url(re.compile(r"/$"))
        else:
            page.goto("/operator/login")
            page.fill("#username", name)
            page.fill("#password", SECRET)
            page.click("#operator-login-form button[type=submit]")
            page.wait_for_url(re.compile(r"/operator/$"))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == []


def test_sign_in_approve_and_assign_a_paytable_version(page_of, shot) -> None:
    ann, ben = page_of("ann"), page_of("ben")
    content = (ROOT / "paytables" / "standard-v1.toml").read_text().replace("version = 1", "version = 7", 1)
    ann.goto("/operator/paytables")
    ann.fill("textarea[name=content]", content.replace("ante = 1\n", "ante = -1\n", 1))
    ann.click("#upload-form button[type=submit]")
    assert "main.ante" in ann.text_content(".problems")
    shot(ann, "upload-errors")
    ann.fill("textarea[name=content]", content)
    ann.click("#upload-form button[type=submit]")
    ann.wait_for_selector("text=Draft stored.")
    ann.click("tr:has-text('standard@7') button:has-text('Approve')")
    assert "four-eyes" in ann.text_content(".office-error")
    ben.goto("/operator/paytables")
    ben.click("tr:has-text('standard@7') button:has-text('Approve')")
    ben.wait_for_selector("text=Approved.")
    ben.select_option("#assign-form select[name=version_id]", label="standard@7")
    ben.fill("#assign-form input[name=reason]", "new season")
    ben.click("#assign-form button[type=submit]")
    ben.wait_for_selector("text=takes effect from the table's next round")
    shot(ben, "assigned")


def test_void_a_round_and_the_player_sees_it(page_of, shot) -> None:
    player = page_of("demo1")
    player.goto("/tables/1")
    player.wait_for_function("() => !document.getElementById('bet-form').hidden")
    player.click("#clear")
    player.click("#chips [data-chip] >> nth=0")
    player.click("#place")
    player.wait_for_selector("#bet-form", state="hidden")
    round_id = player.evaluate("fetch('/api/tables/1').then(r => r.json()).then(t => t.round.round_id)")
    pit = page_of("pat")
    pit.goto("/operator/void")
    pit.fill("input[name=round_id]", str(round_id))
    pit.select_option("select[name=reason]", "dropped_card_seen")
    pit.click("#void-form button[type=submit]")
    assert "dealing has begun" in pit.text_content(".field-error")
    shot(pit, "refused")
    pit.select_option("select[name=reason]", "card_exposed_during_betting")
    pit.click("#void-form button[type=submit]")
    pit.wait_for_selector("text=Round void")
    player.goto("/history")
    player.wait_for_selector(f'[data-round="{round_id}"]')
    assert "card exposed during betting" in player.text_content(f'[data-round="{round_id}"]').lower()
    shot(player, "void-seen")


def test_correct_the_jackpot_with_a_second_manager(page_of, shot) -> None:
    ann, ben = page_of("ann"), page_of("ben")
    ann.goto("/operator/pools")
    ann.fill("#correction-form input[name=amount]", "-1")
    ann.fill("#correction-form input[name=reason]", "meter showed one too many")
    ann.click("#correction-form button[type=submit]")
    ann.wait_for_selector("text=a second manager approves it")
    ben.goto("/operator/pools")
    ben.click("#corrections tr:has-text('pending') button:has-text('Approve')")
    ben.wait_for_selector("text=approved.")
    ben.click("#pools a >> nth=0")
    assert "reconciled" in ben.text_content("#reconciliation")
    shot(ben, "reconciled")


def test_create_a_table_then_suspend_and_resume_it(page_of, shot) -> None:
    ann = page_of("ann")
    ann.goto("/operator/tables")
    ann.fill("#create-table-form input[name=name]", "Studio B")
    ann.fill("#create-table-form input[name=pool_id]", "")
    ann.click("#create-table-form button[type=submit]")
    assert "pool_id" in ann.text_content("#create-table-form .field-error")
    ann.fill("#create-table-form input[name=pool_id]", "1")
    ann.select_option("#create-table-form select[name=dealing]", "live")
    ann.click("#create-table-form button[type=submit]")
    ann.wait_for_selector("text=Table created")
    table = "section[data-table='Studio B']"
    assert "live dealer" in ann.text_content(table)
    pit = page_of("pat")
    pit.goto("/operator/tables")
    pit.fill(f"{table} .suspend-form input[name=reason]", "camera down")
    pit.click(f"{table} .suspend-form button")
    pit.wait_for_selector("text=no new round opens")
    assert "Suspended: camera down" in pit.text_content(table)
    shot(pit, "suspended")
    pit.click(f"{table} .resume-form button")
    pit.wait_for_selector(f"{table} .suspend-form")
    assert "suspended" not in pit.text_content(f"{table} h2")
