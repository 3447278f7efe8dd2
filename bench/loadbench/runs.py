"""One measured run: every table driven, the figures taken at the window's ends."""

from __future__ import annotations

import asyncio
import collections
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bench.loadbench.clients import Table
from bench.loadbench.common import DRAIN, MOVE_TIMEOUT, PERIOD, client_cpu, machine_cpu, percentile
from bench.loadbench.servers import Daphne
from bench.loadbench.stats import Run, _ms, histogram_figures, move_histogram, server_stats


@dataclass
class Window:
    """One run's clock and what its drivers counted."""

    mode: str
    perf0: float
    t_measure: float
    t_end: float
    deadline_end: float
    latencies: list[float] = field(default_factory=list)
    between: list[float] = field(default_factory=list)
    completed: int = 0
    unfinished: int = 0
    errors: collections.Counter = field(default_factory=collections.Counter)
    marks: dict[str, Any] = field(default_factory=dict)

    def record(self, kind: str, start: float, done: float, status: str) -> None:
        in_window = self.t_measure <= start < self.t_end
        if status == "ok":
            if self.t_measure <= done < self.t_end:
                self.completed += 1
            if in_window:
                (self.latencies if kind == "move" else self.between).append(done - start)
        else:  # lost moves and errors count from the warm-up on: a lost move
            # stalls its table for MOVE_TIMEOUT, which lightens the load after
            if status == "timeout":
                self.unfinished += 1
                if in_window and kind == "move":  # censored: at least this long
                    self.latencies.append(done - start)
            else:
                self.errors[status] += 1


async def mark(
    window: Window, name: str, at: float, servers: list[Daphne], extras: dict[str, Any]
) -> None:
    """The counters at ``at``: the clock, the CPU, the servers' and ``extras``'
    (name -> a callable read there)."""
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    window.marks[name] = (
        time.perf_counter(),
        client_cpu(),
        machine_cpu(),
        await asyncio.to_thread(server_stats, servers),
    )
    window.marks[f"{name}:extras"] = {key: read() for key, read in extras.items()}
    window.marks[f"{name}:histogram"] = await asyncio.to_thread(move_histogram, servers)


async def drive(window: Window, table: Table, phase: float) -> None:
    paced = window.mode == "paced"
    next_at = window.perf0 + phase
    while True:
        if paced:
            delay = next_at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        if time.perf_counter() >= window.t_end:
            return
        deadline = min(time.monotonic() + MOVE_TIMEOUT, window.deadline_end)
        outcome = await table.step(deadline)
        if outcome is None:  # nothing to do yet (should not happen for long)
            await asyncio.sleep(0.05)
            if paced:
                next_at = time.perf_counter()
            continue
        window.record(*outcome)
        if outcome[3] == "closed":
            return
        if paced:
            next_at = max(next_at + PERIOD, time.perf_counter())


async def run_load(
    tables: list[Table],
    *,
    servers: list[Daphne],
    mode: str,
    warmup: float,
    seconds: float,
    label: Run,
    extras: dict[str, Any] | None = None,
    beside: list[Any] | None = None,
) -> Run:
    """Drive ``tables`` for a warm-up and ``seconds`` measured; ``extras`` are
    read at both ends of the window, ``beside`` are coroutine functions run
    over the window (given its end, perf_counter)."""
    extras = extras or {}
    perf0 = time.perf_counter()
    mono0 = time.monotonic()
    t_measure = perf0 + warmup
    window = Window(
        mode=mode,
        perf0=perf0,
        t_measure=t_measure,
        t_end=t_measure + seconds,
        deadline_end=mono0 + warmup + seconds + DRAIN,
    )
    n = len(tables)
    drivers = [
        drive(window, t, PERIOD * i / n if mode == "paced" else 0.0) for i, t in enumerate(tables)
    ]
    await asyncio.gather(
        *drivers,
        mark(window, "start", t_measure, servers, extras),
        mark(window, "end", window.t_end, servers, extras),
        *(watch(t_measure, window.t_end) for watch in beside or ()),
        return_exceptions=False,
    )
    await asyncio.sleep(0.5)
    run = label
    run.seconds = seconds
    run.tables = n
    run.offered = n / PERIOD if mode == "paced" else None
    client_figures(run, window)
    if "start" in window.marks and "end" in window.marks:
        rate_figures(run, window)
        extra_figures(run, window)
        h0, h1 = window.marks.get("start:histogram"), window.marks.get("end:histogram")
        if h0 is not None and h1 is not None:
            run.server_buckets = {le: n - h0.get(le, 0.0) for le, n in h1.items()}
            histogram_figures(run)
    sizes = [s.size for t in tables for s in t.socks if s.size]
    run.frame_bytes = statistics.median(sizes) if sizes else None
    return run


def client_figures(run: Run, window: Window) -> None:
    """The latencies and counts the client saw."""
    latencies, between = window.latencies, window.between
    latencies.sort()
    run.samples, run.between_samples = latencies, between
    run.moves = len(latencies)
    run.p50, run.p95, run.p99 = (_ms(percentile(latencies, q)) for q in (0.50, 0.95, 0.99))
    between.sort()
    run.between = len(between)
    run.between_p50 = _ms(percentile(between, 0.5))
    run.unfinished = window.unfinished
    run.errors = dict(window.errors)


def rate_figures(run: Run, window: Window) -> None:
    """Throughput and CPU between the window's two marks."""
    (t0, c0, m0, s0), (t1, c1, m1, s1) = window.marks["start"], window.marks["end"]
    wall = t1 - t0
    run.sustained = window.completed / wall if wall > 0 else 0.0
    run.client_cpu = 100 * (c1 - c0) / wall
    total = m1[0] - m0[0]
    run.machine_cpu = 100 * (1 - (m1[1] - m0[1]) / total) * os.cpu_count() if total else None
    if s0 and s1:
        server_figures(run, list(zip(s0, s1, strict=True)))


def extra_figures(run: Run, window: Window) -> None:
    """The lobby sockets' bytes and the background processes' CPU over the window."""
    (t0, *_), (t1, *_) = window.marks["start"], window.marks["end"]
    e0, e1 = window.marks["start:extras"], window.marks["end:extras"]
    wall = max(1e-3, t1 - t0)
    if "lobby" in e0:
        sockets = e0["lobby_sockets"]
        run.lobby_sockets = sockets["view"]
        if sockets["view"]:
            run.lobby_bytes_per_s = (
                (e1["lobby"]["view"] - e0["lobby"]["view"]) / wall / sockets["view"]
            )
        if sockets["bare"]:
            run.lobby_bare_bytes_per_s = (
                (e1["lobby"]["bare"] - e0["lobby"]["bare"]) / wall / sockets["bare"]
            )
    if e0.get("storage") and e1.get("storage"):
        run.storage_rates = {
            name: (e1["storage"][name] - count) / wall for name, count in e0["storage"].items()
        }
    if "background" in e0:
        run.background_cpu = {
            name: 100 * (e1["background"][name] - cpu) / wall
            for name, cpu in e0["background"].items()
        }


def server_figures(run: Run, pairs: list[tuple[dict, dict]]) -> None:
    """The servers' counters (``/bench/stats`` at both marks) as rates."""
    # Rates over each server's own clock (a busy server answers /bench/stats
    # late), so that queries per move is not skewed by when it answered.
    spans = [max(1e-3, b["time"] - a["time"]) for a, b in pairs]

    def rate(key: str) -> float:
        return sum((b[key] - a[key]) / dt for (a, b), dt in zip(pairs, spans, strict=True))

    run.server_cpu = 100 * rate("cpu_seconds")
    first = pairs[0][0]
    if "stalls" in first:
        run.stalls_50ms = sum(b["stalls"]["50"] - a["stalls"]["50"] for a, b in pairs)
        run.stalled_ms_per_s = 1000 * rate("stalled_seconds")
    if run.target == "table" and run.sustained:
        run.queries_per_move = rate("queries") / run.sustained
        run.trips_per_move = rate("trips") / run.sustained
    if run.target == "table" and run.sustained and run.server_cpu is not None:
        # The servers' CPU (from /proc) per command: what a move costs the
        # deployment, with no hook in the product to time it.
        run.cpu_ms_per_move = 10 * run.server_cpu / run.sustained
