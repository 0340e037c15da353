"""The optimal strategy on the full deck for both Ante qualifiers (R3): the published analyses of
Texas Hold'em Bonus, the exact figures of the other strategies, and the lookup in play.

Published references (Wizard of Odds, "Texas Hold'em Bonus"): Las Vegas rules (a straight or
better) — house edge 2.037 % of the Ante, average total bet 3.8181 Antes, element of risk
0.5335 %, and the expected values of the two-card hands 2-3 .. 2-K offsuit below; Atlantic City
rules (a flush or better) — house edge 5.5935 % (after Scott McIntosh) and the same hands. The
computation takes a few minutes per paytable, so these tests run with ``-m optimal`` (a step of
``.ci/run`` of its own); each paytable's solution is computed once per session and shared by every
test here. The default run checks the same engine on reduced decks (``test_optimal.py``,
``test_optimal_decisions.py``).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from casino_holdem.cli import main
from casino_holdem.compliance.exact import Enumeration
from casino_holdem.compliance.isomorphism import Deck
from casino_holdem.compliance.optimal import MainRules, play_flop
from casino_holdem.compliance.optimal_strategy import Optimal, load_solution
from casino_holdem.compliance.play_figures import PlayFigures, figures
from casino_holdem.compliance.rtp import main_exact
from casino_holdem.compliance.simulate import deal
from casino_holdem.compliance.strategies import SHIPPED, get_strategy
from casino_holdem.compliance.vector import combinations
from casino_holdem.core.paytable import Paytable

pytestmark = pytest.mark.optimal

#: two-card expected values (Las Vegas rules, Atlantic City rules), 2-3 .. 2-K offsuit
PUBLISHED_EV = {
    "32o": (-1.155927, -1.195592),
    "42o": (-1.091604, -1.13521),
    "52o": (-1.019987, -1.067022),
    "62o": (-1.046723, -1.077817),
    "72o": (-1.031301, -1.050057),
    "82o": (-0.896002, -0.917393),
    "92o": (-0.763132, -0.784523),
    "T2o": (-0.613979, -0.636507),
    "J2o": (-0.459414, -0.478676),
    "Q2o": (-0.28969, -0.305687),
    "K2o": (-0.102668, -0.1154),
}


# function-scoped, so that the private cache directory is set first: the solution itself is
# computed once and then kept in the process's memory
@pytest.fixture
def straight(standard: Paytable) -> PlayFigures:
    return figures(load_solution(standard))


@pytest.fixture
def flush(house_flush: Paytable) -> PlayFigures:
    return figures(load_solution(house_flush))


def evs(result: PlayFigures) -> dict[str, Fraction]:
    return {label: ev for label, ev, _ in result.starting_hands()}


def test_r3_straight_qualifier_agrees_with_the_published_analysis(straight: PlayFigures) -> None:
    assert round(float(straight.house_edge), 5) == 0.02037
    assert round(float(straight.staked), 4) == 3.8181
    assert round(float(straight.element_of_risk), 6) == 0.005335
    assert {label: round(float(ev), 6) for label, ev in evs(straight).items() if label in PUBLISHED_EV} == {
        label: pair[0] for label, pair in PUBLISHED_EV.items()
    }
    assert {label for label, _, played in straight.starting_hands() if not played} == {
        "32o",
        "42o",
        "52o",
        "62o",
        "72o",
    }


def test_r3_flush_qualifier_agrees_with_the_published_analysis(flush: PlayFigures) -> None:
    assert round(float(flush.house_edge), 6) == 0.055935
    assert {label: round(float(ev), 6) for label, ev in evs(flush).items() if label in PUBLISHED_EV} == {
        label: pair[1] for label, pair in PUBLISHED_EV.items()
    }
    assert {label for label, _, played in flush.starting_hands() if not played} == {
        "32o",
        "42o",
        "52o",
        "62o",
        "72o",
        "43o",
    }


def test_r3_the_flush_qualifier_returns_less(straight: PlayFigures, flush: PlayFigures) -> None:
    assert flush.rtp < straight.rtp and flush.net_per_ante < straight.net_per_ante


def test_no_shipped_strategy_returns_more_than_optimal(
    standard: Paytable, straight: PlayFigures, enumeration: Enumeration
) -> None:
    solution = load_solution(standard)
    for name in SHIPPED:
        if name != "optimal":
            assert figures(solution, get_strategy(name)).net_per_ante < straight.net_per_ante
    # always-play, scored by the optimal pass, equals the independent enumeration of exact.py
    always = figures(solution, get_strategy("always-play"))
    assert always.rtp == main_exact(standard, enumeration, get_strategy("always-play")).rtp


def test_the_lookup_plays_the_decisions_computed_for_the_flop_itself(standard: Paytable) -> None:
    """Flops in their own suits, decided directly, against the lookup through the canonical flop."""
    strategy = Optimal().bind(standard)
    rules = MainRules.of(standard)
    for cards in deal(np.random.default_rng(7), 12):
        flop = cards[4:7]
        play = play_flop(Deck.full(), flop, rules)
        rest = np.setdiff1d(np.arange(52), flop).astype(np.uint8)
        holes = rest[combinations(len(rest), 2)]
        assert np.array_equal(strategy.flop(holes, np.broadcast_to(flop, (len(holes), 3))), play.turn_bet["optimal"])
        turn = rest[[0, 20, 48]]
        for position, card in zip([0, 20, 48], turn, strict=True):
            open_ = (holes != card).all(axis=1)
            boards = np.broadcast_to(np.append(flop, card), (int(open_.sum()), 4))
            assert np.array_equal(
                strategy.turn(holes[open_], boards, np.zeros(len(boards), bool)),
                play.river_bet["optimal"][open_, position],
            )


def test_simulate_plays_the_optimal_strategy_within_its_confidence_interval(straight: PlayFigures) -> None:
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "--strategy",
            "optimal",
            "--rounds",
            "400000",
            "--seed",
            "3",
            "--bonus",
            "0",
            "--no-progressive",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = {row["bet"]: row for row in json.loads(result.stdout)["rtp"]}
    main_row = rows["main"]
    assert main_row["exact_fraction"] == f"{straight.rtp.numerator}/{straight.rtp.denominator}"
    low, high = main_row["ci95"]
    assert low <= main_row["exact"] <= high


def test_strategy_optimal_command_json_and_chart(tmp_path, straight: PlayFigures) -> None:
    chart = tmp_path / "chart.html"
    result = CliRunner().invoke(main, ["strategy", "optimal", "standard", "--json", "--chart", str(chart)])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert (
        document["optimal"]["house_edge"]["fraction"]
        == f"{straight.house_edge.numerator}/{straight.house_edge.denominator}"
    )
    assert len(document["starting_hands"]) == 169
    assert document["rules"]["pre-flop"]["return_given_up"]["fraction"] == "0/1"
    given_up = sum(Fraction(document["rules"][street]["return_given_up"]["fraction"]) for street in ("flop", "turn"))
    simple = document["strategies"]["simple"]
    assert Fraction(simple["net_per_ante"]["fraction"]) == straight.net_per_ante - given_up
    page = chart.read_text(encoding="utf-8")
    assert page.count("<td style=") == 169 and "gives up" in page


def test_rtp_shows_optimal_beside_always_play_and_basic() -> None:
    result = CliRunner().invoke(main, ["rtp", "standard", "--json", "--rounds", "20000"])
    assert result.exit_code == 0, result.output
    by_name = {entry["strategy"]: entry for entry in json.loads(result.stdout)["strategies"]}
    assert set(by_name) >= {"always-play", "basic", "simple", "optimal"}
    assert by_name["optimal"]["main"]["method"] == "exact"
    assert by_name["optimal"]["main"]["house_edge"]["decimal"] == pytest.approx(0.0203692, abs=1e-7)
    assert by_name["optimal"]["fold_rate"]["fraction"] == "10/221"
