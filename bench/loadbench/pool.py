"""The tables of one configuration, opened step by step and kept open."""

from __future__ import annotations

import asyncio
import random
import statistics
import time

from bench.loadbench.clients import DominoTable, RelayTable, Table, open_tables
from bench.loadbench.common import say
from bench.loadbench.fleet import Fleet
from bench.loadbench.servers import Daphne
from bench.loadbench.stats import Stats
from bench.loadbench.tables import create_tables


class TablePool:
    """Domino tables and bare relay "tables", opened on the fleet's servers."""

    def __init__(self, fleet: Fleet, stats: Stats, rng: random.Random, no_relay: bool) -> None:
        self.fleet = fleet
        self.stats = stats
        self.rng = rng
        self.no_relay = no_relay
        self.domino: list[DominoTable] = []
        self.relay: list[RelayTable] = []
        self.rss_growth = 0  # KB, summed over the Daphne processes
        self.relay_seq = 0
        self.opened: list[Table] = []  # every table of ours, to close at the end

    async def add_domino(self, count: int, servers: list[Daphne]) -> tuple[list[DominoTable], int]:
        t0 = time.monotonic()
        specs = await asyncio.to_thread(create_tables, count)
        t1 = time.monotonic()
        first = len(self.domino)
        tables = [
            DominoTable(first + i, self.stats, spec, random.Random(self.rng.random()))
            for i, spec in enumerate(specs)
        ]
        before = self.fleet.rss(servers)
        opened = await open_tables(tables, servers, 0)
        self.opened += opened
        await asyncio.sleep(1.0)
        growth = self.fleet.rss(servers) - before
        say(
            f"  opened {len(opened)} tables on {len(servers)} daphne"
            f" (rooms {t1 - t0:.1f} s, sockets and starts {time.monotonic() - t1:.1f} s,"
            f" RSS +{growth / 1024:.1f} MB)"
        )
        return opened, growth

    async def add_relay(self, count: int, servers: list[Daphne]) -> list[RelayTable]:
        if self.no_relay:
            return []
        tables = []
        for _ in range(count):
            self.relay_seq += 1
            tables.append(RelayTable(self.relay_seq, self.stats, f"g{self.relay_seq}"))
        opened = await open_tables(tables, servers, 0)
        self.opened += opened
        return opened

    async def grow_to(self, count: int, servers: list[Daphne]) -> None:
        """Open tables (and relay tables) until there are ``count`` of each."""
        more = count - len(self.domino)
        if more <= 0:
            return
        self.relay += await self.add_relay(max(0, count - len(self.relay)), servers)
        opened, growth = await self.add_domino(more, servers)
        self.domino += opened
        self.rss_growth += growth

    def pad_relay(
        self, relays: list[RelayTable], frame_bytes: float | None, relay_bytes: int | None
    ) -> None:
        """Relay frames as big as the table snapshots: ``relay_bytes`` if given, else
        those of the last table run (``frame_bytes``), or before any, those the open
        tables hold."""
        target = frame_bytes
        if target is None:
            sizes = [s.size for t in self.domino for s in t.socks if s.size]
            target = statistics.median(sizes) if sizes else 2000
        if relay_bytes is not None:
            target = relay_bytes
        for table in relays:
            table.pad = "x" * max(0, int(target) - 40)

    async def close_all(self) -> None:
        tables = self.opened
        for i in range(0, len(tables), 100):
            await asyncio.gather(*(t.close() for t in tables[i : i + 100]))
