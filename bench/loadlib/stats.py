"""What a run measures, and the figures it prints and writes as JSON.

Every request, bet and decision is recorded with its wall-clock time; the rates and latency
percentiles are taken over the measured window only (after every player is logged in and every
stream is open, until ``--duration`` has passed), so setup and drain do not flatter or spoil them.
Errors are counted by kind; a bet or decision the server refused because its window had closed
is not an error of the client but a *late* refusal, counted apart (R8: the house decides).
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class SentDecision:
    """One decision the client sent: when, against which deadline (both wall clock), and the
    HTTP status it got (None: no answer after every retry)."""

    player: str
    round_id: int
    street: str
    sent_at: float
    deadline: float
    status: int | None = None

    @property
    def inside(self) -> bool:
        return self.sent_at < self.deadline


def _share(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a percentage with two decimals (a p99 target is 99 % within it)."""
    return f"{100 * part / whole:.2f} %" if whole else "-"


def percentiles(values: list[float], scale: float = 1000.0) -> dict[str, Any]:
    """Count, p50, p95, p99 and max (nearest rank), in milliseconds by default."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def rank(share: float) -> float:
        return round(ordered[max(0, math.ceil(share * len(ordered)) - 1)] * scale, 1)

    return {"count": len(ordered), "p50_ms": rank(0.50), "p95_ms": rank(0.95), "p99_ms": rank(0.99),
            "max_ms": round(ordered[-1] * scale, 1)}


@dataclass
class Recorder:
    """Everything the players, streams and samplers observe during a run."""

    window: tuple[float, float] | None = None
    latencies: dict[str, list[tuple[float, float]]] = field(default_factory=lambda: defaultdict(list))
    moments: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    late: Counter[str] = field(default_factory=Counter)
    retries: Counter[str] = field(default_factory=Counter)
    streams_open: int = 0
    streams_live: int = 0
    stream_samples: list[tuple[int, int]] = field(default_factory=list)
    stream_reconnects: int = 0
    event_delays: list[float] = field(default_factory=list)
    loop_lags: list[float] = field(default_factory=list)
    #: the event-loop lag of the process holding the streams nobody reads (:mod:`.holders`)
    holder_lags: list[float] = field(default_factory=list)
    sent: list[SentDecision] = field(default_factory=list)
    not_sent: Counter[str] = field(default_factory=Counter)

    def request(self, label: str, started: float, seconds: float) -> None:
        """A request answered (any HTTP status) after ``seconds``."""
        self.latencies[label].append((started, seconds))
        self.moments["request"].append(started)

    def count(self, what: str, at: float | None = None) -> None:
        self.moments[what].append(time.time() if at is None else at)

    def _inside(self, at: float) -> bool:
        return self.window is not None and self.window[0] <= at <= self.window[1]

    def in_window(self, what: str) -> int:
        return sum(1 for at in self.moments[what] if self._inside(at))

    def seconds(self) -> float:
        return 0.0 if self.window is None else self.window[1] - self.window[0]

    def rate(self, what: str) -> float:
        return round(self.in_window(what) / self.seconds(), 2) if self.seconds() else 0.0

    def latency_table(self) -> dict[str, dict[str, Any]]:
        """Per endpoint over the window; an endpoint used only outside it (logins, the streams'
        first events before the window opens) over all its calls, marked ``[setup]``."""
        table = {}
        for label, rows in sorted(self.latencies.items()):
            inside = [seconds for at, seconds in rows if self._inside(at)]
            if inside:
                table[label] = percentiles(inside)
            else:
                table[f"{label} [setup]"] = percentiles([seconds for _, seconds in rows])
        return table

    def streams(self, target: int) -> dict[str, Any]:
        """Streams held open (answered 200) and delivering (a state event received on the
        current connection), sampled over the window."""
        figures: dict[str, Any] = {"target": target, "reconnects": self.stream_reconnects}
        for index, name in enumerate(("held", "delivering")):
            values = [sample[index] for sample in self.stream_samples] or [0]
            figures.update({f"{name}_min": min(values), f"{name}_mean": round(sum(values) / len(values), 1),
                            f"{name}_max": max(values)})
        return figures

    def decisions(self, required: int, automated: int, resolved: dict[tuple[str, int, str], bool]) -> dict[str, Any]:
        """R8 accounting: of every decision our players owed, the share the house took; of the
        decisions sent inside their window, those the house took anyway (the target is none)."""
        inside = [d for d in self.sent if d.inside]
        automated_inside = sum(1 for d in inside if resolved.get((d.player, d.round_id, d.street)) is True)
        unknown = sum(1 for d in inside if (d.player, d.round_id, d.street) not in resolved)
        return {"required": required, "automated": automated,
                "automated_share": round(automated / required, 4) if required else None,
                "sent": len(self.sent), "sent_inside_window": len(inside),
                "sent_inside_automated": automated_inside,
                "sent_inside_automated_share": round(automated_inside / len(inside), 4) if inside else None,
                "sent_inside_unresolved": unknown, "not_sent": dict(self.not_sent)}


def _line(label: str, figures: dict[str, Any]) -> str:
    if not figures.get("count"):
        return f"  {label:54} (none)"
    return (f"  {label:54} n={figures['count']:<6} p50 {figures['p50_ms']:8.1f}  p95 {figures['p95_ms']:8.1f}"
            f"  p99 {figures['p99_ms']:8.1f}  max {figures['max_ms']:8.1f} ms")


def _counter(title: str, counts: dict[str, int]) -> list[str]:
    if not counts:
        return [f"{title}: none"]
    return [f"{title}: {sum(counts.values())}"] + [f"  {n:6}  {kind}" for kind, n in sorted(counts.items())]


def render(report: dict[str, Any]) -> str:
    """The report as the lines a person reads."""
    out = [f"== {report['title']}", "config: " + ", ".join(f"{k}={v}" for k, v in report["config"].items())]
    if "window_seconds" in report:
        out.append(f"measured window: {report['window_seconds']:.1f} s")
    if "machine" in report:
        m = report["machine"]
        busy = m.get("busy_percent_of_core")
        out.append(f"machine: {m['cpus']} CPUs, load average {m['load_average_start']} before the run, "
                   f"{m['load_average_end']} after it (other work shares these cores)" +
                   ("" if busy is None else f"; busy {busy} % of one core in the measured window, "
                                            f"of {100 * (m['cpus'] or 1)} %"))
    if "rates" in report:
        rates = report["rates"]
        out.append(f"throughput: {rates['requests_per_second']} requests/s, {rates['bets_per_second']} bets/s, "
                   f"{rates['decisions_per_second']} decisions/s ({rates['requests']} requests, {rates['bets']} bets, "
                   f"{rates['decisions']} decisions)")
        if "server_cpu_ms_per_request" in rates:
            out.append(f"server CPU per request: {rates['server_cpu_ms_per_request']} ms (server and dealers' CPU "
                       "seconds / requests; more for the same code and load on a host whose cores other work shares)")
    if "latency" in report:
        out.append("latency per endpoint (measured window; [setup]: before it):")
        out += [_line(label, figures) for label, figures in report["latency"].items()]
    for key, title in (("errors", "errors"), ("late", "late refusals (window closed when the request arrived)"),
                       ("retries", "network retries (same request id)")):
        if key in report:
            out += _counter(title, report[key])
    if "decisions" in report:
        d = report["decisions"]
        out.append(f"decisions owed {d['required']}, automated by the house {d['automated']} "
                   f"(share {d['automated_share']}); sent {d['sent']}, inside their window {d['sent_inside_window']}, "
                   f"of which automated anyway {d['sent_inside_automated']} (share {d['sent_inside_automated_share']}, "
                   f"target 0; unresolved {d['sent_inside_unresolved']}); not sent: {d['not_sent'] or 'none'}")
    for key, title in (("dealer_lag", "dealer lag (due -> dealt/settled/opened; database timestamps)"),
                       ("event_delay", "event delay (cards dealt -> the player's stream shows them)"),
                       ("loop_lag", "client event-loop lag, the players' process (is the client keeping up?)"),
                       ("holder_loop_lag", "event-loop lag of the process holding the other streams")):
        if key in report:
            value = report[key]
            out.append(f"{title}:")
            out += ([_line(label, figures) for label, figures in value.items()]
                    if "count" not in value and "unavailable" not in value else
                    [f"  {value.get('unavailable')}" if "unavailable" in value else _line("all", value)])
    if "streams" in report:
        s = report["streams"]
        out.append(f"open streams: target {s['target']}, held min {s['held_min']} / mean {s['held_mean']} / "
                   f"max {s['held_max']}, delivering min {s['delivering_min']} / mean {s['delivering_mean']} / "
                   f"max {s['delivering_max']}; reconnects {s['reconnects']}")
    if "state_builds" in report:
        out.append("state builds for the streams (the server's /metrics): " + (", ".join(
            f"{topic} {b['count']} ({b['per_second']}/s)" for topic, b in report["state_builds"].items())))
    if "request_queue" in report:
        out.append("waits for a request thread (the server's /metrics): " + (", ".join(
            f"{rank} {q['count']} requests, mean {q['mean_ms']} ms, over 0.5 s {q['over_half_a_second']}"
            for rank, q in report["request_queue"].items())))
    if "server_answers" in report:
        out.append("answered by the server (its /metrics, from the request's arrival to its answer's start) within "
                   "100 ms, and after more than a second: " + ", ".join(
                       f"{key} {a['within_100_ms']} of {a['count']} ({_share(a['within_100_ms'], a['count'])}), "
                       f"{a['over_a_second']}" for key, a in report["server_answers"].items()))
    if "gc_pauses" in report:
        out.append("garbage collections (the server's /metrics, all its processes): " + (", ".join(
            f"generation {generation} {g['count']} ({g['seconds']} s start to end, {g['cpu_seconds']} s of CPU: "
            f"{g['percent_of_core']} % of a core)"
            for generation, g in report["gc_pauses"].items())))
    if sessions := report.get("database_sessions"):
        locks = ", ".join(f"{table} {mean}" for table, mean in sessions["lock_waits"].items())
        out.append(f"database sessions in a transaction (PostgreSQL's pg_stat_activity, {sessions['looks']} looks "
                   f"every {sessions['every_seconds']} s): {sessions['in_transaction']} on average; " +
                   ", ".join(f"{kind} {mean}" for kind, mean in sessions["kinds"].items()) +
                   (f"; lock waits by table: {locks}" if locks else ""))
    if "cpu" in report:
        out.append("CPU seconds in the measured window (and % of one core):")
        out += [f"  {name:20} {c['seconds']:8.2f} s  {c['percent_of_core']:6.1f} %"
                for name, c in report["cpu"].items()]
    if report.get("restarts"):
        out.append(f"processes restarted by the bench: {report['restarts']}")
    if "audit_ledger" in report:
        audit = report["audit_ledger"]
        out.append(f"audit-ledger: {'SOUND' if audit['sound'] else 'BROKEN'} — {audit['summary']}")
    for check in report.get("checks", []):
        out.append(f"  [{'PASS' if check['passed'] else 'FAIL'}] {check['name']}: {check['detail']}")
    return "\n".join(out)


def publish(report: dict[str, Any], json_path: str | None) -> None:
    """Print the report and its notes; with ``json_path`` also write it as JSON."""
    print(render(report))
    for note in report.get("notes", []):
        print(f"note: {note}")
    if json_path:
        with open(json_path, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2)
            handle.write("\n")
