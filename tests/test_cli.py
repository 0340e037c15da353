"""The casino-holdem command as a compliance lab uses it: a real process, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "casino_holdem", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONWARNINGS": "ignore"}, timeout=120)


def test_scenario_settle_prints_the_settlement() -> None:
    done = run("scenario", "settle", str(SCENARIOS / "contract_example_royal_on_turn.json"))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["pool"]["after"] == "29997.87" and output["bettors"][0]["net"] == "10163.28"


def test_scenario_settle_reads_standard_input() -> None:
    text = (SCENARIOS / "r3_tie_every_bet_pushes.json").read_text()
    done = run("scenario", "settle", "-", stdin=text)
    assert done.returncode == 0 and json.loads(done.stdout)["result"] == "tie"


def test_scenario_check_passes_every_golden_file() -> None:
    files = sorted(str(p) for p in SCENARIOS.glob("*.json"))
    done = run("scenario", "check", *files)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASS ") == len(files) and "FAIL" not in done.stdout


def test_scenario_check_reports_a_failure_with_its_path(tmp_path: Path) -> None:
    data = json.loads((SCENARIOS / "r5_p2_straight_flush_shared_by_4.json").read_text())
    data["expected"] = {"pool": {"after": "1"}}
    bad = tmp_path / "wrong.json"
    bad.write_text(json.dumps(data))
    done = run("scenario", "check", str(bad), str(SCENARIOS / "r3_tie_every_bet_pushes.json"))
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == f'FAIL {data["name"]}: pool.after expected "1" got "19404.75"'
    assert done.stdout.splitlines()[1].startswith("PASS ")


def test_scenario_check_names_a_file_without_expected_once(tmp_path: Path) -> None:
    data = json.loads((SCENARIOS / "r3_tie_every_bet_pushes.json").read_text())
    del data["expected"]
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(data))
    done = run("scenario", "check", str(bare))
    assert done.returncode == 2
    assert done.stderr.strip() == f"{bare}: expected: missing (an object in the output format)"


def test_paytable_override_changes_the_ante_qualifier() -> None:
    scenario = str(SCENARIOS / "r3_player_wins_with_straight_ante_wins.json")
    done = run("scenario", "settle", scenario, "--paytable", "tests/paytables/house-flush-v1.toml")
    assert json.loads(done.stdout)["bettors"][0]["bets"]["ante"]["outcome"] == "push"


@pytest.mark.parametrize("content, message", [
    ("{", "malformed JSON at line 1 column 2"),
    ('{"pool": "1", "cards": {"player": ["As"]}}', "cards.player: 1 cards, the round needs 2"),
    ('[1]', "scenario: must be a JSON object"),
    ('{"paytable": "nowhere.toml", "pool": "1"}', "paytable: nowhere.toml: cannot read the file"),
])
def test_bad_input_exits_2_with_one_line_and_no_output(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    done = run("scenario", "settle", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_invalid_paytable_file_is_bad_scenario_input(tmp_path: Path) -> None:
    table = tmp_path / "house-v1.toml"
    table.write_text((ROOT / "paytables" / "standard-v1.toml").read_text().replace('id = "standard"', 'id = "house"')
                     .replace("aa = 30", "aa = -3"))
    done = run("scenario", "settle", str(SCENARIOS / "r3_tie_every_bet_pushes.json"), "--paytable", str(table))
    assert done.returncode == 2 and "bonus.aa: -3 is below the minimum 0" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_hand_prints_category_best_five_and_strength() -> None:
    done = run("hand", "As", "Kd", "2c", "4d", "6h", "8s", "Ac")
    assert done.returncode == 0
    category, *rest = done.stdout.split()
    assert category == "one_pair" and rest[:5] == ["As", "Ac", "Kd", "8s", "6h"] and rest[5] == "strength"


@pytest.mark.parametrize("cards, message", [(["As", "Kd", "2c", "4d"], "4 cards, a hand has 5 to 7"),
                                            (["As", "As", "2c", "4d", "5h"], "duplicate card As"),
                                            (["As", "Kx", "2c", "4d", "5h"], "'Kx': not a card")])
def test_hand_bad_input(cards: list[str], message: str) -> None:
    done = run("hand", *cards)
    assert done.returncode == 2 and message in done.stderr


def test_hand_jsonl_answers_every_line_in_order() -> None:
    lines = [{"cards": ["As", "Ks", "Qs", "Js", "Ts"]}, {"cards": ["2c", "3d", "4h", "5s", "7c", "8d"]},
             {"cards": ["2c", "2d", "2h", "5s", "5c", "8d", "9h"]}]
    done = run("hand", "--jsonl", stdin="\n".join(json.dumps(line) for line in lines) + "\n")
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["category"] for r in results] == ["royal_flush", "high_card", "full_house"]
    assert set(results[0]) == {"category", "best_five", "strength"}


def test_hand_jsonl_bad_line_names_the_line() -> None:
    done = run("hand", "--jsonl", stdin='{"cards": ["As", "Ks", "Qs", "Js", "Ts"]}\n{"cards": ["As"]}\n')
    assert done.returncode == 2 and done.stderr.startswith("line 2: cards: 1 cards")
    assert len(done.stdout.splitlines()) == 1


def test_paytable_validate_and_show() -> None:
    done = run("paytable", "validate", "paytables/standard-v1.toml")
    assert done.returncode == 0 and done.stdout.startswith("valid: standard version 1")
    shown = json.loads(run("paytable", "show", "paytables/standard-v1.toml", "--json").stdout)
    assert shown["bonus"]["aa_vs_dealer_aa"] == 1000
    assert shown["currencies"]["KRW"] == {"multiplier": "1000", "unit": "1"}
    assert shown["progressive"]["p1"]["royal_flush_flop"] == "0.90"


def test_paytable_validate_lists_every_problem_with_its_key(tmp_path: Path) -> None:
    table = tmp_path / "standard-v1.toml"
    table.write_text((ROOT / "paytables" / "standard-v1.toml").read_text().replace("aa = 30", "aa = -3")
                     .replace('contribution = "0.95"', "contribution = 0.95"))
    done = run("paytable", "validate", str(table))
    assert done.returncode == 2
    keys = [line.split(": ", 1)[1].split(":")[0] for line in done.stderr.splitlines()]
    assert keys == ["bonus.aa", "progressive.contribution"]
