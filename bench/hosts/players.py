"""The drills' players (run on the ``client`` host): tables played through
WebSockets that reconnect like the page, and a record of what they saw.

    python -m bench.hosts.players SPEC.json OUT.json

SPEC: ``{"seconds": .., "period": .., "urls": {"web1": "ws://..", ..},
"tables": [{"code", "cookies": [seat 0, seat 1, watcher], "homes": [host of
each socket], "play": true|false}]}``. A socket connects to its home host and,
when that refuses, to the other hosts in turn (what a proxy in front of the
Daphnes does when one is down), with the page's jittered backoff. A table with
``play`` false is started and then never moved by its players (its move clock
plays for them).

OUT: per table the moves each socket saw stored (every ``log`` entry of every
snapshot, keyed by match, round and seq: one value each, or the drill fails),
the moves sent and when each was first seen stored, every close and reopen of
a socket (time, code, host), the errors received, and each socket's last
version once play stopped and the table went quiet.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from typing import Any

PACE = 10  # at most this many frames a second per socket (the server allows 20)


class Sock:
    def __init__(self, table: Table, index: int, cookie: str, homes: list[str]) -> None:
        self.table, self.index, self.cookie, self.homes = table, index, cookie, homes
        self.ws: Any = None
        self.host: str | None = None
        self.state: dict | None = None
        self.events: list[list] = []  # [time, "open"|"close"|"refused", detail, host]
        self.errors: list[dict] = []
        self.changed = asyncio.Event()
        self.sent: list[float] = []
        self.final: int | None = None  # a close code the page never comes back from

    @property
    def version(self) -> int:
        return self.state["version"] if self.state else -1

    async def connect(self) -> bool:
        """One attempt: the home host, then the others (a proxy's failover)."""
        from websockets.asyncio.client import connect

        for host in self.homes:
            base = self.table.urls[host]
            url = base + f"/ws/rooms/{self.table.code}/"
            try:
                self.ws = await connect(
                    url, origin="http" + base[2:], open_timeout=5,
                    additional_headers={"Cookie": self.cookie},
                    ping_interval=5, ping_timeout=5,
                )  # fmt: skip
                self.host = host
                self.events.append([time.time(), "open", None, host])
                return True
            except Exception as exc:  # noqa: BLE001 - refused, reset, timed out: try on
                self.events.append([time.time(), "refused", type(exc).__name__, host])
        return False

    async def read(self) -> None:
        """Read frames; on a close, come back as the page does
        (static/js/socket_client.js): never after 4001, 4003 or 4004, else
        the n-th attempt in a row waits between half and all of
        min(1 s x 2**n, 10 s)."""
        from websockets.exceptions import ConnectionClosed

        attempt = 0
        while True:
            if self.ws is None:
                if time.time() > self.table.give_up:
                    return
                wait = min(2.0**attempt, 10.0)
                await asyncio.sleep(random.uniform(wait / 2, wait))
                if not await self.connect():
                    attempt += 1
                    continue
                attempt = 0
            try:
                async for text in self.ws:
                    msg = json.loads(text)
                    if msg["type"] == "room":
                        if msg["version"] >= self.version:
                            self.state = msg
                        self.table.saw(msg)
                        self.changed.set()
                    elif msg["type"] == "error":
                        self.errors.append({"t": time.time(), **msg})
                        self.changed.set()
                code = self.ws.close_code
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
            except Exception as exc:  # noqa: BLE001 - a broken connection
                code = type(exc).__name__
            self.events.append([time.time(), "close", code, self.host])
            self.ws = None
            self.changed.set()
            if code in (4001, 4003, 4004):
                self.final = code
                return

    async def send(self, msg: dict) -> bool:
        now = time.monotonic()
        self.sent = [t for t in self.sent if t > now - 1]
        if len(self.sent) >= PACE:
            await asyncio.sleep(self.sent[0] + 1 - now)
        self.sent.append(time.monotonic())
        try:
            await self.ws.send(json.dumps(msg))
            return True
        except Exception:  # noqa: BLE001 - closed meanwhile: the reader reconnects
            return False


class Table:
    def __init__(self, spec: dict, urls: dict[str, str], rng: random.Random) -> None:
        self.code = spec["code"]
        self.urls = urls
        self.play = spec.get("play", True)
        self.rng = rng
        self.socks = [
            Sock(self, i, cookie, _order(home, urls))
            for i, (cookie, home) in enumerate(zip(spec["cookies"], spec["homes"], strict=True))
        ]
        self.seen: dict[str, list] = {}  # "match.round.seq" -> [seat, type, tile, by, first seen]
        self.conflicts: list = []
        self.moves: list[dict] = []  # sent: t, version, seat, host, acked (first seen stored)
        self.give_up = time.time() + 3600.0  # set by run()
        self.readers: list[asyncio.Task] = []
        self.stored: int | None = None  # the room's version in the database once quiet

    def saw(self, msg: dict) -> None:
        rnd, match = msg.get("round"), msg.get("match")
        if not rnd or not match:
            return
        for entry in msg.get("log") or []:
            key = f"{match['number']}.{rnd['number']}.{entry['seq']}"
            value = [entry.get("seat"), entry.get("type"), entry.get("tile"), entry.get("by")]
            if key not in self.seen:
                self.seen[key] = [*value, time.time()]
            elif self.seen[key][:4] != value:
                self.conflicts.append([key, self.seen[key][:4], value])

    def next_command(self) -> tuple[Sock, dict] | None:
        players = self.socks[:2]
        if self.play:
            for sock in players:
                state = sock.state
                rnd = state["round"] if state else None
                if rnd and rnd.get("legal") and rnd.get("result") is None and sock.ws:
                    action = self.rng.choice(rnd["legal"])
                    msg = {k: v for k, v in action.items() if v is not None}
                    return sock, {**msg, "version": state["version"]}
        host = players[0]
        state = host.state
        if state is None or host.ws is None:
            return None
        room, rnd, match = state["room"], state["round"], state["match"]
        if room["paused"]:
            return None
        if rnd is None or room["status"] == "waiting":
            if all(s["connected"] for s in state["seats"]):
                return host, {"type": "start"}
            return None
        if not self.play:
            return None
        if match and match.get("over"):
            for sock in players:
                seat = sock.state["you"]["seat"] if sock.state else None
                if seat is not None and not sock.state["seats"][seat]["ready"] and sock.ws:
                    return sock, {"type": "new_match"}
            return None
        if room["status"] == "between_rounds":
            return host, {"type": "next_round"}
        return None

    async def run(self, until: float, period: float) -> None:
        self.give_up = until + 60
        for sock in self.socks:
            if not await sock.connect():
                raise RuntimeError(f"{self.code}: socket {sock.index} could not connect")
        readers = [asyncio.create_task(sock.read()) for sock in self.socks]
        try:
            while time.time() < until:
                command = self.next_command()
                if command is None:
                    await self._wait_change(0.5)
                    continue
                sock, msg = command
                version = sock.version
                record = {"t": time.time(), "version": version, "type": msg["type"],
                          "seat": sock.index, "host": sock.host, "acked": None}  # fmt: skip
                errors = len(sock.errors)
                if not await sock.send(msg):
                    continue
                self.moves.append(record)
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline:
                    if sock.version > version:
                        record["acked"] = time.time()
                        break
                    if len(sock.errors) > errors:
                        record["error"] = sock.errors[-1].get("code")
                        if sock.ws:  # as the page does on stale
                            await sock.send({"type": "refresh"})
                        break
                    await self._wait_change(0.5, sock)
                await asyncio.sleep(period * random.uniform(0.8, 1.2))
            await self.quiet()
        finally:
            self.readers = readers

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        for sock in self.socks:
            if sock.ws is not None:
                await sock.ws.close()

    async def _wait_change(self, timeout: float, sock: Sock | None = None) -> None:
        watched = [sock] if sock else self.socks
        for s in watched:
            s.changed.clear()
        waits = [asyncio.create_task(s.changed.wait()) for s in watched]
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        for w in waits:
            w.cancel()

    async def quiet(self, limit: float = 60) -> None:
        """Until every socket is open and all hold one version, unchanged for 2 s."""
        end = time.monotonic() + limit
        last, since = None, time.monotonic()
        while time.monotonic() < end:
            now = [s.version if s.ws else None for s in self.socks if s.final is None]
            if now != last:
                last, since = now, time.monotonic()
            elif None not in now and len(set(now)) == 1 and time.monotonic() - since > 2:
                return
            await asyncio.sleep(0.1)

    def report(self) -> dict:
        return {
            "code": self.code,
            "homes": [s.homes[0] for s in self.socks],
            "seen": self.seen,
            "conflicts": self.conflicts,
            "moves": self.moves,
            "events": [s.events for s in self.socks],
            "errors": [
                [{k: e.get(k) for k in ("t", "code", "ref")} for e in s.errors] for s in self.socks
            ],  # fmt: skip
            "final": [s.version for s in self.socks],
            "final_hosts": [s.host for s in self.socks],
            "final_codes": [s.final for s in self.socks],
            "stored": self.stored,
        }


def _order(home: str, urls: dict[str, str]) -> list[str]:
    return [home] + [h for h in urls if h != home]


async def main(spec_path: str, out_path: str) -> None:
    with open(spec_path) as f:
        spec = json.load(f)
    rng = random.Random(spec.get("seed", 44))
    tables = [Table(t, spec["urls"], rng) for t in spec["tables"]]
    until = time.time() + spec["seconds"]
    try:
        await asyncio.gather(*(t.run(until, spec.get("period", 0.5)) for t in tables))
        # Every table quiet, its sockets still open: what is stored now is what
        # each of them must show (closing them changes the rooms' versions).
        import psycopg

        with psycopg.connect(os.environ["DATABASE_URL"]) as db:
            rows = db.execute("SELECT code, version FROM rooms_room").fetchall()
        versions = dict(rows)
        for table in tables:
            table.stored = versions.get(table.code)
    finally:
        for table in tables:
            await table.close()
    with open(out_path, "w") as f:
        json.dump({"tables": [t.report() for t in tables]}, f)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
