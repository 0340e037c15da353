"""Issues 11 and 13: the figures the back office and the rules panel show are exactly what
``casino-holdem rtp --json`` prints for the same paytable — every strategy it reports exactly, per
bet, the Bonus and the Progressive — computed by the same code (minutes: the optimal pass)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from casino_holdem.cli import main
from casino_holdem.commands import figures
from casino_holdem.services import paytable_figures, paytable_versions
from support.casino import staff

pytestmark = [pytest.mark.slow, pytest.mark.optimal]
STANDARD = (Path(__file__).resolve().parents[2] / "paytables" / "standard-v1.toml").read_bytes()
PROGRESSIVE = ("expected_fixed_prizes_per_bet", "return_at_seed_pool", "long_run_return")


def test_the_stored_figures_of_standard_1_are_what_rtp_json_prints(db) -> None:
    version = paytable_versions.submit(STANDARD, staff("ann", "manager"))
    assert [entry["paytable"] for entry in figures.compute_missing()] == ["standard@1"]
    stored = paytable_figures.figures_of(version.sha256)
    assert stored is not None
    mine = stored.figures
    result = CliRunner().invoke(main, ["rtp", "standard@1", "--json", "--rounds", "20000"])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)

    assert mine["paytable"] == {key: printed["paytable"][key] for key in ("id", "version", "sha256")}
    assert mine["bonus"]["rtp"]["fraction"] == printed["bonus"]["rtp"]["fraction"]
    exact = {entry["strategy"]: entry for entry in printed["strategies"] if entry["main"]["method"] == "exact"}
    assert set(mine["strategies"]) == set(exact) == {"always-play", "simple", "optimal"}
    for name, entry in exact.items():
        play, printed_main = mine["strategies"][name], entry["main"]
        assert play["fold_rate"]["fraction"] == entry["fold_rate"]["fraction"]
        for key in ("rtp", "net_per_ante"):
            assert play["main"][key]["fraction"] == printed_main[key]["fraction"], (name, key)
        assert play["main"]["staked"]["fraction"] == printed_main["staked_per_round_in_antes"]["fraction"]
        assert play["main"]["returned"]["fraction"] == printed_main["returned_per_round_in_antes"]["fraction"]
        assert {bet: (figure["staked"]["fraction"], figure["returned"]["fraction"])
                for bet, figure in play["main"]["by_bet"].items()} == {
            bet: (figure["staked"]["fraction"], figure["returned"]["fraction"])
            for bet, figure in printed_main["by_bet"].items() if figure["staked"]["fraction"] != "0/1"}
        assert play["bonus"]["rtp"]["fraction"] == entry["bonus"]["rtp"]["fraction"]
        for key in PROGRESSIVE:
            assert play["progressive"][key]["fraction"] == entry["progressive"][key]["fraction"], (name, key)
        assert float(play["main"]["rtp"]["decimal"]) == pytest.approx(printed_main["rtp"]["decimal"], abs=1e-10)
    optimal = mine["strategies"]["optimal"]["main"]["rtp"]["fraction"]
    assert optimal == "5281472567599/5309799846516"                # the README's published figure
