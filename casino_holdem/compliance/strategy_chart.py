"""``casino-holdem strategy optimal``: the optimal strategy as figures, a chart and rules.

- the exact figures of the main game under optimal play (:mod:`.play_figures`);
- the 169 starting hands: fold or play and the expected result of playing each (R2.3), as a
  13 × 13 table (pairs on the diagonal, suited hands above it, offsuit below);
- the flop and turn decisions as the rules of the ``simple`` strategy (:mod:`.simple`), each
  street's rules with the return they give up against exact play, and the exact figures of every
  strategy the package ships, side by side.

What a street's rules give up
    The Turn bet's result depends only on the flop decision, and the River bet's only on the turn
    decision (:mod:`.optimal`), so on the hands both strategies play, ``simple`` loses against
    ``optimal`` exactly the difference of their Turn bets' results (the flop rules) and of their
    River bets' (the turn rules). Whatever else separates them is the pre-flop rule's cost.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core.cards import RANKS
from ..core.paytable import Paytable
from .isomorphism import FLOP_CLASSES
from .optimal import TALLY, Solution
from .optimal_strategy import SCORED
from .play_figures import PlayFigures, exact_json, figures
from .simple import RULES
from .strategies import get_strategy
from .vector import class_label

STREETS = ("pre-flop", "flop", "turn")


@dataclass(frozen=True)
class StrategyReport:
    """Everything ``strategy optimal`` prints for one paytable."""

    paytable: Paytable
    optimal: PlayFigures
    others: dict[str, PlayFigures]
    seconds: float

    @property
    def simple(self) -> PlayFigures:
        return self.others["simple"]

    def given_up(self) -> dict[str, Fraction]:
        """Per street, the return per Ante ``simple``'s rules give up against exact play."""
        both = self.optimal.played & self.simple.played
        hands = self.optimal.hand_count * self.optimal.deals_per_holding
        difference = self.optimal.tally[both] - self.simple.tally[both]
        flop = Fraction(int(difference[:, TALLY.index("turn")].sum()), hands)
        turn = Fraction(int(difference[:, TALLY.index("river")].sum()), hands)
        total = self.optimal.net_per_ante - self.simple.net_per_ante
        return {"pre-flop": total - flop - turn, "flop": flop, "turn": turn}


def build(paytable: Paytable, solution: Solution) -> StrategyReport:
    return StrategyReport(
        paytable, figures(solution), {name: figures(solution, get_strategy(name)) for name in SCORED}, solution.seconds
    )


def _grid() -> list[list[int]]:
    """Class indices of the 13 × 13 chart, aces first: row rank r, column rank c → r * 13 + c
    (:func:`.vector.hole_classes`: suited above the diagonal, offsuit below)."""
    return [[row * 13 + column for column in range(12, -1, -1)] for row in range(12, -1, -1)]


def report_json(report: StrategyReport) -> dict[str, Any]:
    optimal, given_up = report.optimal, report.given_up()
    return {
        "paytable": {
            **report.paytable.describe(),
            "title": report.paytable.title,
            "ante_qualifier": report.paytable.main.ante_qualifier.slug,
        },
        "method": f"exact: {FLOP_CLASSES} flop classes x every turn, river and Dealer hand; backward induction",
        "optimal": optimal.as_json(),
        "starting_hands": [
            {"hand": label, "play": played, "ev_play": exact_json(ev), "ev": exact_json(ev if played else Fraction(-1))}
            for label, ev, played in optimal.starting_hands()
        ],
        "rules": {
            street: {"rules": list(RULES[street]), "return_given_up": exact_json(given_up[street])}
            for street in STREETS
        },
        "strategies": {name: result.as_json() for name, result in report.others.items()},
        "seconds": report.seconds,
    }


def report_text(report: StrategyReport) -> str:
    paytable, optimal, given_up = report.paytable, report.optimal, report.given_up()
    out = [
        f"Optimal strategy of {paytable.ref} ({paytable.title}), sha256 {paytable.sha256}",
        f"Ante qualifier: {paytable.main.ante_qualifier.slug.replace('_', ' ')} or better (R3). Exact: "
        f"{FLOP_CLASSES} flop classes x every turn, river and Dealer hand, decided backwards (R2).",
        "",
    ]
    out += optimal.summary_lines()
    out += [
        f"  return to player {optimal.rtp}; house edge per Ante {optimal.house_edge}",
        "",
        "Pre-flop (R2.3): expected result of making the Flop bet, per Ante (a fold is -1); "
        "* marks a fold; suited above the diagonal",
    ]
    labels = [RANKS[rank] for rank in range(12, -1, -1)]
    out.append("     " + "".join(f"{label:>8}" for label in labels))
    for label, row in zip(labels, _grid(), strict=True):
        cells = [f"{float(optimal.ev_play(index)):+7.3f}{'*' if not optimal.played[index] else ' '}" for index in row]
        out.append(f"  {label}  " + "".join(cells))
    out += [
        "",
        "Rules a person can follow (the `simple` strategy) and the return each street's rules give up "
        "against exact play:",
    ]
    for street in STREETS:
        out.append(f"  {street} (gives up {float(given_up[street]):.5f} per Ante):")
        out += [f"    - {rule}" for rule in RULES[street]]
    out += ["", "Every shipped strategy, exactly:"]
    for result in (*report.others.values(), optimal):
        out.append(
            f"  {result.strategy:<12} RTP {float(result.rtp):.6f}  house edge {float(result.house_edge):.4%}"
            f"  element of risk {float(result.element_of_risk):.4%}  average total bet {float(result.staked):.4f}"
        )
    return "\n".join(out)


def _cell_colour(ev: float, played: bool) -> str:
    """Folds in red; played hands from pale to deep green with their expected result."""
    if not played:
        return "hsl(0, 70%, 80%)"
    strength = max(0.0, min(1.0, (ev + 1) / 2.5))
    return f"hsl(120, 55%, {92 - 55 * strength:.0f}%)"


def chart_html(report: StrategyReport) -> str:
    """One self-contained HTML page: the figures, the 169-hand table and the rules."""
    optimal, given_up, paytable = report.optimal, report.given_up(), report.paytable
    escape = html.escape
    rows = []
    for row in _grid():
        cells = []
        for index in row:
            ev, played = float(optimal.ev_play(index)), bool(optimal.played[index])
            cells.append(
                f'<td style="background:{_cell_colour(ev, played)}" title="{escape(class_label(index))}: '
                f'{"play" if played else "fold"}, EV {ev:+.6f}"><b>{escape(class_label(index))}</b><br>'
                f"{ev:+.3f}</td>"
            )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    figures_rows = "".join(f"<tr><td>{escape(line.strip())}</td></tr>" for line in optimal.summary_lines())
    rules = "".join(
        f"<h3>{escape(street.capitalize())} — gives up {float(given_up[street]):.5f} per Ante</h3><ul>"
        + "".join(f"<li>{escape(rule)}</li>" for rule in RULES[street])
        + "</ul>"
        for street in STREETS
    )
    strategies = "".join(
        f"<tr><td>{escape(r.strategy)}</td><td>{float(r.rtp):.6f}</td><td>{float(r.house_edge):.4%}</td>"
        f"<td>{float(r.element_of_risk):.4%}</td><td>{float(r.staked):.4f}</td></tr>"
        for r in (*report.others.values(), optimal)
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Optimal strategy — {escape(paytable.ref)}</title>
<style>body{{font-family:system-ui,sans-serif;margin:2em;max-width:70em}}
table.chart td{{width:4.2em;height:2.6em;text-align:center;font-size:.8em;border:1px solid #fff}}
table.figures td,table.strategies td,table.strategies th{{padding:.2em .8em;text-align:left}}</style></head>
<body><h1>Optimal strategy — {escape(paytable.title)} ({escape(paytable.ref)})</h1>
<p>Paytable SHA-256 {escape(paytable.sha256)}; the Ante wins with a
{escape(paytable.main.ante_qualifier.slug.replace("_", " "))} or better (R3). Exact enumeration of every flop
class, turn, river and Dealer hand, decided backwards (R2).</p>
<table class="figures">{figures_rows}</table>
<h2>Pre-flop: fold or make the Flop bet (R2.3)</h2>
<p>Expected result per Ante of playing each starting hand; red cells are folds (a fold scores −1).
Suited hands above the diagonal, offsuit below.</p>
<table class="chart">{"".join(rows)}</table>
<h2>The flop and turn decisions as rules (the <code>simple</code> strategy)</h2>{rules}
<h2>Every shipped strategy, exactly</h2>
<table class="strategies"><tr><th>strategy</th><th>RTP</th><th>house edge (per Ante)</th><th>element of risk</th>
<th>average total bet</th></tr>{strategies}</table>
</body></html>
"""


def write_chart(report: StrategyReport, path: str | Path) -> None:
    Path(path).write_text(chart_html(report), encoding="utf-8")
