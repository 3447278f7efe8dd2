"""One measured run: every table driven, the figures taken at the window's ends."""

from __future__ import annotations

import asyncio
import collections
import os
import statistics
import time
from typing import Any

from bench.loadbench.clients import Table
from bench.loadbench.common import DRAIN, MOVE_TIMEOUT, PERIOD, client_cpu, machine_cpu, percentile
from bench.loadbench.servers import Daphne
from bench.loadbench.stats import Run, _ms, server_stats


async def run_load(
    tables: list[Table],
    *,
    servers: list[Daphne],
    mode: str,
    warmup: float,
    seconds: float,
    label: Run,
) -> Run:
    perf0 = time.perf_counter()
    mono0 = time.monotonic()
    t_measure = perf0 + warmup
    t_end = t_measure + seconds
    deadline_end = mono0 + warmup + seconds + DRAIN
    latencies: list[float] = []
    between: list[float] = []
    completed = 0
    unfinished = 0
    errors: collections.Counter = collections.Counter()
    marks: dict[str, Any] = {}

    async def mark(name: str, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        marks[name] = (
            time.perf_counter(),
            client_cpu(),
            machine_cpu(),
            await asyncio.to_thread(server_stats, servers),
        )

    async def drive(table: Table, phase: float) -> None:
        nonlocal completed, unfinished
        next_at = perf0 + phase
        while True:
            if mode == "paced":
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            if time.perf_counter() >= t_end:
                return
            deadline = min(time.monotonic() + MOVE_TIMEOUT, deadline_end)
            outcome = await table.step(deadline)
            if outcome is None:  # nothing to do yet (should not happen for long)
                await asyncio.sleep(0.05)
                if mode == "paced":
                    next_at = time.perf_counter()
                continue
            kind, start, done, status = outcome
            in_window = t_measure <= start < t_end
            if status == "ok":
                if t_measure <= done < t_end:
                    completed += 1
                if in_window:
                    (latencies if kind == "move" else between).append(done - start)
            else:  # lost moves and errors count from the warm-up on: a lost move
                # stalls its table for MOVE_TIMEOUT, which lightens the load after
                if status == "timeout":
                    unfinished += 1
                    if in_window and kind == "move":  # censored: at least this long
                        latencies.append(done - start)
                else:
                    errors[status] += 1
            if status == "closed":
                return
            if mode == "paced":
                next_at = max(next_at + PERIOD, time.perf_counter())

    n = len(tables)
    drivers = [drive(t, PERIOD * i / n if mode == "paced" else 0.0) for i, t in enumerate(tables)]
    await asyncio.gather(
        *drivers, mark("start", t_measure), mark("end", t_end), return_exceptions=False
    )
    await asyncio.sleep(0.5)

    run = label
    run.seconds = seconds
    run.tables = n
    run.offered = n / PERIOD if mode == "paced" else None
    latencies.sort()
    run.samples, run.between_samples = latencies, between
    run.moves = len(latencies)
    run.p50, run.p95, run.p99 = (_ms(percentile(latencies, q)) for q in (0.50, 0.95, 0.99))
    between.sort()
    run.between = len(between)
    run.between_p50 = _ms(percentile(between, 0.5))
    run.unfinished = unfinished
    run.errors = dict(errors)
    if "start" in marks and "end" in marks:
        (t0, c0, m0, s0), (t1, c1, m1, s1) = marks["start"], marks["end"]
        wall = t1 - t0
        run.sustained = completed / wall if wall > 0 else 0.0
        run.client_cpu = 100 * (c1 - c0) / wall
        total = m1[0] - m0[0]
        run.machine_cpu = 100 * (1 - (m1[1] - m0[1]) / total) * os.cpu_count() if total else None
        if s0 and s1:
            # Rates over each server's own clock (a busy server answers /bench/stats
            # late), so that queries per move is not skewed by when it answered.
            pairs = list(zip(s0, s1, strict=True))
            spans = [max(1e-3, b["time"] - a["time"]) for a, b in pairs]
            run.server_cpu = 100 * sum(
                (b["cpu_seconds"] - a["cpu_seconds"]) / dt
                for (a, b), dt in zip(pairs, spans, strict=True)
            )
            query_rate, trip_rate = (
                sum((b[key] - a[key]) / dt for (a, b), dt in zip(pairs, spans, strict=True))
                for key in ("queries", "trips")
            )
            if "stalls" in s0[0]:
                run.stalls_50ms = sum(b["stalls"]["50"] - a["stalls"]["50"] for a, b in pairs)
                run.stalled_ms_per_s = 1000 * sum(
                    (b["stalled_seconds"] - a["stalled_seconds"]) / dt
                    for (a, b), dt in zip(pairs, spans, strict=True)
                )
            moves = sum(b["moves"] - a["moves"] for a, b in pairs)
            move_s = sum(b["move_seconds"] - a["move_seconds"] for a, b in pairs)
            if run.target == "table" and run.sustained:
                run.queries_per_move = query_rate / run.sustained
                run.trips_per_move = trip_rate / run.sustained
            if moves:
                run.ms_per_move = 1000 * move_s / moves
    sizes = [s.size for t in tables for s in t.socks if s.size]
    run.frame_bytes = statistics.median(sizes) if sizes else None
    return run
