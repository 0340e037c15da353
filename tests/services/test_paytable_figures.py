"""The stored exact return figures of paytable versions (issues 11 and 13): one row per (SHA-256,
engine), claimed by one computing process at a time, exact strings only, read by the back office
and the players' rules panel."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from casino_holdem.services import jackpot, paytable_figures, paytable_versions, queries
from casino_holdem.services.paytable_figures import decimal_text, exact
from support.casino import T0, staff
from support.figures import sample_figures

ROOT = Path(__file__).resolve().parents[2]
STANDARD = (ROOT / "paytables" / "standard-v1.toml").read_bytes()
ENGINE = "engine-1"


def _version(version: int = 1, aa: int = 30) -> paytable_versions.VersionView:
    text = STANDARD.decode().replace("version = 1", f"version = {version}", 1).replace("\naa = 30\n", f"\naa = {aa}\n")
    return paytable_versions.submit(text.encode(), staff("ann", "manager"))


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _leaves(item)]
    return [value]


@pytest.mark.parametrize("value, places, text", [
    (Fraction(1, 3), 10, "0.3333333333"),
    (Fraction(2, 3), 10, "0.6666666667"),
    (Fraction(1, 8), 2, "0.12"),                 # half-even: exact ties go to the even digit
    (Fraction(3, 8), 2, "0.38"),
    (Fraction(148562, 162435) * 100, 2, "91.46"),  # R4: standard@1's Bonus
    (Fraction(-578107733, 28381438800), 6, "-0.020369"),
])
def test_a_figure_is_its_exact_fraction_and_a_decimal_string(value: Fraction, places: int, text: str) -> None:
    assert decimal_text(value, places) == text
    assert exact(value)["fraction"] == f"{value.numerator}/{value.denominator}"


def test_a_version_waits_is_claimed_once_and_then_shows_its_figures(db) -> None:
    version = _version()
    assert paytable_figures.figures_of(version.sha256) is None
    assert paytable_figures.pending(ENGINE) == ["standard@1"]
    claim = paytable_figures.claim_next(ENGINE, now=T0)
    assert claim is not None and claim.content == STANDARD and (claim.paytable_id, claim.version) == ("standard", 1)
    assert paytable_figures.pending(ENGINE, now=T0) == [] and paytable_figures.claim_next(ENGINE, now=T0) is None
    assert paytable_figures.figures_of(version.sha256) is None        # claimed is not computed
    paytable_figures.record(claim.sha256, ENGINE, sample_figures(), now=T0 + dt.timedelta(minutes=3))
    stored = paytable_figures.figures_of(version.sha256)
    assert stored is not None and stored.figures == sample_figures() and stored.engine == ENGINE
    assert all(isinstance(leaf, str) for leaf in _leaves(stored.figures))          # never a float
    assert paytable_figures.claim_next(ENGINE, now=T0 + dt.timedelta(days=3)) is None


def test_a_dead_claim_is_taken_over_and_an_abandoned_one_is_free_at_once(db) -> None:
    _version()
    assert paytable_figures.claim_next(ENGINE, now=T0) is not None
    alive = T0 + dt.timedelta(seconds=paytable_figures.CLAIM_SECONDS - 60)
    assert paytable_figures.claim_next(ENGINE, now=alive) is None
    claim = paytable_figures.claim_next(ENGINE, now=T0 + dt.timedelta(seconds=paytable_figures.CLAIM_SECONDS + 60))
    assert claim is not None
    paytable_figures.abandon(claim.sha256, ENGINE)
    assert paytable_figures.pending(ENGINE, now=T0) == ["standard@1"]


def test_a_new_engine_computes_again_while_the_last_figures_stay_shown(db) -> None:
    version = _version()
    paytable_figures.record(version.sha256, "old", sample_figures(Fraction(98, 100)), now=T0)
    assert paytable_figures.pending("new") == ["standard@1"] and paytable_figures.pending("old") == []
    assert paytable_figures.figures_of(version.sha256).engine == "old"
    paytable_figures.record(version.sha256, "new", sample_figures(), now=T0 + dt.timedelta(hours=1))
    assert paytable_figures.figures_of(version.sha256).engine == "new"


def _returns(sha256: str) -> dict[str, object] | None:
    """The rules panel's returns as a table's state reads them (one read of its panels, issue 10)."""
    panels = queries.panels(jackpot.ensure_pool("returns").id, sha256)
    return paytable_figures.player_returns(panels.figures, panels.figures_at)


def test_the_players_returns_are_percentages_of_the_best_play_and_follow_a_new_computation(db) -> None:
    version = _version()
    assert _returns(version.sha256) is None
    paytable_figures.record(version.sha256, ENGINE, sample_figures(Fraction(5281472567599, 5309799846516)), now=T0)
    assert _returns(version.sha256) == {
        "strategy": "optimal", "bets": dict.fromkeys(("ante", "flop", "turn", "river"), "99.47"),
        "main": "99.47", "bonus": "91.46", "progressive": "95.00"}
    paytable_figures.record(version.sha256, ENGINE, sample_figures(Fraction(98, 100)), now=T0 + dt.timedelta(hours=1))
    assert _returns(version.sha256)["main"] == "98.00"  # kept by the computation, not by the version


def test_two_versions_compared_show_each_figures_change_once_both_are_computed(db) -> None:
    left, right = _version(1), _version(2, aa=40)
    paytable_figures.record(left.sha256, ENGINE, sample_figures())
    waiting = paytable_versions.compare(left.id, right.id)["rtp"]
    assert waiting["computed"] == [True, False]
    assert all(row["right"] is None and row["change"] is None for row in waiting["rows"])
    paytable_figures.record(right.sha256, ENGINE, sample_figures(bonus=Fraction(148562, 162435) + Fraction(1, 100)))
    rows = {row["figure"]: row for row in paytable_versions.compare(left.id, right.id)["rtp"]["rows"]}
    assert rows["Bonus (R4)"]["change"] == exact(Fraction(1, 100))
    assert rows["optimal: main game (R3)"]["change"] == exact(Fraction(0))
    assert {"optimal: ante bet", "optimal: river bet", "optimal: Progressive, long run (R5)"} <= set(rows)


def test_every_version_listed_carries_its_figures_or_none(db) -> None:
    left, right = _version(1), _version(2, aa=40)
    paytable_figures.record(right.sha256, ENGINE, sample_figures())
    listed = {view.id: view.rtp for view in paytable_versions.list_versions()}
    assert listed[left.id] is None and listed[right.id].figures == sample_figures()
    assert paytable_versions.version_of(right.id).rtp.sha256 == right.sha256
