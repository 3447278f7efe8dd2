"""The server processes of one configuration: start, stop, watch, report."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from bench.loadbench.common import ROOT, process_cpu, rss_kb, say
from bench.loadbench.procfile import background_commands
from bench.loadbench.servers import Config, Daphne, Proc


class Fleet:
    """The Daphne processes of `cfg` and, with Redis, every background process of
    the Procfile (the Celery worker, the analysis worker, beat)."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.procs: list[Proc] = []
        self.daphnes: list[Daphne] = []
        self.background: dict[str, Proc] = {}  # Procfile process type -> its process
        self.redis: Any = None  # a client for the inbox probe (production)

    def start(self) -> None:
        env, logdir = self.cfg.server_env(), self.cfg.tmp
        hosts = self.cfg.hosts
        if self.cfg.redis_url:
            for name, argv in background_commands(ROOT, env, logdir).items():
                if name in self.cfg.without:
                    continue
                netns = hosts["worker"] if hosts else ""
                self.background[name] = Proc(name, argv, env, logdir, netns).start()
                self.procs.append(self.background[name])
        for i in range(self.cfg.daphnes):
            where = None
            if hosts:  # one Daphne a web host, then a second port on each
                netns, address = hosts["web"][i % len(hosts["web"])]
                where = (netns, address, 8000 + i // len(hosts["web"]))
            daphne = Daphne(env, logdir, asgi=self.cfg.asgi, host=where)
            self.procs.append(daphne.start())
            self.daphnes.append(daphne)
        for daphne in self.daphnes:
            daphne.wait_healthy()

    def stop(self) -> None:
        for proc in reversed(self.procs):
            with contextlib.suppress(Exception):
                proc.stop()

    def any_problems(self) -> bool:
        return any(proc.problems() for proc in self.procs)

    def report_logs(self) -> None:
        for proc in self.procs:
            problems = proc.problems()
            if problems:
                say(f"  {proc.name}: {len(problems)} error line(s) in its log, e.g.:")
                for line in problems[:5]:
                    say(f"    {line[:200]}")

    def report_deaths(self) -> None:
        for daphne in self.daphnes:
            if not daphne.alive():
                say(f"  ! {daphne.name} died during the run:\n{daphne.tail()}")

    def rss(self, daphnes: list[Daphne] | None = None) -> int:
        return sum(rss_kb(d.pid) for d in (daphnes or self.daphnes))

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

    async def largest_inbox(self, seen: list[int]) -> None:
        """Sample `inbox_size` into ``seen[0]`` until cancelled."""
        while True:
            seen[0] = max(seen[0], await asyncio.to_thread(self.inbox_size))
            await asyncio.sleep(0.5)
