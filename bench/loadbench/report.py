"""The printed lines: one per run, and the summary table."""

from __future__ import annotations

from typing import Any

from bench.loadbench.common import MOVE_TIMEOUT, say
from bench.loadbench.stats import Run, Stats


def fmt(value: Any, digits: int = 0, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if digits == 0 and abs(value) >= 10000:
            return f"{value / 1000:.1f}k{unit}"
        return f"{value:.{digits}f}{unit}"
    return f"{value}{unit}"


def ratio(a: float | None, b: float | None) -> str:
    if a is None or not b:
        return "-"
    return f"{a / b:.1f}x"


def describe(run: Run) -> str:
    what = f"{run.config} {run.mode} {run.target}: {run.tables} x4 sockets on {run.daphnes} daphne"
    parts = [what]
    if run.offered is not None:
        parts.append(f"offered {run.offered:.1f}/s")
    parts.append(f"sustained {run.sustained:.1f}/s")
    extra = f", {run.between} between matches" if run.between else ""
    parts.append(
        f"p50 {fmt(run.p50)} p95 {fmt(run.p95)} p99 {fmt(run.p99)} ms ({run.moves} moves{extra})"
    )
    if run.target == "table" and run.server_moves:
        parts.append(
            f"server's histogram p50 {fmt(run.server_p50, 1)} p99 {fmt(run.server_p99, 1)} ms"
            f" ({run.server_moves} moves)"
        )
    if run.target == "table":
        if run.relay_p50 is not None and run.mode == "paced":
            parts.append(
                f"relay p50 {fmt(run.relay_p50, 1)} p99 {fmt(run.relay_p99, 1)} ms"
                f" -> {ratio(run.p50, run.relay_p50)} / {ratio(run.p99, run.relay_p99)}"
            )
        elif run.relay_sustained is not None:
            parts.append(f"relay sustained {run.relay_sustained:.0f}/s")
        parts.append(
            f"{fmt(run.queries_per_move, 1)} queries/move in {fmt(run.trips_per_move, 1)} trips,"
            f" {fmt(run.cpu_ms_per_move, 1)} server CPU ms/move"
        )
        if run.rss_per_table_kb is not None:
            parts.append(f"RSS {run.rss_per_table_kb:.0f} KB/table")
    parts.append(
        f"CPU server {fmt(run.server_cpu)}% client {fmt(run.client_cpu)}%"
        f" machine {fmt(run.machine_cpu)}%"
    )
    if run.stalls_50ms is not None:
        parts.append(
            f"server loops late {fmt(run.stalled_ms_per_s, 1)} ms/s, {run.stalls_50ms} waits > 50 ms"
        )
    if run.frame_bytes:
        parts.append(f"frames ~{run.frame_bytes:.0f} B")
    if run.inbox_max is not None:
        parts.append(f"largest layer inbox {run.inbox_max} msgs")
    if run.lobby_bytes_per_s is not None:
        bare = run.lobby_bare_bytes_per_s
        parts.append(
            f"lobby {run.lobby_bytes_per_s:.0f} B/s a socket ({run.lobby_sockets})"
            + (f", {bare:.0f} B/s one without a view" if bare is not None else "")
        )
    if run.background_cpu:
        cpu = " ".join(f"{k} {v:.0f}%" for k, v in sorted(run.background_cpu.items()))
        parts.append(f"background CPU {cpu}")
    if run.storage_rates:
        rates = " ".join(f"{k} {v:.0f}/s" for k, v in sorted(run.storage_rates.items()))
        parts.append(f"storage {rates}")
    if run.analysis_depth_max is not None:
        parts.append(
            f"analysis queue max {run.analysis_depth_max} end {run.analysis_depth_end},"
            f" {run.analysis_done} done, lag p50 {fmt(run.analysis_lag_p50, 1)}"
            f" max {fmt(run.analysis_lag_max, 1)} s"
        )
    if run.whatif_asked:
        parts.append(
            f"what-if asked {run.whatif_asked} {run.whatif_statuses}"
            f" p50 {fmt(run.whatif_p50_ms, 0)} p95 {fmt(run.whatif_p95_ms, 0)} ms"
        )
    if run.replays_opened:
        parts.append(
            f"replay opened -> analysed p50 {fmt(run.replay_to_analysis_p50, 1)}"
            f" max {fmt(run.replay_to_analysis_max, 1)} s"
            f" ({run.replays_opened} opened, {run.replays_unanswered} not in 60 s)"
        )
    if run.unfinished:
        parts.append(f"{run.unfinished} lost (not on all four sockets in {MOVE_TIMEOUT:g} s)")
    if run.errors:
        parts.append(f"errors {run.errors}")
    return "  " + " | ".join(parts)


COLUMNS = [
    ("config", 32),
    ("run", 10),
    ("daphne", 6),
    ("tables", 6),
    ("offered/s", 9),
    ("moves/s", 7),
    ("p50 ms", 7),
    ("p95 ms", 7),
    ("p99 ms", 7),
    ("relay/s", 7),
    ("relay p50", 9),
    ("relay p99", 9),
    ("p50/relay", 9),
    ("p99/relay", 9),
    ("queries/move", 12),
    ("trips/move", 10),
    ("CPU ms/move", 11),
    ("RSS/table", 9),
    ("srv CPU", 7),
    ("cli CPU", 7),
    ("machine", 7),
    ("lost", 4),
    ("errors", 6),
]


def summary(runs: list[Run]) -> str:
    head = " | ".join(name.rjust(width) for name, width in COLUMNS)
    lines = [head, "-" * len(head)]
    for run in runs:
        if run.target != "table":
            continue
        paced = run.mode == "paced"
        cells = [
            run.config,
            run.mode,
            str(run.daphnes),
            str(run.tables),
            fmt(run.offered, 1),
            fmt(run.sustained, 1),
            fmt(run.p50),
            fmt(run.p95),
            fmt(run.p99),
            fmt(run.relay_sustained, 0 if run.relay_sustained and run.relay_sustained > 99 else 1),
            fmt(run.relay_p50, 1),
            fmt(run.relay_p99, 1),
            ratio(run.p50, run.relay_p50) if paced else "",
            ratio(run.p99, run.relay_p99) if paced else "",
            fmt(run.queries_per_move, 1),
            fmt(run.trips_per_move, 1),
            fmt(run.cpu_ms_per_move, 1),
            fmt(run.rss_per_table_kb, 0, " KB"),
            fmt(run.server_cpu, 0, "%"),
            fmt(run.client_cpu, 0, "%"),
            fmt(run.machine_cpu, 0, "%"),
            str(run.unfinished),
            str(sum(run.errors.values())),
        ]
        lines.append(
            " | ".join(cell.rjust(width) for cell, (_n, width) in zip(cells, COLUMNS, strict=True))
        )
    lines += [
        "Latencies: moves only, until all four sockets of the table hold a newer snapshot;"
        " moves/s: every command that changed a table (moves and new_match), completed in"
        " the window; relay: the bare relay of the same process(es) and layer, same tables"
        " and pacing (saturation: closed loop, so its latencies are not a floor and no ratio"
        " is printed); CPU: % of one core (servers: the Daphne processes; machine: everything,"
        " other people's work included); CPU ms/move: the servers' CPU time per command;"
        " lost: moves some socket of the table had not"
        f" seen {MOVE_TIMEOUT:g} s later (then refreshed), warm-up included; errors: error"
        " replies (e.g. stale), warm-up included.",
    ]
    return "\n".join(lines)


def say_client_problems(stats: Stats) -> None:
    """What the client saw go wrong over the whole configuration."""
    if stats.closed:
        say(f"  sockets closed by the server or the network: {dict(stats.closed)}")
    if stats.errors:
        say(f"  error frames received: {dict(stats.errors)}")
        for code, message in stats.samples.items():
            say(f"    {code}: {message}")
    if stats.stuck:
        say(f"  sockets that never saw a move: {dict(stats.stuck)}")
    if stats.refreshes:
        say(f"  refreshes sent (after 'stale' or a lost move): {stats.refreshes}")
    if stats.pace_waits:
        say(f"  the client held back {stats.pace_waits} frames (flood limit)")
