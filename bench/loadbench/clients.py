"""The client: WebSocket tables (four sockets each) of the site and of the relay."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import random
import time
from typing import Any

from bench.loadbench.common import CLIENT_PACE, CONNECT_BATCH, say
from bench.loadbench.servers import Daphne
from bench.loadbench.stats import Stats
from bench.loadbench.tables import TableSpec


class Sock:
    __slots__ = ("ws", "table", "version", "state", "frames", "last_n", "size", "sent", "closed")

    def __init__(self, ws: Any, table: Any) -> None:
        self.ws = ws
        self.table = table
        self.version = -1
        self.state: dict[str, Any] | None = None
        self.frames = 0  # room snapshots received, newer or not
        self.last_n = 0
        self.size = 0
        self.sent: collections.deque[float] = collections.deque()
        self.closed: str | None = None

    async def send(self, text: str, stats: Stats, pace: bool = True) -> float:
        """Send, staying under the table socket's flood limit (counted when it makes
        us wait; the relay has none); returns the moment the frame was handed to
        the socket."""
        if pace:
            loop = asyncio.get_running_loop()
            now = loop.time()
            while self.sent and self.sent[0] < now - 1.0:
                self.sent.popleft()
            if len(self.sent) >= CLIENT_PACE:
                stats.pace_waits += 1
                await asyncio.sleep(self.sent[0] + 1.0 - now)
            self.sent.append(loop.time())
        start = time.perf_counter()
        await self.ws.send(text)
        return start


#: How a table's four sockets sit on the Daphnes (``--layout``): ``spread``,
#: socket ``j`` of table ``t`` on Daphne ``(t + j) % n`` (two on each of two);
#: ``one``, all four on Daphne ``t % n`` (the tables still alternate).
LAYOUTS = ("spread", "one")
#: The client's settings (``--client``): ``bench``, an unbounded receive queue
#: and no pings (what the bench measured until now); ``defaults``, the
#: ``websockets`` package's own (a 16-message queue, a ping every 20 s, its
#: compression offer, which Daphne declines).
CLIENTS = ("bench", "defaults")
options = {"layout": "spread", "client": "bench"}


def configure(*, layout: str, client: str) -> None:
    assert layout in LAYOUTS and client in CLIENTS, (layout, client)
    options.update(layout=layout, client=client)


async def open_socket(url: str, origin: str, cookie: str | None) -> Any:
    from websockets.asyncio.client import connect

    if options["client"] == "defaults":
        return await connect(
            url,
            origin=origin,
            additional_headers={"Cookie": cookie} if cookie else None,
            open_timeout=60,
            proxy=None,
        )
    return await connect(
        url,
        origin=origin,
        additional_headers={"Cookie": cookie} if cookie else None,
        compression=None,
        max_size=2**24,
        max_queue=None,
        open_timeout=60,
        ping_interval=None,
        close_timeout=2,
        proxy=None,
    )


class Table:
    """Four sockets and at most one command in flight."""

    kind = "table"

    def __init__(self, index: int, stats: Stats) -> None:
        self.index = index
        self.stats = stats
        self.socks: list[Sock] = []
        self.waiting: tuple[Any, asyncio.Future] | None = None  # (target, future)
        self.changed = asyncio.Event()
        self.tasks: list[asyncio.Task] = []
        self.servers: list[Daphne] = []
        self.closing = False

    async def reader(self, sock: Sock) -> None:
        from websockets.exceptions import ConnectionClosed

        perf = time.perf_counter
        loads = json.loads
        try:
            async for raw in sock.ws:
                self.on_frame(sock, loads(raw), perf(), len(raw))
        except ConnectionClosed:
            pass
        except Exception as exc:  # noqa: BLE001 - reported, the table stops
            sock.closed = f"client error {type(exc).__name__}"
        finally:
            code = getattr(sock.ws, "close_code", None)
            sock.closed = sock.closed or f"closed {code if code is not None else 'abnormally'}"
            if not self.closing:  # not our own close at the end
                self.stats.closed[sock.closed] += 1
            if self.waiting is not None and not self.waiting[1].done():
                self.waiting[1].set_result(("closed", perf()))
            self.changed.set()

    def on_frame(self, sock: Sock, msg: dict, now: float, size: int) -> None:
        raise NotImplementedError

    async def connect(
        self, servers: list[Daphne], first: int, path: str, cookies: list[str | None]
    ) -> None:
        """Four sockets on ``path``, each with its reader: socket ``j`` goes to
        ``servers[(first + j) % len(servers)]`` with ``cookies[j]`` (layout
        ``one``: all four to ``servers[first % len(servers)]``)."""
        if options["layout"] == "one":
            self.servers = [servers[first % len(servers)]] * 4
        else:
            self.servers = [servers[(first + j) % len(servers)] for j in range(4)]
        wss = await asyncio.gather(
            *(
                open_socket(
                    f"ws://{srv.address}:{srv.port}{path}",
                    f"http://{srv.address}:{srv.port}",
                    cookie,
                )
                for srv, cookie in zip(self.servers, cookies, strict=True)
            )
        )
        self.socks = [Sock(ws, self) for ws in wss]
        self.tasks = [asyncio.create_task(self.reader(s)) for s in self.socks]

    async def close(self) -> None:
        self.closing = True
        for sock in self.socks:
            with contextlib.suppress(Exception):
                await sock.ws.close()
        for task in self.tasks:
            task.cancel()


class DominoTable(Table):
    kind = "table"

    def __init__(self, index: int, stats: Stats, spec: TableSpec, rng: random.Random) -> None:
        super().__init__(index, stats)
        self.spec = spec
        self.rng = rng
        self.ref = 0

    async def open(self, servers: list[Daphne], first: int) -> None:
        """Sockets ``j`` go to ``servers[(first + j) % len(servers)]``."""
        await self.connect(servers, first, f"/ws/rooms/{self.spec.code}/", self.spec.cookies)
        await self.until(lambda: all(s.state is not None for s in self.socks), 60)

    async def start(self) -> None:
        host = next(s for s in self.socks[:2] if s.state["you"]["is_host"])
        if host.state["round"] is None:
            await host.send(json.dumps({"type": "start", "ref": "start"}), self.stats)
        await self.until(lambda: all(s.state["round"] is not None for s in self.socks), 60)

    async def until(self, predicate, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate():
            if any(s.closed for s in self.socks):
                raise RuntimeError(f"table {self.spec.code}: a socket closed")
            self.changed.clear()
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"table {self.spec.code}: no snapshot in {timeout} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)

    def on_frame(self, sock: Sock, msg: dict, now: float, size: int) -> None:
        kind = msg.get("type")
        if kind == "room":
            version = msg["version"]
            sock.frames += 1
            if version > sock.version:
                sock.version = version
                sock.state = msg
                sock.size = size
                waiting = self.waiting
                if waiting is not None and all(s.version > waiting[0] for s in self.socks):
                    if not waiting[1].done():
                        waiting[1].set_result(("ok", now))
            self.changed.set()
        elif kind == "error":
            self.stats.error(msg)
            waiting = self.waiting
            if waiting is not None and msg.get("ref") == f"m{self.ref}" and not waiting[1].done():
                waiting[1].set_result((f"error {msg.get('code')}", now))
        elif kind == "replaced":
            self.stats.errors["replaced"] += 1

    def next_command(self) -> tuple[Sock, dict, str, int] | None:
        """(socket, message, kind, version it is decided on) or None (nothing to do)."""
        players = self.socks[:2]
        for sock in players:
            state = sock.state
            rnd = state["round"] if state else None
            if rnd and rnd.get("legal") and rnd.get("result") is None:
                action = self.rng.choice(rnd["legal"])
                msg = {k: v for k, v in action.items() if v is not None}
                msg["version"] = state["version"]
                return sock, msg, "move", state["version"]
        host = next((s for s in players if s.state and s.state["you"]["is_host"]), None)
        if host is None:
            return None
        state = host.state
        room, rnd, match = state["room"], state["round"], state["match"]
        if room["paused"]:
            return None
        if rnd is None or room["status"] == "waiting":
            return host, {"type": "start"}, "between", state["version"]
        if match and match.get("over"):
            # The host asks for a new match; where every player must accept it
            # (the duelo: docs/contract.md) the others then accept in turn.
            for sock in sorted(players, key=lambda p: p is not host):
                seat = sock.state["you"]["seat"]
                if seat is not None and not sock.state["seats"][seat]["ready"]:
                    return sock, {"type": "new_match"}, "between", sock.state["version"]
            return None
        if room["status"] == "between_rounds":
            if (room.get("rules") or {}).get("next_round") == "all_ready":
                for sock in players:
                    seat = sock.state["you"]["seat"]
                    if seat is not None and not sock.state["seats"][seat]["ready"]:
                        return sock, {"type": "ready"}, "between", sock.state["version"]
                return None
            return host, {"type": "next_round"}, "between", state["version"]
        return None

    async def step(self, deadline: float) -> tuple[str, float, float, str] | None:
        """One command; waits until every socket saw its effect (or it failed)."""
        command = self.next_command()
        if command is None:
            return None
        sock, msg, kind, version = command
        self.ref += 1
        msg["ref"] = f"m{self.ref}"
        future = asyncio.get_running_loop().create_future()
        self.waiting = (version, future)
        text = json.dumps(msg)
        try:
            start = await sock.send(text, self.stats)
            try:
                status, done = await asyncio.wait_for(future, max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                status, done = "timeout", time.perf_counter()
                self.note_stuck(sock, version)
        finally:
            self.waiting = None
        if status == "timeout":
            await self.recover([s for s in self.socks if s.version <= version])
        elif status == "error stale":
            await self.recover([sock])
        return kind, start, done, status

    async def recover(self, socks: list[Sock]) -> None:
        """What the browser does on ``stale`` (static/js/table.js): ask for a fresh
        snapshot (``refresh``), here also for sockets that never saw a move."""
        before = {id(s): s.frames for s in socks}
        for sock in socks:
            self.stats.refreshes += 1
            with contextlib.suppress(Exception):
                await sock.send(json.dumps({"type": "refresh"}), self.stats)
        with contextlib.suppress(Exception):
            await self.until(lambda: all(s.frames > before[id(s)] for s in socks), 5)

    def note_stuck(self, mover: Sock, version: int) -> None:
        """Which sockets never got past ``version`` (for the report)."""
        mover_server = self.servers[self.socks.index(mover)]
        for j, sock in enumerate(self.socks):
            if sock.version <= version:
                role = ("player", "player", "watcher", "watcher")[j]
                where = "mover's" if self.servers[j] is mover_server else "other"
                self.stats.stuck[f"{role} on the {where} daphne"] += 1


class RelayTable(Table):
    kind = "relay"

    def __init__(self, index: int, stats: Stats, group: str) -> None:
        super().__init__(index, stats)
        self.group = group
        self.seq = 0
        self.pad = ""

    async def open(self, servers: list[Daphne], first: int) -> None:
        # The consumer joins the group before it accepts: usable at once.
        await self.connect(servers, first, f"/ws/relay/{self.group}/", [None] * 4)

    def on_frame(self, sock: Sock, msg: dict, now: float, size: int) -> None:
        n = msg["n"]
        if n > sock.last_n:
            sock.last_n = n
            sock.size = size
            waiting = self.waiting
            if waiting is not None and all(s.last_n >= waiting[0] for s in self.socks):
                if not waiting[1].done():
                    waiting[1].set_result(("ok", now))

    async def step(self, deadline: float) -> tuple[str, float, float, str] | None:
        self.seq += 1
        future = asyncio.get_running_loop().create_future()
        self.waiting = (self.seq, future)
        text = json.dumps({"n": self.seq, "t": self.index, "p": self.pad})
        try:
            start = await self.socks[0].send(text, self.stats, pace=False)
            try:
                status, done = await asyncio.wait_for(future, max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                status, done = "timeout", time.perf_counter()
        finally:
            self.waiting = None
        return "move", start, done, status


async def open_tables(tables: list[Table], servers: list[Daphne], offset: int) -> list[Table]:
    """Open (and for domino tables start) ``tables`` a few at a time; returns those
    that made it (the others are reported and closed)."""
    sem = asyncio.Semaphore(CONNECT_BATCH)
    good: list[Table] = []
    failures: collections.Counter = collections.Counter()

    async def one(table: Table) -> None:
        async with sem:
            try:
                await table.open(servers, offset + table.index)
                if isinstance(table, DominoTable):
                    await table.start()
                good.append(table)
            except Exception as exc:  # noqa: BLE001 - counted and reported
                failures[f"{type(exc).__name__}: {str(exc)[:120]}"] += 1
                await table.close()

    await asyncio.gather(*(one(t) for t in tables))
    for reason, n in failures.items():
        say(f"    ! {n} {tables[0].kind}(s) failed to open: {reason}")
    good.sort(key=lambda t: t.index)
    return good
