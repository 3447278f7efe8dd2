"""The soak: paced tables for an hour on the Procfile's whole set, sampled every minute.

    python bench/soak.py                          # 150 tables, 60 minutes
    python bench/soak.py --minutes 10 --out /tmp/soak10
    python bench/soak.py --minutes 12 --trace     # tracemalloc snapshots (slower)
    python bench/soak.py --compare A.snap B.snap  # what grew between two snapshots

It reuses the load bench (``bench/loadbench``): the production configuration
(PostgreSQL database ``--database``, ``domino_soak``, dropped and migrated
afresh; the Redis channel layer, db 13, flushed), every process of the Procfile
but ``release`` (two Daphne processes serving the site's own
``domino_site.asgi:application``, not the bench's relay wrapper; the Celery
worker, the analysis worker, beat), and its tables: public ``duelo`` rooms of
two players and two watchers, one move a table every 2 s, a new match asked
for (and accepted) as soon as one ends, so that matches, rounds, moves and
analyses keep being written as on a site that plays.

Every minute it records, for each process (and each process of a Celery
worker's pool): resident memory (RSS), open file descriptors, sockets, TCP
connections to PostgreSQL and to Redis; the database's connections
(``pg_stat_activity``); the rows of every table of the database (exact);
the analysis jobs by state; the Redis db's keys, channel-layer groups and the
messages waiting in Celery's queues (lists ``celery`` and ``analysis``); and
the moves completed in that minute: count, p50 and p99 (from sending a move
until the table's four sockets hold the snapshot after it), errors and moves
not seen by all four sockets within 30 s; and the machine's load average and
CPU use (every process of the machine: on a shared box, other people's work
shows in the latencies). Minute 0 is the sample taken once
every table is open and started.

Output: a table printed as it goes, a summary at the end (each process' RSS at
minutes 1, 10, 30 and the last one, and its growth a minute after minute 10 by
least squares), ``--out PREFIX`` writes ``PREFIX.json`` (everything) and
``PREFIX.csv`` (one row a minute). With ``--trace`` every server process runs
tracemalloc from minute 1 (a ``sitecustomize`` on its path, told by SIGUSR2) and
dumps a snapshot every ``--trace-every`` minutes after it into ``PREFIX-trace/``
(``<pid>-<n>.snap``); ``--compare`` prints what grew between two of one process.
Nothing is asserted: a figure to read, on a machine that may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import csv
import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.loadbench.clients import DominoTable, Sock, open_socket, open_tables  # noqa: E402
from bench.loadbench.common import (  # noqa: E402
    MOVE_TIMEOUT,
    PERIOD,
    machine_cpu,
    percentile,
    raise_fd_limit,
    say,
)
from bench.loadbench.fleet import Fleet  # noqa: E402
from bench.loadbench.sampling import (  # noqa: E402
    Database,
    compare_snapshots,
    processes_sample,
    redis_figures,
    trace_sitecustomize,
)
from bench.loadbench.servers import (  # noqa: E402
    django_setup,
    prepare_storage,
    production_config,
)
from bench.loadbench.stats import Stats  # noqa: E402
from bench.loadbench.tables import create_tables  # noqa: E402

SITE_ASGI = "domino_site.asgi:application"
#: Tables printed every minute (all are in the JSON and CSV).
SHOWN_ROWS = ("games_match", "games_round", "games_move", "analysis_roundanalysis")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="domino_soak")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--out", help="write PREFIX.json and PREFIX.csv")
    parser.add_argument(
        "--reloads",
        type=int,
        default=10,
        help="each minute, this many tables' two watchers reload (close, open a new socket)",
    )
    parser.add_argument(
        "--replace",
        type=int,
        default=3,
        help="each minute, this many tables leave (four sockets closed) and as many new rooms open",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--trace", action="store_true", help="tracemalloc in every server")
    parser.add_argument("--trace-every", type=float, default=5.0, help="minutes")
    parser.add_argument(
        "--trace-procs",
        default="worker",
        help="with --trace: the processes traced (comma-separated names of the printed"
        " table, e.g. worker,daphne1; tracing a Daphne under full load slows it enough"
        " for its Redis connects to time out)",
    )
    parser.add_argument("--compare", nargs=2, metavar="SNAP", help="compare two snapshots")
    parser.add_argument(
        "--report", metavar="JSON", help="print a soak's JSON as Markdown tables (RESULTS.md)"
    )
    args = parser.parse_args(argv)
    args.without = ""
    return args


class Minutes:
    """The moves completed, bucketed by the minute they completed in."""

    def __init__(self, t0: float) -> None:
        self.t0 = t0
        self.buckets: dict[int, dict[str, Any]] = {}

    def bucket(self, at: float) -> dict[str, Any]:
        minute = int((at - self.t0) // 60) + 1  # minute 1 is the first 60 s
        return self.buckets.setdefault(
            minute, {"latencies": [], "between": 0, "errors": {}, "lost": 0, "closed": 0}
        )

    def record(self, kind: str, start: float, done: float, status: str) -> None:
        b = self.bucket(done)
        if status == "ok":
            if kind == "move":
                b["latencies"].append(done - start)
            else:
                b["between"] += 1
        elif status == "timeout":
            b["lost"] += 1
        elif status == "closed":
            b["closed"] += 1
        else:
            b["errors"][status] = b["errors"].get(status, 0) + 1

    def figures(self, minute: int) -> dict[str, Any]:
        b = self.buckets.get(minute) or {
            "latencies": [],
            "between": 0,
            "errors": {},
            "lost": 0,
            "closed": 0,
        }
        lat = sorted(b["latencies"])
        ms = [None if v is None else round(1000 * v, 1) for v in (percentile(lat, 0.5),)]
        p99 = percentile(lat, 0.99)
        return {
            "moves": len(lat),
            "p50_ms": ms[0],
            "p99_ms": None if p99 is None else round(1000 * p99, 1),
            "between": b["between"],
            "errors": b["errors"],
            "lost": b["lost"],
            "closed": b["closed"],
        }


class Churn:
    """People coming and going: watchers reloading their page, tables leaving and
    new rooms opening (so that what a server keeps per socket or per room is
    exercised, not only what it keeps for 150 sockets that never close)."""

    def __init__(self) -> None:
        self.reload: set[int] = set()  # tables (by index) whose watchers reload next
        self.leave: set[int] = set()  # tables that close their sockets at their next step
        self.reloaded = 0
        self.left = 0
        self.failed: dict[str, int] = {}

    def fail(self, exc: BaseException) -> None:
        key = f"{type(exc).__name__}: {str(exc)[:100]}"
        self.failed[key] = self.failed.get(key, 0) + 1


async def reload_watchers(table: DominoTable) -> None:
    """The table's two watchers reload their page: each socket closed, a new one opened."""
    table.closing = True  # our own closes are not counted as the server's
    try:
        for sock in table.socks[2:]:
            with contextlib.suppress(Exception):
                await sock.ws.close()
        await asyncio.gather(*table.tasks[2:], return_exceptions=True)
    finally:
        table.closing = False
    wss = await asyncio.gather(
        *(
            open_socket(
                f"ws://{srv.address}:{srv.port}/ws/rooms/{table.spec.code}/",
                f"http://{srv.address}:{srv.port}",
                cookie,
            )
            for srv, cookie in zip(table.servers[2:], table.spec.cookies[2:], strict=True)
        )
    )
    socks = [Sock(ws, table) for ws in wss]
    table.socks[2:] = socks
    table.tasks[2:] = [asyncio.create_task(table.reader(s)) for s in socks]
    await table.until(lambda: all(s.state is not None for s in table.socks), 60)


async def drive(
    table: DominoTable, phase: float, end: float, minutes: Minutes, churn: Churn | None = None
) -> None:
    """One table, one command every PERIOD (or as soon as the last one landed)."""
    next_at = time.perf_counter() + phase
    while True:
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        if time.perf_counter() >= end:
            return
        if churn is not None and table.index in churn.leave:
            churn.leave.discard(table.index)
            await table.close()
            churn.left += 1
            return
        if churn is not None and table.index in churn.reload:
            churn.reload.discard(table.index)
            try:
                await reload_watchers(table)
                churn.reloaded += 1
            except Exception as exc:  # noqa: BLE001 - counted; the table stops
                churn.fail(exc)
                return
        outcome = await table.step(time.monotonic() + MOVE_TIMEOUT)
        if outcome is None:
            await asyncio.sleep(0.05)
            next_at = time.perf_counter()
            continue
        minutes.record(*outcome)
        if outcome[3] == "closed":
            return
        next_at = max(next_at + PERIOD, time.perf_counter())


class Sampler:
    def __init__(self, fleet: Fleet, cfg: Any, trace_dir: Path | None) -> None:
        self.roots = {f"daphne{i + 1}": d.pid for i, d in enumerate(fleet.daphnes)}
        self.roots.update({name: p.pid for name, p in fleet.background.items()})
        self.db = Database(cfg.database_url)
        self.redis_url = cfg.redis_url
        self.trace_dir = trace_dir

    def sample(self) -> dict[str, Any]:
        return {
            "processes": processes_sample(self.roots),
            "db_connections": self.db.connections(),
            "rows": self.db.row_counts(),
            "analysis_jobs": self.db.grouped("analysis_analysisjob", "state"),
            "redis": redis_figures(self.redis_url),
        }

    def snapshot(self, names: set[str]) -> None:
        """SIGUSR2 to the processes called ``names`` (--trace: the first starts
        tracing, each later one dumps a snapshot)."""
        for name, figures in processes_sample(self.roots).items():
            if name in names:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(figures["pid"], signal.SIGUSR2)


def mb(kb: int | None) -> str:
    return "-" if kb is None else f"{kb / 1024:.0f}"


def say_header(sample: dict[str, Any]) -> None:
    procs = " ".join(f"{name[:10]:>10}" for name in sample["processes"])
    rows = " ".join(f"{name.split('_', 1)[1][:8]:>8}" for name in SHOWN_ROWS)
    say(
        f"{'min':>4} {'tbl':>4} {'moves':>6} {'p50':>6} {'p99':>6} {'lost':>4}"
        f" | RSS MB/fds: {procs} | db {rows}"
    )


def say_row(entry: dict[str, Any]) -> None:
    m = entry["moves"]
    procs = " ".join(
        f"{mb(p['rss_kb']) + '/' + str(p['fds']):>10}" for p in entry["processes"].values()
    )
    rows = " ".join(f"{entry['rows'].get(name, 0):>8}" for name in SHOWN_ROWS)
    p50 = "-" if m["p50_ms"] is None else f"{m['p50_ms']:.0f}"
    p99 = "-" if m["p99_ms"] is None else f"{m['p99_ms']:.0f}"
    say(
        f"{entry['minute']:>4} {entry.get('tables_playing', 0):>4} {m['moves']:>6} {p50:>6}"
        f" {p99:>6} {m['lost']:>4} | {procs}"
        f" | {entry['db_connections']['total']:>2} {rows}"
    )


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (x, y) points; None with fewer than three."""
    if len(points) < 3:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else None


def summary(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Per process: RSS, fds and sockets at minutes 1, 10, 30 and the last, and RSS
    growth (KB a minute) after minute 10; the same for DB connections and rows."""
    last = entries[-1]["minute"]
    marks = sorted({m for m in (0, 1, 10, 30, last) if any(e["minute"] == m for e in entries)})
    at = {e["minute"]: e for e in entries}
    after = [e for e in entries if e["minute"] >= 10]
    out: dict[str, Any] = {"marks": marks, "processes": {}, "rows": {}}
    for name in entries[-1]["processes"]:
        fig = {}
        for key in ("rss_kb", "fds", "sockets", "pg", "redis"):
            fig[key] = {m: at[m]["processes"].get(name, {}).get(key) for m in marks}
        points = [
            (e["minute"], e["processes"][name]["rss_kb"])
            for e in after
            if name in e["processes"] and e["processes"][name]["rss_kb"] is not None
        ]
        fig["rss_kb_per_min_after_10"] = slope(points)
        out["processes"][name] = fig
    out["db_connections"] = {m: at[m]["db_connections"]["total"] for m in marks}
    for table in entries[-1]["rows"]:
        out["rows"][table] = {m: at[m]["rows"].get(table) for m in marks}
    out["moves"] = {m: at[m]["moves"] for m in marks if m}
    out["redis"] = {m: at[m]["redis"] for m in marks}
    return out


def say_summary(s: dict[str, Any]) -> None:
    marks = s["marks"]
    say(f"\n== summary at minutes {marks}")
    for name, fig in s["processes"].items():
        rss = " ".join(mb(v) for v in fig["rss_kb"].values())
        growth = fig["rss_kb_per_min_after_10"]
        grows = "-" if growth is None else f"{growth:+.0f} KB/min"
        fds = " ".join(str(v) for v in fig["fds"].values())
        socks = " ".join(str(v) for v in fig["sockets"].values())
        say(f"  {name:<12} RSS MB {rss} (after 10: {grows}); fds {fds}; sockets {socks}")
    say(f"  db connections {' '.join(str(v) for v in s['db_connections'].values())}")
    for table, counts in s["rows"].items():
        values = list(counts.values())
        if len(set(values)) > 1:
            say(f"  rows {table:<32} {' '.join(str(v) for v in values)}")
    for m, fig in s["moves"].items():
        say(f"  minute {m}: {fig['moves']} moves, p50 {fig['p50_ms']} ms, p99 {fig['p99_ms']} ms")


def report(path: str, marks: tuple[int, ...] = (1, 10, 30, 60)) -> list[str]:
    """Markdown tables of a soak's JSON: each process at ``marks`` (and its RSS
    growth after minute 10), the minute's moves and the shared parts, the rows
    of every table that grew."""
    data = json.loads(Path(path).read_text())
    entries = {e["minute"]: e for e in data["minutes"]}
    marks = tuple(m for m in marks if m in entries)
    s = summary(data["minutes"])
    head = " | ".join(f"min {m}" for m in marks)
    rule = "|---" * (len(marks) + 2) + "|"
    lines = ["| process | figure | " + head + " |", rule]
    for name, fig in s["processes"].items():
        at = {m: entries[m]["processes"].get(name, {}) for m in marks}
        growth = fig["rss_kb_per_min_after_10"]
        grows = "" if growth is None else f" ({growth:+.0f} KB/min after min 10)"
        lines.append(
            f"| {name} | RSS MB{grows} | "
            + " | ".join(mb(at[m].get("rss_kb")) for m in marks)
            + " |"
        )
        lines.append(
            f"| {name} | fds / sockets / to PG / to Redis | "
            + " | ".join(
                f"{at[m].get('fds')} / {at[m].get('sockets')} / {at[m].get('pg')} / {at[m].get('redis')}"
                for m in marks
            )
            + " |"
        )
    lines += ["", "| minute | " + head + " |", "|---" * (len(marks) + 1) + "|"]

    def row(label: str, value: Any) -> None:
        lines.append(f"| {label} | " + " | ".join(str(value(entries[m])) for m in marks) + " |")

    row("moves completed in the minute", lambda e: e["moves"]["moves"])
    row("p50 / p99 ms", lambda e: f"{e['moves']['p50_ms']} / {e['moves']['p99_ms']}")
    row("moves lost (30 s) / errors", lambda e: f"{e['moves']['lost']} / {e['moves']['errors']}")
    row("tables playing", lambda e: e.get("tables_playing"))
    row("database connections", lambda e: e["db_connections"]["total"])
    row("Redis keys / layer groups", lambda e: f"{e['redis']['keys']} / {e['redis']['groups']}")
    row(
        "broker lists celery / analysis; unacked",
        lambda e: (
            f"{e['redis'].get('queue_celery')} / {e['redis'].get('queue_analysis')};"
            f" {e['redis'].get('unacked')}"
        ),
    )
    row("analysis jobs by state", lambda e: e.get("analysis_jobs"))
    row(
        "machine: load (1 min), CPU %",
        lambda e: f"{e.get('loadavg_1min')}, {e.get('machine_cpu_pct')}",
    )
    lines += ["", "| rows | min 0 | " + head + " |", "|---" * (len(marks) + 2) + "|"]
    first = data["minutes"][0]["rows"]
    for table in sorted(entries[marks[-1]]["rows"]):
        counts = [entries[m]["rows"].get(table) for m in marks]
        if len({first.get(table), *counts}) > 1:
            lines.append(f"| {table} | {first.get(table)} | " + " | ".join(map(str, counts)) + " |")
    return lines


def write(out: str, meta: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(f"{out}.json").write_text(
        json.dumps({**meta, "minutes": entries, "summary": summary(entries)}, indent=1)
    )
    procs = list(entries[-1]["processes"])
    tables = sorted(entries[-1]["rows"])
    with open(f"{out}.csv", "w", newline="") as f:
        w = csv.writer(f)
        head = ["minute", "moves", "p50_ms", "p99_ms", "lost", "errors", "db_connections"]
        for p in procs:
            head += [f"{p}_rss_kb", f"{p}_fds", f"{p}_sockets", f"{p}_pg", f"{p}_redis"]
        head += ["redis_keys", "redis_groups", "queue_celery", "queue_analysis"]
        head += [f"rows_{t}" for t in tables]
        w.writerow(head)
        for e in entries:
            m = e["moves"]
            row = [e["minute"], m["moves"], m["p50_ms"], m["p99_ms"], m["lost"]]
            row += [sum(m["errors"].values()), e["db_connections"]["total"]]
            for p in procs:
                fig = e["processes"].get(p, {})
                row += [fig.get(k) for k in ("rss_kb", "fds", "sockets", "pg", "redis")]
            redis = e["redis"]
            row += [redis["keys"], redis["groups"]]
            row += [redis.get("queue_celery"), redis.get("queue_analysis")]
            row += [e["rows"].get(t) for t in tables]
            w.writerow(row)


async def soak(args: argparse.Namespace, fleet: Fleet, cfg: Any, meta: dict[str, Any]) -> None:
    stats = Stats()
    rng = random.Random(args.seed)
    specs = await asyncio.to_thread(create_tables, args.tables)
    tables = [
        DominoTable(i, stats, spec, random.Random(rng.random())) for i, spec in enumerate(specs)
    ]
    opened = await open_tables(tables, fleet.daphnes, 0)
    say(f"  {len(opened)} of {args.tables} tables open and started")
    trace_dir = Path(f"{args.out}-trace") if args.trace and args.out else None
    sampler = Sampler(fleet, cfg, trace_dir)
    entries: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    end = t0 + 60 * args.minutes
    minutes = Minutes(t0)
    cpu_mark = machine_cpu()  # the whole machine's, other people's work included
    churn = Churn()
    live = {t.index: t for t in opened}
    drivers = [
        asyncio.create_task(drive(t, PERIOD * i / len(opened), end, minutes, churn))
        for i, t in enumerate(opened)
    ]
    everyone = list(opened)  # every table ever opened, to close at the end
    next_index = args.tables
    try:
        count = int(round(args.minutes))
        for minute in range(count + 1):
            await asyncio.sleep(max(0.0, t0 + 60 * minute - time.perf_counter()))
            entry = {"minute": minute, "t": round(time.perf_counter() - t0, 1)}
            entry.update(await asyncio.to_thread(sampler.sample))
            entry["moves"] = minutes.figures(minute)
            entry["closed_sockets"] = dict(stats.closed)
            entry["tables_playing"] = len(live)
            entry["loadavg_1min"] = round(os.getloadavg()[0], 2)
            total, idle = machine_cpu()
            entry["machine_cpu_pct"] = (
                round(
                    100 * (1 - (idle - cpu_mark[1]) / (total - cpu_mark[0])) * (os.cpu_count() or 1)
                )
                if total > cpu_mark[0]
                else None
            )
            cpu_mark = (total, idle)
            entry["churn"] = {
                "reloaded": churn.reloaded,
                "left": churn.left,
                "failed": dict(churn.failed),
            }
            entries.append(entry)
            if minute == 0:
                say_header(entry)
            say_row(entry)
            # --trace: tracing starts at minute 1, snapshots every --trace-every after it
            if trace_dir is not None and (
                minute == 1 or (minute > 1 and (minute - 1) % max(1, int(args.trace_every)) == 0)
            ):
                sampler.snapshot(set(args.trace_procs.split(",")))
            if args.out:
                write(args.out, meta, entries)
            if minute < count:
                # This minute's comings and goings (picked among the tables that play).
                playing = [i for i, t in live.items() if not any(s.closed for s in t.socks)]
                leaving = rng.sample(playing, min(args.replace, len(playing)))
                churn.leave.update(leaving)
                for i in leaving:
                    live.pop(i, None)
                staying = [i for i in playing if i not in churn.leave]
                churn.reload.update(rng.sample(staying, min(args.reloads, len(staying))))
                if args.replace:
                    new_specs = await asyncio.to_thread(create_tables, args.replace)
                    new = [
                        DominoTable(next_index + j, stats, spec, random.Random(rng.random()))
                        for j, spec in enumerate(new_specs)
                    ]
                    next_index += len(new)
                    for t in await open_tables(new, fleet.daphnes, 0):
                        live[t.index] = t
                        everyone.append(t)
                        drivers.append(
                            asyncio.create_task(
                                drive(t, rng.random() * PERIOD, end, minutes, churn)
                            )
                        )
    finally:
        for task in drivers:
            task.cancel()
        await asyncio.gather(*drivers, return_exceptions=True)
        for i in range(0, len(everyone), 50):
            await asyncio.gather(*(t.close() for t in everyone[i : i + 50]))
        sampler.db.close()
    s = summary(entries)
    say_summary(s)
    if stats.errors or stats.closed:
        say(f"  client: errors {dict(stats.errors)}, sockets closed {dict(stats.closed)}")


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.compare:
        print("\n".join(compare_snapshots(*args.compare)))
        return 0
    if args.report:
        print("\n".join(report(args.report)))
        return 0
    raise_fd_limit()
    cfg = production_config(args)
    cfg.asgi = SITE_ASGI
    if args.trace:
        if not args.out:
            raise SystemExit("--trace needs --out (the snapshots go to PREFIX-trace/)")
        trace_dir = Path(f"{args.out}-trace").resolve()
        trace_dir.mkdir(parents=True, exist_ok=True)
        site_dir = trace_sitecustomize(cfg.tmp / "trace-site")
        plain_env = cfg.server_env

        def traced_env() -> dict[str, str]:
            env = plain_env()
            env["PYTHONPATH"] = f"{site_dir.parent}:{env['PYTHONPATH']}"
            env["SOAK_TRACE_DIR"] = str(trace_dir)
            return env

        cfg.server_env = traced_env  # type: ignore[method-assign]
    command = " ".join(["python", "bench/soak.py", *(argv if argv is not None else sys.argv[1:])])
    meta = {
        "command": command,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "tables": args.tables,
        "minutes_asked": args.minutes,
        "database": cfg.database_url,
        "redis": cfg.redis_url,
        "cpus": os.cpu_count(),
        "loadavg_start": os.getloadavg(),
    }
    say(f"== soak: {args.tables} tables, {args.minutes:g} min, {cfg.database_url}, {cfg.redis_url}")
    fleet = Fleet(cfg)

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    try:
        prepare_storage(cfg)
        django_setup(cfg)
        fleet.start()
        say("  processes: " + ", ".join(f"{p.name} {p.pid}" for p in fleet.procs))
        asyncio.run(soak(args, fleet, cfg, meta))
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        fleet.report_deaths()
        fleet.stop()
        fleet.report_logs()
        say(f"  server logs in {cfg.tmp}; load average at the end {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
