"""One configuration: its servers, its tables opened step by step, its runs."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import signal
import time

from bench.loadbench.clients import configure as configure_clients
from bench.loadbench.common import (
    PERIOD,
    postgres_problem,
    process_cpu,
    raise_fd_limit,
    redis_problem,
    say,
)
from bench.loadbench.fleet import Fleet
from bench.loadbench.observers import AnalysisProbe, LobbyMeter, queue_depth
from bench.loadbench.pool import TablePool
from bench.loadbench.report import describe, say_client_problems
from bench.loadbench.runs import run_load
from bench.loadbench.servers import (
    Config,
    Daphne,
    django_setup,
    embedded_config,
    prepare_storage,
    production_config,
)
from bench.loadbench.stats import Run, Stats, merged


class Bench:
    """The runs of one configuration, on tables opened step by step."""

    def __init__(self, cfg: Config, args: argparse.Namespace) -> None:
        self.cfg = cfg
        self.args = args
        self.fleet = Fleet(cfg)
        self.stats = Stats()
        self.pool = TablePool(self.fleet, self.stats, random.Random(args.seed), args.no_relay)
        self.runs: list[Run] = []
        self.frame_bytes: float | None = None  # median snapshot size of the last run
        self.lobby = LobbyMeter()
        self.probe: AnalysisProbe | None = None

    # -- runs
    async def run(self, tables, *, servers, mode, target, warmup, seconds) -> Run:
        await self.fleet.settle(servers)
        label = Run(
            config=self.cfg.label,
            mode=mode,
            target=target,
            daphnes=len(servers),
            tables=len(tables),
            seconds=seconds,
        )
        seen = [0]
        probe = asyncio.create_task(self.fleet.largest_inbox(seen)) if self.cfg.redis_url else None
        extras, beside = self.watchers(target)
        try:
            run = await run_load(
                tables,
                servers=servers,
                mode=mode,
                warmup=warmup,
                seconds=seconds,
                label=label,
                extras=extras,
                beside=beside,
            )
            if target == "table" and self.probe is not None:
                for name, value in self.probe.figures().items():
                    setattr(run, name, value)
        finally:
            if probe is not None:
                probe.cancel()
                with contextlib.suppress(BaseException):
                    await probe
                label.inbox_max = seen[0]
        await asyncio.sleep(1.0)  # let stragglers land before the next run
        return run

    def storage_cpu(self) -> dict[str, float]:
        """With --hosts: the CPU seconds of every process on the ``db`` and
        ``redis`` hosts (PostgreSQL's backends come and go; the namespace holds
        them all), reported beside the background processes."""
        hosts = self.cfg.hosts
        if not hosts:
            return {}
        import subprocess

        cpu = {}
        for role in ("db", "redis"):
            pids = subprocess.run(
                ["ip", "netns", "pids", hosts[role]], capture_output=True, text=True
            ).stdout.split()
            cpu[role] = sum(process_cpu(int(pid)) for pid in pids)
        return cpu

    def storage_counts(self) -> dict[str, float]:
        """With --hosts: Redis' commands processed, PostgreSQL's commits and rows
        written in the bench's database, so far (the hosts' servers are the
        bench's alone; on the loopback they are shared, so nothing is read)."""
        if not self.cfg.hosts:
            return {}
        try:
            import psycopg
            import redis

            info = redis.Redis.from_url(self.cfg.redis_url, socket_timeout=5).info("stats")
            with psycopg.connect(self.cfg.database_url, autocommit=True) as db:
                row = db.execute(
                    "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted"
                    " FROM pg_stat_database WHERE datname = current_database()"
                ).fetchone()
            return {
                "redis_cmds": float(info["total_commands_processed"]),
                "pg_commits": float(row[0]),
                "pg_rows_written": float(row[1]),
            }
        except Exception:  # noqa: BLE001 - a diagnostic only
            return {}

    def watchers(self, target: str) -> tuple[dict, list]:
        """What a table run reads at its window's ends (the lobby sockets' bytes,
        the background processes' CPU) and runs over it (the analysis probe)."""
        background = self.fleet.background
        extras = {
            "lobby": self.lobby.counters,
            "lobby_sockets": lambda: dict(self.lobby.count),
            "background": lambda: {
                **{name: process_tree_cpu(p.pid) for name, p in background.items()},
                **self.storage_cpu(),
            },
            "storage": self.storage_counts,
        }
        if target != "table" or self.probe is None:
            return extras, []
        probe = self.probe

        async def watch(start: float, end: float) -> None:
            await asyncio.sleep(max(0.0, start - time.perf_counter()))
            probe.reset()
            await probe.watch(end)

        return extras, [watch]

    async def open_observers(self) -> None:
        """The lobby sockets and the analysis probe, once the first tables exist
        (a watcher's session is theirs)."""
        if self.probe is not None or not self.pool.domino:
            return
        cookie = self.pool.domino[0].spec.cookies[2]
        await self.lobby.open(self.args.lobby, self.args.lobby_bare, self.fleet.daphnes, cookie)
        if analysis_installed():
            self.probe = AnalysisProbe(
                self.fleet.daphnes, cookie, self.args.open_every, self.args.whatif_every
            )

    async def main(self) -> None:
        args = self.args
        say(
            f"== {self.cfg.name}: {self.cfg.daphnes} daphne, database {self.cfg.database_url}"
            f", channel layer {'redis ' + self.cfg.redis_url if self.cfg.redis_url else 'in-memory'}"
            f", scheduler {'celery worker' if self.cfg.redis_url else 'in-process'}"
        )
        servers = self.fleet.daphnes
        for count in sorted(set(args.tables)):
            await self.paced(count, servers)
            await self.drained()
        if args.sat_tables:
            await self.saturation(servers)
            if len(servers) > 1 and not args.no_one_daphne:
                await self.saturation_on_one(servers[:1])

    async def drained(self, limit: float = 120.0) -> None:
        """After a paced run, with the tables still: how long until the analysis
        queue is empty (said, and kept on the run)."""
        if self.probe is None or not self.runs:
            return
        started = time.monotonic()
        depth = await asyncio.to_thread(queue_depth)
        while depth and time.monotonic() - started < limit:
            await asyncio.sleep(1.0)
            depth = await asyncio.to_thread(queue_depth)
        waited = time.monotonic() - started
        self.runs[-1].analysis_drained_s = waited if depth == 0 else None
        say(
            f"  analysis queue {'drained' if depth == 0 else f'still {depth}'} after {waited:.0f} s"
        )

    async def paced(self, count: int, servers: list[Daphne]) -> None:
        """A paced run on the first ``count`` tables (opened first if need be)."""
        await self.pool.grow_to(count, servers)
        await self.open_observers()
        run = await self.run_pair(
            self.pool.domino[:count],
            self.pool.relay[:count],
            servers=servers,
            mode="paced",
            seconds=self.args.seconds,
            rss_per_table_kb=self.pool.rss_growth / len(self.pool.domino)
            if self.pool.domino
            else None,
        )
        self.frame_bytes = run.frame_bytes

    async def saturation(self, servers: list[Daphne]) -> None:
        """Saturation on the first ``--sat-tables`` tables, spread over ``servers``."""
        k = self.args.sat_tables
        await self.pool.grow_to(k, servers)
        await self.run_pair(
            self.pool.domino[:k],
            self.pool.relay[:k],
            servers=servers,
            mode="saturation",
            seconds=self.args.sat_seconds,
        )

    async def saturation_on_one(self, one: list[Daphne]) -> None:
        """Saturation on as many new tables, all on one Daphne process."""
        k = self.args.sat_tables
        say(f"  saturation on one daphne: {k} more tables, all on :{one[0].port}")
        relays = await self.pool.add_relay(k, one)
        opened, growth = await self.pool.add_domino(k, one)
        await self.run_pair(
            opened[:k],
            relays[:k],
            servers=one,
            mode="saturation",
            seconds=self.args.sat_seconds,
            rss_per_table_kb=growth / len(opened) if opened else None,
        )

    async def run_pair(
        self, tables, relays, *, servers, mode, seconds, rss_per_table_kb=None
    ) -> Run:
        """A relay run on `relays` (padded like the snapshots), then a table run on
        `tables` for `seconds`, in one mode on the same servers: each said as it ends
        and both kept; the table run, which carries the relay's figures, is returned."""
        # Paced, the relay and the tables take turns in slices, so that a drift of
        # the machine (other work, the host) weighs on both sides of the ratio.
        slices = max(1, self.args.slices) if mode == "paced" else 1
        relay_parts: list[Run] = []
        table_parts: list[Run] = []
        for i in range(slices):
            if i and table_parts[-1].frame_bytes:
                self.frame_bytes = table_parts[-1].frame_bytes  # the frames just seen
            if not self.args.no_relay:
                self.pool.pad_relay(relays, self.frame_bytes, self.args.relay_bytes)
                relay_parts.append(
                    await self.slice(
                        relays,
                        "relay",
                        servers,
                        mode,
                        again=i > 0,
                        seconds=self.args.relay_seconds / slices,
                    )
                )
            table_parts.append(
                await self.slice(
                    tables, "table", servers, mode, again=i > 0, seconds=seconds / slices
                )
            )
        return self.keep(table_parts, relay_parts, rss_per_table_kb)

    async def slice(self, group, target, servers, mode, *, again: bool, seconds: float) -> Run:
        """One slice of a pair; once warm, only the pacing starts again."""
        if again:
            warmup = PERIOD
        else:
            warmup = self.args.relay_warmup if target == "relay" else self.args.warmup
        return await self.run(
            group, servers=servers, mode=mode, target=target, warmup=warmup, seconds=seconds
        )

    def keep(self, table_parts: list[Run], relay_parts: list[Run], rss_per_table_kb) -> Run:
        """Merge a pair's slices, say them and keep them; the table run carries the
        relay's figures."""
        run = merged(table_parts)
        if relay_parts:
            relay = merged(relay_parts)
            say(describe(relay))
            run.relay_p50, run.relay_p99 = relay.p50, relay.p99
            run.relay_sustained = relay.sustained
            self.runs.append(relay)
        run.rss_per_table_kb = rss_per_table_kb
        say(describe(run))
        self.runs.append(run)
        return run


def analysis_installed() -> bool:
    """Whether the code under test analyses rounds (older checkouts do not)."""
    from django.apps import apps

    return apps.is_installed("analysis")


def process_tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its children (a Celery worker's pool)."""
    total = process_cpu(pid)
    try:
        children = open(f"/proc/{pid}/task/{pid}/children").read().split()
    except OSError:
        children = []
    return total + sum(process_tree_cpu(int(child)) for child in children)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def configured(name: str, args: argparse.Namespace) -> Config | None:
    """The configuration called ``name``, or None (said why) when its services are absent."""
    if name != "production":
        return embedded_config(args)
    problem = postgres_problem(f"{args.pg.rstrip('/')}/postgres") or redis_problem(args.redis)
    if problem:
        say(f"== production: skipped: {problem}")
        return None
    return production_config(args)


def run_config(name: str, args: argparse.Namespace) -> list[Run]:
    raise_fd_limit()
    cfg = configured(name, args)
    if cfg is None:
        return []
    cfg.variant = args.variant
    layout, client = getattr(args, "layout", "spread"), getattr(args, "client", "bench")
    configure_clients(layout=layout, client=client)
    if (layout, client) != ("spread", "bench"):
        cfg.name += f"[{layout},{client}]"
    bench = Bench(cfg, args)
    fleet = bench.fleet

    signal.signal(signal.SIGTERM, _interrupt)  # a kill of the bench still stops its servers
    started = time.monotonic()
    interrupted = False
    try:
        prepare_storage(cfg)
        django_setup(cfg)
        fleet.start()

        async def go() -> None:
            try:
                await bench.main()
            finally:
                with contextlib.suppress(Exception):
                    await bench.lobby.close()
                    await asyncio.wait_for(bench.pool.close_all(), 20)
                    # the servers' disconnect work ends before they are stopped
                    await fleet.settle(fleet.daphnes, limit=20)

        asyncio.run(go())
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        # A second Ctrl-C must not cut the clean-up short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if not interrupted:
            fleet.report_deaths()
        fleet.stop()
        fleet.report_logs()
        say_client_problems(bench.stats)
        keep_logs(cfg, fleet.any_problems())
        say(f"== {cfg.name}: {time.monotonic() - started:.0f} s")
    return bench.runs


def keep_logs(cfg: Config, problems: bool) -> None:
    """Keep the servers' logs (not their database) when they hold errors."""
    if problems:
        for path in cfg.tmp.glob("*.sqlite3*"):
            path.unlink()
        say(f"  server logs kept in {cfg.tmp}")
    else:
        shutil.rmtree(cfg.tmp, ignore_errors=True)
