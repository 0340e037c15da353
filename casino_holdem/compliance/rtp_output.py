"""The ``casino-holdem rtp`` report of :mod:`.rtp` as JSON and as text: exact figures as fractions
(and decimals), simulated ones with their 95 % intervals, each saying which it is."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

from .play_figures import exact_json
from .rtp import Line, MainFigures, RtpReport


def number_json(value: Fraction | float) -> Any:
    return exact_json(value) if isinstance(value, Fraction) else value


def _line_json(line: Line, pays_name: str) -> dict[str, Any]:
    return {"line": line.key, "label": line.label, "ways": line.ways, "out_of": line.out_of,
            "probability": exact_json(line.probability), pays_name: number_json(line.pays),
            "return": exact_json(line.value)}


def _optional(value: Fraction | None) -> Any:
    return None if value is None else exact_json(value)


def report_json(report: RtpReport) -> dict[str, Any]:
    rules = report.paytable.progressive
    bonus = report.bonus
    document: dict[str, Any] = {
        "paytable": {**report.paytable.describe(), "title": report.paytable.title},
        "bonus": {"method": "exact (1326 Player hole-card combinations x 1225 Dealer hands)",
                  "lines": [_line_json(line, "returns_per_unit") for line in bonus.lines],
                  "rtp": exact_json(bonus.rtp), "house_edge": exact_json(bonus.house_edge)},
        "progressive": {
            "method": "exact (P1 closed form; P2/P3 by full enumeration)",
            "p1": {street: {"probability": exact_json(p), "share_of_pool": str(rules.p1_share(street))}
                   for street, p in report.p1.items()},
            "p2": {key: {"probability": exact_json(p), "prize": str(getattr(rules, f"p2_{key}"))}
                   for key, p in report.p2.items()},
            "p3": {key: {"probability": exact_json(p), "prize": str(getattr(rules, f"p3_{key}"))}
                   for key, p in report.p3.items()},
            "contribution": str(rules.contribution), "seed": str(rules.seed),
        },
        "strategies": [],
        "seconds": report.seconds,
    }
    for figures in report.strategies:
        pool, main = figures.pool, figures.main
        document["strategies"].append({
            "strategy": figures.strategy.name, "summary": figures.strategy.summary,
            "fold_rate": exact_json(figures.fold_rate),
            "bonus": {"rtp": exact_json(figures.bonus.rtp), "house_edge": exact_json(figures.bonus.house_edge),
                      "paying_hands_folded": figures.bonus.folded_paying},
            "progressive": {
                "p1_paid": {street: exact_json(p) for street, p in figures.p1.items()},
                "p2_paid": {key: exact_json(p) for key, p in figures.p2.items()},
                "expected_fixed_prizes_per_bet": exact_json(pool.fixed),
                "p1_value_per_bet_per_unit_of_pool": exact_json(pool.alpha),
                "value_per_bet": "fixed + p1_coefficient x (pool_before + contribution)",
                "break_even_pool": _optional(pool.break_even_pool),
                "long_run_pool_with_contribution": _optional(pool.long_run_pool),
                "long_run_return": exact_json(pool.long_run_return),
                "seed_top_up_per_round": exact_json(pool.top_up),
                "seed_top_up_method": "exact" if pool.top_up_exact else "approximation",
                "return_at_seed_pool": exact_json(pool.value_at(pool.seed)),
            },
            "main": _main_json(main),
        })
    return document


def _main_json(main: MainFigures[Fraction] | MainFigures[float]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "method": main.method, "staked_per_round_in_antes": number_json(main.staked),
        "returned_per_round_in_antes": number_json(main.returned), "rtp": number_json(main.rtp),
        "net_per_ante": number_json(main.net_per_ante),
        "by_bet": {bet: {"staked": number_json(s), "returned": number_json(r)} for bet, (s, r) in main.by_bet.items()},
    }
    if main.method != "exact":
        result.update(rounds=main.rounds, seed=main.seed,
                      estimates={key: value.as_dict() for key, value in main.estimates.items()})
    if main.optimal_pass is not None:
        result.update(source="optimal strategy enumeration", **main.optimal_pass.risk_json())
    return result


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """Plain-text columns: the first left-aligned, the others right-aligned."""
    cells = [[str(cell) for cell in row] for row in [headers, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths, strict=True))) for row in cells]


def _pct(value: Fraction | float, digits: int = 4) -> str:
    return f"{float(value) * 100:.{digits}f}%"


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def report_text(report: RtpReport) -> str:
    paytable, bonus, rules = report.paytable, report.bonus, report.paytable.progressive
    out = [f"Paytable {paytable.ref} ({paytable.title}), sha256 {paytable.sha256}",
           "Exact figures unless marked [simulated]; fractions are exact, decimals rounded.", "",
           "Bonus bet (R4) — exact: 1326 Player hole-card combinations x 1225 Dealer hands"]
    out += format_table(
        ["line", "pays", "probability", "(fraction)", "return per unit"],
        [[line.label, f"{int(line.pays) - 1} to 1", f"{float(line.probability):.8f}", _frac(line.probability),
          f"{float(line.value):.6f}"] for line in bonus.lines])
    out += [f"Bonus RTP {float(bonus.rtp):.6f} = {_frac(bonus.rtp)}; house edge {_pct(bonus.house_edge)}", "",
            "Progressive (R5) — exact: P1 closed form, P2/P3 over all 2,809,475,760 (board, hole) deals"]
    rows = [[f"P1 royal flush first on the {street}", f"{rules.p1_share(street)} of pool", f"{float(p):.4e}", _frac(p)]
            for street, p in report.p1.items()]
    rows += [[f"P2 {key.replace('_', ' ')} (7 cards, board not P3)", str(getattr(rules, f"p2_{key}")),
              f"{float(p):.4e}", _frac(p)] for key, p in report.p2.items()]
    rows += [[f"P3 board {key.replace('_', ' ')}", str(getattr(rules, f"p3_{key}")), f"{float(p):.4e}", _frac(p)]
             for key, p in report.p3.items()]
    out += format_table(["line", "pays", "probability", "(fraction)"], rows)
    out.append(f"contribution {rules.contribution} per bet into the pool, seed {rules.seed}")
    for figures in report.strategies:
        pool, main = figures.pool, figures.main
        out.append("")
        out.append(f"Strategy {figures.strategy.name}: {figures.strategy.summary}")
        out.append(f"  folds {_pct(figures.fold_rate, 3)} of hands ({_frac(figures.fold_rate)}) before the flop")
        out.append(f"  Bonus RTP {float(figures.bonus.rtp):.6f} (house edge {_pct(figures.bonus.house_edge)}; "
                   f"{figures.bonus.folded_paying} paying combinations folded)")
        out.append(f"  Progressive, one bettor: expected fixed prizes per bet {float(pool.fixed):.6f} "
                   "(P2 only with the Flop bet, P3 always)")
        out.append(f"    P1 value per bet = {float(pool.alpha):.6e} x (pool before + {rules.contribution}); "
                   f"break-even pool {float(pool.break_even_pool or 0):,.0f}")
        if pool.long_run_pool is not None:
            out.append(f"    long-run mean pool (with the round's contribution) {float(pool.long_run_pool):,.0f}; "
                       f"long-run return {_pct(pool.long_run_return, 2)}")
        else:
            out.append("    no steady state: the fixed prizes cost more than the contributions bring")
        out.append(f"    return at the seed pool {float(pool.value_at(pool.seed)):.6f}; seed top-ups per round "
                   f"{float(pool.top_up):.6f} ({'exact' if pool.top_up_exact else 'approximation'})")
        if main.optimal_pass is not None:
            out += main.optimal_pass.summary_lines(indent="  ")
        elif main.method == "exact":
            rtp_exact = cast(Fraction, main.rtp)  # method "exact": the figures are Fractions
            out.append(f"  Main game [exact enumeration]: RTP {float(rtp_exact):.6f} ({_frac(rtp_exact)}), "
                       f"net per Ante {float(main.net_per_ante):+.6f}, {float(main.staked):.4f} Antes staked per round")
        else:
            rtp, net = main.estimates["rtp"], main.estimates["net_per_ante"]
            out.append(f"  Main game [simulated, {main.rounds:,} rounds, seed {main.seed}]: RTP {rtp.value:.5f} "
                       f"(95% CI {rtp.low:.5f}..{rtp.high:.5f}), net per Ante {net.value:+.5f} "
                       f"({net.low:+.5f}..{net.high:+.5f}), {float(main.staked):.4f} Antes staked per round")
        out.append("    by bet: " + ", ".join(f"{bet} {float(r) / float(s):.5f}"
                                              for bet, (s, r) in main.by_bet.items() if s))
    out += ["", "Runtime: " + ", ".join(f"{key} {value:.1f} s" for key, value in report.seconds.items())]
    return "\n".join(out)
