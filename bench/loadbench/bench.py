"""One configuration: its servers, its tables opened step by step, its runs."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import signal
import statistics
import time
from typing import Any

from bench.loadbench.clients import DominoTable, RelayTable, Table, open_tables
from bench.loadbench.common import (
    BIN,
    PERIOD,
    postgres_problem,
    process_cpu,
    raise_fd_limit,
    redis_problem,
    rss_kb,
    say,
)
from bench.loadbench.report import describe
from bench.loadbench.runs import run_load
from bench.loadbench.servers import (
    Config,
    Daphne,
    Proc,
    django_setup,
    embedded_config,
    prepare_storage,
    production_config,
)
from bench.loadbench.stats import Run, Stats, merged
from bench.loadbench.tables import create_tables


class Bench:
    def __init__(self, cfg: Config, args: argparse.Namespace) -> None:
        self.cfg = cfg
        self.args = args
        self.stats = Stats()
        self.rng = random.Random(args.seed)
        self.procs: list[Proc] = []
        self.daphnes: list[Daphne] = []
        self.runs: list[Run] = []
        self.domino: list[DominoTable] = []
        self.relay: list[RelayTable] = []
        self.rss_growth = 0  # KB, summed over the Daphne processes
        self.relay_seq = 0
        self.opened: list[Table] = []  # every table of ours, to close at the end
        self.frame_bytes: float | None = None  # median snapshot size of the last run
        self.redis: Any = None  # a client for the inbox probe (production)

    # -- processes
    def start_servers(self) -> None:
        env = self.cfg.server_env()
        logdir = self.cfg.tmp
        if self.cfg.redis_url:
            worker = Proc(
                "celery",
                [
                    str(BIN / "celery"),
                    "-A",
                    "domino_site",
                    "worker",
                    "-l",
                    "warning",
                    "-P",
                    "solo",
                    "--without-gossip",
                    "--without-mingle",
                ],
                env,
                logdir,
            )
            self.procs.append(worker.start())
        for _ in range(self.cfg.daphnes):
            daphne = Daphne(env, logdir)
            self.procs.append(daphne.start())
            self.daphnes.append(daphne)
        for daphne in self.daphnes:
            daphne.wait_healthy()

    def stop_servers(self) -> None:
        for proc in reversed(self.procs):
            with contextlib.suppress(Exception):
                proc.stop()

    def report_server_logs(self) -> None:
        for proc in self.procs:
            problems = proc.problems()
            if problems:
                say(f"  {proc.name}: {len(problems)} error line(s) in its log, e.g.:")
                for line in problems[:5]:
                    say(f"    {line[:200]}")

    def rss(self, daphnes: list[Daphne] | None = None) -> int:
        return sum(rss_kb(d.pid) for d in (daphnes or self.daphnes))

    # -- tables
    async def add_domino(self, count: int, servers: list[Daphne]) -> tuple[list[DominoTable], int]:
        t0 = time.monotonic()
        specs = await asyncio.to_thread(create_tables, count)
        t1 = time.monotonic()
        first = len(self.domino)
        tables = [
            DominoTable(first + i, self.stats, spec, random.Random(self.rng.random()))
            for i, spec in enumerate(specs)
        ]
        before = self.rss(servers)
        opened = await open_tables(tables, servers, 0)
        self.opened += opened
        await asyncio.sleep(1.0)
        growth = self.rss(servers) - before
        say(
            f"  opened {len(opened)} tables on {len(servers)} daphne"
            f" (rooms {t1 - t0:.1f} s, sockets and starts {time.monotonic() - t1:.1f} s,"
            f" RSS +{growth / 1024:.1f} MB)"
        )
        return opened, growth

    async def add_relay(self, count: int, servers: list[Daphne]) -> list[RelayTable]:
        if self.args.no_relay:
            return []
        tables = []
        for _ in range(count):
            self.relay_seq += 1
            tables.append(RelayTable(self.relay_seq, self.stats, f"g{self.relay_seq}"))
        opened = await open_tables(tables, servers, 0)
        self.opened += opened
        return opened

    def pad_relay(self, relays: list[RelayTable]) -> None:
        """Relay frames as big as the table snapshots: those of the last table run,
        or before any, those the open tables hold."""
        target = self.frame_bytes
        if target is None:
            sizes = [s.size for t in self.domino for s in t.socks if s.size]
            target = statistics.median(sizes) if sizes else 2000
        if self.args.relay_bytes is not None:
            target = self.args.relay_bytes
        for table in relays:
            table.pad = "x" * max(0, int(target) - 40)

    async def settle(self, servers: list[Daphne], limit: float = 30.0) -> None:
        """Wait (up to ``limit``) until the Daphne processes are nearly idle and
        their layer inboxes empty, so that a run does not inherit the backlog of
        the one before."""
        started = time.monotonic()
        while time.monotonic() - started < limit:
            before = sum(process_cpu(d.pid) for d in servers)
            await asyncio.sleep(0.5)
            busy = (sum(process_cpu(d.pid) for d in servers) - before) / 0.5
            if busy < 0.1 * len(servers) and await asyncio.to_thread(self.inbox_size) == 0:
                break
        waited = time.monotonic() - started
        if waited > 2:
            say(f"  (waited {waited:.0f} s for the servers to go idle)")

    def inbox_size(self) -> int:
        """With Redis: the biggest per-process inbox of the layer (the sorted set
        ``asgi:specific.<process>!`` that all the sockets of one Daphne share;
        channels-redis' ``capacity`` applies to it, not to each socket); else 0."""
        if not self.cfg.redis_url:
            return 0
        import redis

        try:
            if self.redis is None:
                self.redis = redis.Redis.from_url(self.cfg.redis_url, socket_timeout=5)
            keys = list(self.redis.scan_iter(match="*specific.*!", count=1000))
            return max((self.redis.zcard(k) for k in keys), default=0)
        except Exception:  # noqa: BLE001 - a diagnostic only
            return 0

    async def watch_inboxes(self, run: Run) -> None:
        """Sample `inbox_size` while the run lasts."""
        run.inbox_max = 0
        while True:
            run.inbox_max = max(run.inbox_max, await asyncio.to_thread(self.inbox_size))
            await asyncio.sleep(0.5)

    async def run(self, tables, *, servers, mode, target, warmup, seconds) -> Run:
        await self.settle(servers)
        label = Run(
            config=self.cfg.label,
            mode=mode,
            target=target,
            daphnes=len(servers),
            tables=len(tables),
            seconds=seconds,
        )
        probe = asyncio.create_task(self.watch_inboxes(label)) if self.cfg.redis_url else None
        try:
            run = await run_load(
                tables, servers=servers, mode=mode, warmup=warmup, seconds=seconds, label=label
            )
        finally:
            if probe is not None:
                probe.cancel()
                with contextlib.suppress(BaseException):
                    await probe
        await asyncio.sleep(1.0)  # let stragglers land before the next run
        return run

    async def main(self) -> None:
        args = self.args
        say(
            f"== {self.cfg.name}: {self.cfg.daphnes} daphne, database {self.cfg.database_url}"
            f", channel layer {'redis ' + self.cfg.redis_url if self.cfg.redis_url else 'in-memory'}"
            f", scheduler {'celery worker' if self.cfg.redis_url else 'in-process'}"
        )
        servers = self.daphnes
        for count in sorted(set(args.tables)):
            await self.paced(count, servers)
        if args.sat_tables:
            await self.saturation(servers, self.domino, self.relay)
            if len(servers) > 1 and not args.no_one_daphne:
                await self.saturation_on_one(servers[:1])

    async def paced(self, count: int, servers: list[Daphne]) -> None:
        """A paced run on the first ``count`` tables (opened first if need be)."""
        more = count - len(self.domino)
        if more > 0:
            self.relay += await self.add_relay(count - len(self.relay), servers)
            opened, growth = await self.add_domino(more, servers)
            self.domino += opened
            self.rss_growth += growth
        run = await self.run_pair(
            self.domino[:count],
            self.relay[:count],
            servers=servers,
            mode="paced",
            seconds=self.args.seconds,
            rss_per_table_kb=self.rss_growth / len(self.domino) if self.domino else None,
        )
        self.frame_bytes = run.frame_bytes

    async def saturation_on_one(self, one: list[Daphne]) -> None:
        """Saturation on as many new tables, all on one Daphne process."""
        k = self.args.sat_tables
        say(f"  saturation on one daphne: {k} more tables, all on :{one[0].port}")
        relays = await self.add_relay(k, one)
        opened, growth = await self.add_domino(k, one)
        await self.saturation(one, opened, relays, rss=growth)

    async def saturation(self, servers, domino, relays, rss: int | None = None) -> None:
        args = self.args
        k = args.sat_tables
        if len(domino) < k:
            more = k - len(domino)
            self.relay += await self.add_relay(max(0, k - len(self.relay)), servers)
            opened, growth = await self.add_domino(more, servers)
            self.domino += opened
            self.rss_growth += growth
            domino, relays = self.domino, self.relay
        tables = domino[:k]
        await self.run_pair(
            tables,
            relays[:k],
            servers=servers,
            mode="saturation",
            seconds=args.sat_seconds,
            rss_per_table_kb=rss / len(tables) if rss is not None and tables else None,
        )

    async def run_pair(
        self, tables, relays, *, servers, mode, seconds, rss_per_table_kb=None
    ) -> Run:
        """A relay run on `relays` (padded like the snapshots), then a table run on
        `tables` for `seconds`, in one mode on the same servers: each said as it ends
        and both kept; the table run, which carries the relay's figures, is returned."""
        args = self.args

        def measure(group, target, warmup, length):
            return self.run(
                group, servers=servers, mode=mode, target=target, warmup=warmup, seconds=length
            )

        # Paced, the relay and the tables take turns in slices, so that a drift of
        # the machine (other work, the host) weighs on both sides of the ratio.
        slices = max(1, args.slices) if mode == "paced" else 1
        relay_parts: list[Run] = []
        table_parts: list[Run] = []
        for i in range(slices):
            again = i > 0  # warm already: only the pacing starts again
            if again and table_parts[-1].frame_bytes:
                self.frame_bytes = table_parts[-1].frame_bytes  # the frames just seen
            if args.no_relay:
                table_parts.append(
                    await measure(
                        tables, "table", PERIOD if again else args.warmup, seconds / slices
                    )
                )
                continue
            self.pad_relay(relays)
            relay_parts.append(
                await measure(
                    relays,
                    "relay",
                    PERIOD if again else args.relay_warmup,
                    args.relay_seconds / slices,
                )
            )
            table_parts.append(
                await measure(tables, "table", PERIOD if again else args.warmup, seconds / slices)
            )
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

    async def close_all(self) -> None:
        tables = self.opened
        for i in range(0, len(tables), 100):
            await asyncio.gather(*(t.close() for t in tables[i : i + 100]))


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run_config(name: str, args: argparse.Namespace) -> list[Run]:
    raise_fd_limit()
    if name == "production":
        problem = postgres_problem(f"{args.pg.rstrip('/')}/postgres") or redis_problem(args.redis)
        if problem:
            say(f"== production: skipped: {problem}")
            return []
        cfg = production_config(args)
    else:
        cfg = embedded_config(args)
    cfg.variant = args.variant
    bench = Bench(cfg, args)

    signal.signal(signal.SIGTERM, _interrupt)  # a kill of the bench still stops its servers
    started = time.monotonic()
    interrupted = False
    try:
        prepare_storage(cfg)
        django_setup(cfg)
        bench.start_servers()

        async def go() -> None:
            try:
                await bench.main()
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(bench.close_all(), 20)
                    # the servers' disconnect work ends before they are stopped
                    await bench.settle(bench.daphnes, limit=20)

        asyncio.run(go())
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        # A second Ctrl-C must not cut the clean-up short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for daphne in bench.daphnes:
            if not daphne.alive() and not interrupted:
                say(f"  ! {daphne.name} died during the run:\n{daphne.tail()}")
        bench.stop_servers()
        bench.report_server_logs()
        if bench.stats.closed:
            say(f"  sockets closed by the server or the network: {dict(bench.stats.closed)}")
        if bench.stats.errors:
            say(f"  error frames received: {dict(bench.stats.errors)}")
            for code, message in bench.stats.samples.items():
                say(f"    {code}: {message}")
        if bench.stats.stuck:
            say(f"  sockets that never saw a move: {dict(bench.stats.stuck)}")
        if bench.stats.refreshes:
            say(f"  refreshes sent (after 'stale' or a lost move): {bench.stats.refreshes}")
        if bench.stats.pace_waits:
            say(f"  the client held back {bench.stats.pace_waits} frames (flood limit)")
        if any(proc.problems() for proc in bench.procs):
            for path in cfg.tmp.glob("*.sqlite3*"):
                path.unlink()
            say(f"  server logs kept in {cfg.tmp}")
        else:
            shutil.rmtree(cfg.tmp, ignore_errors=True)
        say(f"== {cfg.name}: {time.monotonic() - started:.0f} s")
    return bench.runs
