"""The rtp, simulate and rng-test commands."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from casino_holdem.cli import main
from casino_holdem.compliance.exact import Enumeration
from casino_holdem.compliance.report import html_report


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


#: the strategies the rtp tests read; ``rtp`` without --strategy adds the full-deck optimal pass,
#: minutes per paytable, which test_optimal_full.py checks with -m optimal
READ = ("--strategy", "always-play", "--strategy", "basic")


@pytest.mark.slow
def test_rtp_json_gives_exact_fractions(enumeration: Enumeration) -> None:
    code, out, _ = invoke("rtp", "standard", "--json", "--rounds", "50000", *READ)
    assert code == 0
    document = json.loads(out)
    assert document["paytable"]["id"] == "standard"
    assert document["bonus"]["rtp"]["fraction"] == "148562/162435"
    assert document["progressive"]["p1"]["flop"]["probability"]["fraction"] == "1/649740"
    by_name = {entry["strategy"]: entry for entry in document["strategies"]}
    assert by_name["always-play"]["main"]["method"] == "exact"
    assert by_name["basic"]["main"]["method"] == "simulation"
    assert by_name["basic"]["fold_rate"]["fraction"] == "10/221"
    assert by_name["basic"]["main"]["estimates"]["rtp"]["ci95_low"] < by_name["basic"]["main"]["rtp"]


@pytest.mark.slow
def test_rtp_text_labels_exact_and_simulated(enumeration: Enumeration, house_flush_path: str) -> None:
    code, out, _ = invoke("rtp", house_flush_path, "--rounds", "20000", *READ)
    assert code == 0
    assert "house edge 8.5406%" in out and "[exact enumeration]" in out and "[simulated, 20,000 rounds" in out
    assert "seed top-ups per round" in out and "approximation" in out      # house-flush has a seed of 500


def test_rtp_refuses_an_unknown_paytable() -> None:
    code, _, err = invoke("rtp", "nope")
    assert code == 2 and err.startswith("paytable:") and err.count("\n") == 1


@pytest.mark.slow
def test_simulate_json_and_html_report(enumeration: Enumeration, tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    code, out, _ = invoke("simulate", "--rounds", "30000", "--seed", "4", "--strategy", "always-play",
                          "--bettors", "3", "--json", "--report", str(path))
    assert code == 0
    summary = json.loads(out)
    rows = {row["bet"]: row for row in summary["rtp"]}
    assert rows["main"]["exact"] is not None and rows["bonus"]["exact"] == pytest.approx(0.914594, abs=1e-6)
    assert summary["rates"]["fold_rate"] == 0 and summary["setup"]["bettors"] == 3
    assert any(line["table"] == "P2" and line["probability"] for line in summary["lines"])
    page = path.read_text(encoding="utf-8")
    assert page.count("<table") >= 5
    try:  # plots need the [report] extra; without it the report keeps its tables and says why
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in page and "<svg" not in page
    else:
        assert "<svg" in page


def test_simulate_text_without_exact_figures() -> None:
    code, out, _ = invoke("simulate", "--rounds", "5000", "--seed", "1", "--no-exact")
    assert code == 0 and "rounds/s" in out and "Return to player per bet" in out


@pytest.mark.parametrize("args, message", [
    (["--strategy", "nope"], "unknown strategy"),
    (["--currency", "XYZ"], "unknown currency"),
    (["--ante", "abc"], "--ante"),
    (["--ante", "0.001"], "units"),
])
def test_simulate_refuses_bad_input(args: list[str], message: str) -> None:
    code, _, err = invoke("simulate", "--rounds", "100", "--no-exact", *args)
    assert code == 2 and message in err


def test_the_html_report_degrades_to_tables_without_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)      # import now raises ImportError
    summary = {"setup": {"strategy": "basic", "rounds": 10}, "speed": {"rounds_per_second": 1.0},
               "rtp": [], "rates": {}, "lines": [],
               "progressive": {"contributions": "0", "paid_per_bettor": {}, "rounds_paid": {}, "seed_top_ups": "0",
                               "pool_start": "0", "pool_end": "0", "pool_sampled_mean": "0",
                               "pool_sampled_max": "0", "p1_hits": []},
               "pool": {"rounds": [], "base_units": []}}
    page = html_report(summary)
    assert "tables only" in page and "<svg" not in page and "<table" in page


def test_rng_test_command_reports_three_tests() -> None:
    code, out, _ = invoke("rng-test", "--shuffles", "3000", "--json")
    report = json.loads(out)
    assert len(report["tests"]) == 3 and code == (0 if report["passed"] else 1)
