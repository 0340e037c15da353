"""What a simulation shows: per-bet RTP with 95 % intervals, every pay line's hit frequency next to
its exact probability (z-score), decision rates and the jackpot pool over time — as a JSON-able
summary, as text, and as a one-file HTML report (plots inline as SVG when matplotlib, the
``[report]`` extra, is installed; tables only otherwise).
"""

from __future__ import annotations

import html
import io
import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from ..core.evaluator import Category
from ..core.money import POOL_QUANTUM, ZERO, format_amount, round_down
from ..core.rules import BONUS_LABELS
from .batch_rules import BONUS_CODES, STREET_CODES
from .rtp_output import format_table
from .simulate import GROUPS, Simulation
from .stats import return_ratio, z_score

#: (counts key, index, table, label) of every line the simulator counts
LINES: tuple[tuple[str, int, str, str], ...] = (
    ("outcome", 0, "R3", "Player wins"),
    ("outcome", 1, "R3", "tie"),
    ("outcome", 2, "R3", "Dealer wins"),
    ("outcome", 3, "R3", "Player wins with the Ante qualifier or better"),
    *(("bonus", code, "R4", BONUS_LABELS[key]) for code, key in enumerate(BONUS_CODES) if key),
    ("bonus", 0, "R4", "no Bonus line (loses)"),
    *(("p1", code, "P1", f"royal flush first on the {street}") for code, street in enumerate(STREET_CODES) if street),
    ("p2", int(Category.STRAIGHT_FLUSH), "P2", "straight flush (board not P3)"),
    ("p2", int(Category.FOUR_OF_A_KIND), "P2", "four of a kind (board not P3)"),
    ("p3", int(Category.ROYAL_FLUSH), "P3", "board royal flush"),
    ("p3", int(Category.STRAIGHT_FLUSH), "P3", "board straight flush"),
    ("p3", int(Category.FOUR_OF_A_KIND), "P3", "board four of a kind"),
    *(("category", int(c), "R7", f"Player's 7 cards: {c.slug.replace('_', ' ')}") for c in reversed(Category)),
)
SIGNIFICANT_Z = 3.0


def _amount(units: int, unit: Decimal) -> str:
    return format_amount(Decimal(units) * unit)


def summarize(run: Simulation, reference: Mapping[str, Mapping[int, Fraction]] | None = None,
              exact_rtp: Mapping[str, Fraction] | None = None,
              exact_fold_rate: Fraction | None = None) -> dict[str, Any]:
    """Everything the text, JSON and HTML outputs show, per bettor (all bettors are alike)."""
    setup, units, rounds = run.setup, run.units, run.rounds
    unit = setup.paytable.currency(setup.currency).unit
    exact_rtp = exact_rtp or {}
    rtp_rows = []
    for group in GROUPS:
        moments = run.sums.get(group)
        if not moments or moments[0] == 0:
            continue
        estimate = return_ratio(moments, rounds)
        exact = exact_rtp.get(group)
        rtp_rows.append({  # the moments' Σ stake and Σ return are exact ints (simulate._moments)
            "bet": group, "staked": _amount(cast(int, moments[0]), unit),
            "returned": _amount(cast(int, moments[1]), unit),
            "rtp": estimate.value if estimate else None,
            "ci95": [estimate.low, estimate.high] if estimate else None,
            "standard_error": estimate.error if estimate else None,
            "exact": float(exact) if exact is not None else None,
            "exact_fraction": f"{exact.numerator}/{exact.denominator}" if exact is not None else None,
            "z": ((estimate.value - float(exact)) / estimate.error
                  if exact is not None and estimate and estimate.error else None),
        })
    lines = []
    for key, index, table, label in LINES:
        count = int(run.counts[key][index])
        probability = reference.get(key, {}).get(index) if reference else None
        lines.append({"table": table, "line": label, "count": count, "frequency": count / rounds,
                      "probability": float(probability) if probability is not None else None,
                      "expected": rounds * float(probability) if probability is not None else None,
                      "z": z_score(count, rounds, probability) if probability is not None else None})
    played, turn_bets, river_bets = (int(n) for n in run.counts["decisions"])
    walk = run.walk
    quantum = POOL_QUANTUM
    sample_rounds, sample_pool = run.samples
    pools = [Decimal(int(q)) * quantum for q in sample_pool]  # exact base units (R6)
    return {
        "setup": {"paytable": setup.paytable.ref, "sha256": setup.paytable.sha256, "strategy": setup.strategy.name,
                  "strategy_summary": setup.strategy.summary, "bettors": setup.bettors, "currency": setup.currency,
                  "ante": str(setup.ante), "bonus": str(setup.bonus), "progressive": setup.progressive,
                  "pool_start": str(setup.pool), "rounds": rounds, "seed": run.seed},
        "speed": {"seconds": run.seconds, "rounds_per_second": run.rounds_per_second},
        "rtp": rtp_rows,
        "rates": {
            "fold_rate": 1 - played / rounds,
            "fold_rate_exact": float(exact_fold_rate) if exact_fold_rate is not None else None,
            "fold_rate_z": (z_score(rounds - played, rounds, exact_fold_rate)
                            if exact_fold_rate is not None else None),
            "turn_bet_rate": turn_bets / played if played else 0.0,
            "river_bet_rate": river_bets / played if played else 0.0,
            "turn_bet_rate_of_rounds": turn_bets / rounds, "river_bet_rate_of_rounds": river_bets / rounds,
        },
        "lines": lines,
        "progressive": {
            "contributions": format_amount(Decimal(units.contribution * rounds) * quantum),
            "paid_per_bettor": {table: _amount(amount, unit) for table, amount in walk.awards.items()},
            "rounds_paid": walk.paid_counts,
            "seed_top_ups": format_amount(Decimal(walk.top_ups) * quantum),
            "pool_start": str(setup.pool),
            "pool_end": format_amount(Decimal(walk.final) * quantum),
            "pool_sampled_mean": format_amount(round_down(sum(pools, ZERO) / len(pools), quantum) if pools else ZERO),
            "pool_sampled_max": format_amount(max(pools, default=ZERO)),
            "p1_rounds": [int(event["round"]) for event in walk.p1_events],  # type: ignore[call-overload]
            "p1_hits": [{**event, "pool": format_amount(Decimal(int(event["pool_quanta"])) * quantum),  # type: ignore[call-overload]
                         "share": _amount(int(event["share_units"]), unit)}  # type: ignore[call-overload]
                        for event in walk.p1_events[:50]],
        },
        "pool": {"rounds": sample_rounds, "base_units": [format_amount(pool) for pool in pools]},
    }


def _fmt(value: float | None, spec: str) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else format(value, spec)


def _rtp_table(summary: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    headers = ["bet", "staked", "returned", "RTP", "95% CI", "exact", "z"]
    rows = [[row["bet"], row["staked"], row["returned"], _fmt(row["rtp"], ".5f"),
             f"{row['ci95'][0]:.5f}..{row['ci95'][1]:.5f}" if row["ci95"] else "",
             _fmt(row["exact"], ".5f"), _fmt(row["z"], "+.2f")] for row in summary["rtp"]]
    return headers, rows


def _lines_table(summary: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    headers = ["table", "line", "hits", "frequency", "exact p", "expected", "z"]
    rows = [[line["table"], line["line"], f"{line['count']:,}", f"{line['frequency']:.6g}",
             _fmt(line["probability"], ".6g"), _fmt(line["expected"], ",.1f"), _fmt(line["z"], "+.2f")]
            for line in summary["lines"]]
    return headers, rows


def summary_text(summary: Mapping[str, Any]) -> str:
    setup, rates, progressive = summary["setup"], summary["rates"], summary["progressive"]
    out = [(f"{setup['rounds']:,} rounds, seed {setup['seed']}, strategy {setup['strategy']}, "
            f"{setup['bettors']} bettor(s) with Ante {setup['ante']}, Bonus {setup['bonus']}, Progressive "
            f"{'yes' if setup['progressive'] else 'no'} ({setup['currency']}), paytable {setup['paytable']}"),
           f"{summary['speed']['rounds_per_second']:,.0f} rounds/s ({summary['speed']['seconds']:.2f} s)", "",
           "Return to player per bet (one bettor; 95% confidence intervals; exact where known)"]
    out += format_table(*_rtp_table(summary))
    fold = f"fold rate {rates['fold_rate']:.5f}"
    if rates["fold_rate_exact"] is not None:
        fold += f" (exact {rates['fold_rate_exact']:.5f}, z {_fmt(rates['fold_rate_z'], '+.2f')})"
    out += ["", (f"{fold}; Turn bet {rates['turn_bet_rate']:.5f} and River bet {rates['river_bet_rate']:.5f} "
                 "of the hands played"), "",
            "Hit frequencies (hand level, whether paid or not) against exact probabilities"]
    out += format_table(*_lines_table(summary))
    paid = ", ".join(f"{table} {amount} ({progressive['rounds_paid'][table]} rounds)"
                     for table, amount in progressive["paid_per_bettor"].items())
    out += ["", (f"Progressive: contributions {progressive['contributions']}, paid per bettor {paid}; "
                 f"seed top-ups {progressive['seed_top_ups']}"),
            (f"Pool: start {progressive['pool_start']}, end {progressive['pool_end']}, sampled mean "
             f"{progressive['pool_sampled_mean']}, max {progressive['pool_sampled_max']} (base units)")]
    flagged = [line for line in summary["lines"] if line["z"] is not None and abs(line["z"]) >= SIGNIFICANT_Z]
    names = ", ".join(line["line"] for line in flagged)
    out.append(f"{len(flagged)} line(s) with |z| >= {SIGNIFICANT_Z:g}" + (f": {names}" if flagged else ""))
    return "\n".join(out)


# --- HTML ---------------------------------------------------------------------------------------

def _svg(figure: Any) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def plots(summary: Mapping[str, Any]) -> dict[str, str]:
    """Inline SVG plots, or nothing when matplotlib is not installed (the report keeps its tables)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return {}
    result = {}
    pool = summary["pool"]
    figure = Figure(figsize=(8, 3))
    axes = figure.subplots()
    axes.plot(pool["rounds"], [float(amount) for amount in pool["base_units"]], linewidth=1)  # drawing only
    for round_ in summary["progressive"].get("p1_rounds", []):
        axes.axvline(round_, color="tab:red", alpha=0.3, linewidth=0.8)
    axes.set_xlabel("round")
    axes.set_ylabel("pool (base units)")
    axes.set_title("Jackpot pool before each round (red: P1 paid)")
    result["pool"] = _svg(figure)

    rows = [row for row in summary["rtp"] if row["rtp"] is not None]
    figure = Figure(figsize=(8, 3))
    axes = figure.subplots()
    xs = range(len(rows))
    axes.errorbar(list(xs), [r["rtp"] for r in rows], yerr=[1.96 * (r["standard_error"] or 0) for r in rows],
                  fmt="o", capsize=4, label="simulated, 95% CI")
    exact = [(x, r["exact"]) for x, r in zip(xs, rows, strict=True) if r["exact"] is not None]
    if exact:
        axes.plot([x for x, _ in exact], [e for _, e in exact], "x", color="tab:red", markersize=9, label="exact")
    axes.set_xticks(list(xs), [r["bet"] for r in rows])
    axes.axhline(1.0, color="grey", linewidth=0.6)
    axes.set_ylabel("RTP")
    axes.legend()
    result["rtp"] = _svg(figure)

    lines = [line for line in summary["lines"] if line["z"] is not None and math.isfinite(line["z"])]
    if lines:
        figure = Figure(figsize=(8, 0.25 * len(lines) + 1))
        axes = figure.subplots()
        axes.barh(range(len(lines)), [line["z"] for line in lines], color="tab:blue")
        axes.set_yticks(range(len(lines)), [f"{line['table']} {line['line']}" for line in lines], fontsize=7)
        for bound in (-1.96, 1.96):
            axes.axvline(bound, color="tab:red", linestyle="--", linewidth=0.8)
        axes.invert_yaxis()
        axes.set_xlabel("z-score of the hit count against the exact probability")
        result["z"] = _svg(figure)
    return result


def _html_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def html_report(summary: Mapping[str, Any]) -> str:
    """The whole report as one HTML document (no external files)."""
    setup, rates, progressive = summary["setup"], summary["rates"], summary["progressive"]
    figures = plots(summary)

    def figure(name: str) -> str:
        return f"<figure>{figures[name]}</figure>" if name in figures else ""

    setup_rows = [[key.replace("_", " "), str(value)] for key, value in setup.items()]
    setup_rows.append(["speed", f"{summary['speed']['rounds_per_second']:,.0f} rounds/s"])
    rate_rows = [[key.replace("_", " "), _fmt(value, ".6g")] for key, value in rates.items()]
    pool_rows = [["contributions (base units)", progressive["contributions"]],
                 *[[f"{table} paid per bettor", f"{amount} in {progressive['rounds_paid'][table]} rounds"]
                   for table, amount in progressive["paid_per_bettor"].items()],
                 ["seed top-ups", progressive["seed_top_ups"]], ["pool at start", progressive["pool_start"]],
                 ["pool at end", progressive["pool_end"]],
                 ["pool sampled mean", progressive["pool_sampled_mean"]],
                 ["pool sampled max", progressive["pool_sampled_max"]]]
    p1_rows = [[f"{hit['round']:,}", str(hit["street"]), hit["pool"], hit["share"], str(hit["bettors"])]
               for hit in progressive["p1_hits"]]
    note = ("" if figures else "<p class=note>matplotlib is not installed (pip install casino_holdem[report]): "
            "tables only.</p>")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Simulation: {html.escape(setup['strategy'])}, {setup['rounds']:,} rounds</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }}
th:first-child, td:first-child, td:nth-child(2) {{ text-align: left; }}
figure {{ margin: 0.5em 0 1.5em; }} .note {{ color: #a60; }}
</style></head><body>
<h1>Texas Hold'em Bonus Progressive — simulation report</h1>
{note}
<h2>Setup</h2>{_html_table(["setting", "value"], setup_rows)}
<h2>Return to player per bet</h2>
<p>One bettor's bets (all bettors play alike); 95 % confidence intervals; exact values where the
enumeration gives them.</p>
{_html_table(*_rtp_table(summary))}{figure("rtp")}
<h2>Decisions</h2>{_html_table(["rate", "value"], rate_rows)}
<h2>Hit frequencies against exact probabilities</h2>
<p>Hand-level counts (whether paid or not); z = (hits − expected) / sd of a binomial count.</p>
{_html_table(*_lines_table(summary))}{figure("z")}
<h2>Jackpot pool</h2>{_html_table(["", "value"], pool_rows)}{figure("pool")}
<h3>P1 payouts (the first 50)</h3>{_html_table(["round", "street", "pool", "share per bettor", "bettors"], p1_rows)}
</body></html>
"""


def write_html(summary: Mapping[str, Any], path: str | Path) -> None:
    Path(path).write_text(html_report(summary), encoding="utf-8")
