"""Arena players for the tests: an account on the arena socket that goes to
every table the arena gives it and plays legal moves there over the table
socket, as a page would (docs/protocol.md, "Arenas")."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.realtime.conftest import TIMEOUT, Player, first_legal, my_turn


class ArenaSocket(Player):
    """``ws/arenas/<id>/``: ``arena`` keeps the last frame."""

    def __init__(self, arena_id: int, cookie: str | None = None) -> None:
        super().__init__(f"/ws/arenas/{arena_id}/", cookie)
        self.arena: dict[str, Any] | None = None

    @classmethod
    async def open(cls, arena_id: int, cookie: str | None = None) -> ArenaSocket:
        sock = cls(arena_id, cookie)
        connected, _ = await sock.comm.connect(timeout=TIMEOUT)
        assert connected
        await sock.next_frame()
        return sock

    async def next_frame(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        while True:
            msg = await self.receive(timeout)
            if msg["type"] == "arena":
                self.arena = msg
                return msg

    async def wait_arena(self, predicate, timeout: float = TIMEOUT) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            while not self.comm.output_queue.empty():
                msg = await self.receive()
                if msg["type"] == "arena":
                    self.arena = msg
            if self.arena is not None and predicate(self.arena):
                return self.arena
            await self.next_frame(timeout=max(0.01, end - loop.time()))


class ArenaBot:
    """One account playing an arena: ``tables`` lists the codes it was given."""

    def __init__(self, arena_id: int, cookie: str, client: str) -> None:
        self.arena_id, self.cookie, self.client = arena_id, cookie, client
        self.tables: list[str] = []
        self.sock: ArenaSocket | None = None
        self.at_table = False

    async def run(self, *, until_finished: bool = True, max_tables: int = 100) -> None:
        self.sock = await ArenaSocket.open(self.arena_id, self.cookie)
        while len(self.tables) < max_tables:
            frame = await self.sock.wait_arena(
                lambda f: (
                    (f["you"]["table"] and f["you"]["table"] not in self.tables)
                    or f["status"] == "finished"
                ),
                timeout=60,
            )
            code = frame["you"]["table"]
            if code and code not in self.tables:
                self.tables.append(code)
                await self.play(code)
                continue
            if until_finished:
                return

    async def play(self, code: str) -> dict:
        """Play the match at ``code`` to its end (the first legal action on our
        turn; the next round as host, where the host deals it)."""
        self.at_table = True
        table = await Player.table(code, self.cookie, self.client)
        try:
            for _ in range(600):
                state = await table.until(
                    lambda s: (
                        my_turn(s)
                        or (s["match"] or {}).get("over")
                        or s["room"]["status"] == "closed"
                        or (
                            (s["round"] or {}).get("result") is not None and s["you"].get("is_host")
                        )
                    ),
                    timeout=30,
                )
                if (state["match"] or {}).get("over") or state["room"]["status"] == "closed":
                    return state
                if my_turn(state):
                    await table.send({**first_legal(state), "version": state["version"]})
                else:
                    await table.send({"type": "next_round", "ref": "next"})
                await table.room(timeout=30)
            raise AssertionError("the match did not end")
        except TimeoutError as exc:
            raise AssertionError(f"stuck at {code}: {table.state}") from exc
        finally:
            self.at_table = False
            await table.close()
