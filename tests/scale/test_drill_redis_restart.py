"""Fault drill: Redis (channel layer and broker) restarted in the middle of a match.

Production set-up on the drill's own ``redis-server`` (no persistence: the
restart loses every key, groups included): two Daphne processes, a Celery
worker and beat, PostgreSQL. Ana plays on one server, Bruno on the other,
through clients that reconnect as the page does. Redis is killed, a move is
sent while it is down, Redis is started again (empty); the sockets reconnect
(or are told to), the table continues across both servers, and every move is
stored once: the one sent during the outage, sent again verbatim after the
reconnect (a naive retry), is refused as ``stale`` if it was stored, else
stored then. Replays match."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
import redis
from django.utils import timezone
from websockets.exceptions import ConnectionClosed

from domino_site.realtime.asyncdb import db_async
from games.models import Move
from tests.scale.drills import CeleryProcess, process_env, replays_match
from tests.scale.players import Client, duelo, first_legal, my_turn, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]


WATCHERS = 3  # per server: sockets of the same process that are not the players'


def _duelo(django_user_model):
    room, ana, bruno = duelo(django_user_model)
    watchers = [
        session_cookie(django_user_model.objects.create_user(f"w{i}", password="x"))
        for i in range(2 * WATCHERS)
    ]
    return room, ana, bruno, watchers


class Reconnecting:
    """A table client that opens its socket again whenever it closes, with a
    jittered exponential backoff like the page's (static/js/table.js)."""

    def __init__(self, server, path: str, cookie: str) -> None:
        self.server, self.path, self.cookie = server, path, cookie
        self.client: Client | None = None
        self.opened = 0
        self.closes: list[int | None] = []
        self.refused: list[str] = []  # failed reconnect attempts

    @property
    def state(self):
        return self.client.state if self.client else None

    async def open(self, timeout: float = 60) -> None:
        from websockets.exceptions import InvalidHandshake

        delay, deadline = 0.2, time.monotonic() + timeout
        while True:
            try:
                self.client = await Client.open(self.server, self.path, self.cookie)
                await self.client.receive(10)  # the snapshot
                self.opened += 1
                return
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError) as exc:
                self.refused.append(type(exc).__name__)
                assert time.monotonic() < deadline, f"could not reconnect: {exc!r}"
                await asyncio.sleep(delay * random.uniform(0.5, 1.5))
                delay = min(delay * 2, 3)

    async def until(self, predicate, timeout: float = 60):
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; last state version {self.state and self.state['version']}"
            try:
                state = await self.client.until(predicate, timeout=left)
                return state
            except ConnectionClosed as closed:
                self.closes.append(closed.rcvd.code if closed.rcvd else None)
                await self.open(timeout=left)
            except TimeoutError:
                raise AssertionError(
                    f"{self.cookie[-6:]} on :{self.server.port}: no fitting snapshot; at version"
                    f" {self.state['version']}; opened {self.opened}, closes {self.closes}"
                ) from None

    async def error(self, ref: str, timeout: float = 20) -> dict:
        """The error answering the message with ``ref`` (other frames are read)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.client.receive(max(0.01, deadline - time.monotonic()))
            if msg["type"] == "error" and msg.get("ref") == ref:
                return msg

    async def send(self, msg: dict) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self.client.send(msg)
        except ConnectionClosed:
            self.closes.append(None)
            await self.open()
            await self.client.send(msg)


async def _play_one(players: dict[int, Reconnecting], sent: list) -> dict:
    """Whoever's turn it is plays their first legal action; returns the state
    after it, as the other player sees it."""
    states = [p.state for p in players.values()]
    newest = max(states, key=lambda s: s["version"])
    turn = newest["round"]["turn"]
    mover = players[turn]
    mine = await mover.until(my_turn)
    move = {**first_legal(mine), "version": mine["version"]}
    await mover.send(move)
    sent.append((turn, move))
    return await players[1 - turn].until(lambda s, v=mine["version"]: s["version"] > v)


def _version(room) -> int:
    return type(room).objects.get(pk=room.pk).version


def _person_moves(room) -> list[tuple[int, int]]:
    return list(
        Move.objects.filter(round__room=room, by="person").order_by("round_id", "seq")
        .values_list("seq", "seat")
    )  # fmt: skip


def _stored_since(room, since) -> int:
    return Move.objects.filter(round__room=room, by="person", created_at__gte=since).count()


MODES = {
    # how Redis loses its keys: killed and started again at once, or after 2 s
    # down (a move is sent meanwhile), or flushed while it runs (no call fails:
    # only the heartbeat can tell)
    "restarted-at-once": 0.0,
    "down-2s": 2.0,
    "flushed": None,
}


@pytest.mark.parametrize("mode", MODES)
async def test_redis_restarted_mid_match_the_table_continues_and_no_move_is_lost_or_doubled(
    servers, django_user_model, settings, own_redis, mode
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    down = MODES[mode]
    env = process_env(REDIS_URL=own_redis.url(), DOMINO_SWEEP_SECONDS="1")
    # Each web process beats every second (production: every 30 s), so that a
    # Redis that lost its keys is noticed at once.
    web = {"REDIS_URL": own_redis.url(), "DOMINO_ALIVE_BEAT_SECONDS": "1"}
    room, ana_cookie, bruno_cookie, watcher_cookies = await db_async(_duelo)(django_user_model)
    worker = CeleryProcess("worker", env).start()
    beat = CeleryProcess("beat", env).start()
    try:
        one, two = await asyncio.gather(
            asyncio.to_thread(servers, redis=True, scheduler="celery", env=web),
            asyncio.to_thread(servers, redis=True, scheduler="celery", env=web),
        )
        path = f"/ws/rooms/{room.code}/"
        ana, bruno = Reconnecting(one, path, ana_cookie), Reconnecting(two, path, bruno_cookie)
        watchers = [Reconnecting((one, two)[i % 2], path, c) for i, c in enumerate(watcher_cookies)]
        sockets = [ana, bruno, *watchers]
        for client in sockets:
            await client.open()
        await ana.until(lambda s: s["seats"][1]["connected"])
        await ana.send({"type": "start"})
        await bruno.until(lambda s: s["round"] is not None)
        await ana.until(lambda s: s["round"] is not None)
        players = {0: ana, 1: bruno}
        sent: list = []
        for _ in range(3):
            await _play_one(players, sent)
        version = await db_async(_version)(room)
        for client in sockets:
            await client.until(lambda s, v=version: s["version"] >= v)
        mover = players[ana.state["round"]["turn"]]
        outage_move = {**first_legal(mover.state), "version": mover.state["version"], "ref": "out"}

        started = time.monotonic()
        since = timezone.now()
        if down is None:
            await asyncio.to_thread(redis.Redis.from_url(own_redis.url()).flushall)
            outage = "flushed"
        else:  # Redis goes away; the player to move sends a move meanwhile
            own_redis.kill()
            await asyncio.sleep(down / 2)
            try:
                await mover.client.send(outage_move)
                outage = "sent on the open socket"
            except ConnectionClosed:  # the page would send it once reconnected
                outage = "socket already closed"
            await asyncio.sleep(down / 2)
            own_redis.start()  # empty: no groups, no heartbeat keys, no queued tasks
        lost_for = time.monotonic() - started

        # Every socket comes back (asked to reconnect: its groups are gone).
        for client in sockets:
            await client.until(lambda s, c=client: c.opened >= 2, timeout=60)
        recovered = time.monotonic() - started
        version = await db_async(_version)(room)
        for client in sockets:
            await client.until(lambda s, v=version: s["version"] >= v, timeout=30)
        assert await db_async(_stored_since)(room, since) <= 1
        # The naive retry of the outage move (same version): refused as stale,
        # whether it was stored or not (reconnecting changed the room's version).
        await mover.send(outage_move)
        refused = await mover.error("out")
        assert refused["code"] == "stale", refused
        for _ in range(4):  # the table continues across both servers
            state = await _play_one(players, sent)
            if state["round"]["result"] is not None:
                break
        moves = await db_async(_person_moves)(room)
        seqs = [seq for seq, _seat in moves]
        assert seqs == list(range(1, len(seqs) + 1)), f"a gap or a double: {moves}"
        final = await db_async(_version)(room)
        for client in sockets:  # every socket shows the stored log, each move once
            state = await client.until(lambda s, v=final: s["version"] >= v, timeout=30)
            logged = [(e["seq"], e["seat"]) for e in state["log"]
                      if e["by"] == "person" and e["type"] != "adjust"]  # fmt: skip
            assert logged == moves, (logged, moves)
        closes = [code for client in sockets for code in client.closes]
        assert set(closes) == {4012}, closes  # asked to reconnect; no consumer crashed
        for server in (one, two):
            assert "Exception inside application" not in server.output(), server.output()
        print(
            f"\nredis drill {mode}: keys lost for {lost_for:.1f} s (outage move: {outage});"
            f" all {len(sockets)} sockets back after {recovered:.1f} s"
            f" (closes {sorted(set(closes))}, {len(closes)} in all, failed reconnects"
            f" {sum(len(c.refused) for c in sockets)}); {len(moves)} person moves, each once"
        )
        for client in sockets:
            await client.client.close()
    finally:
        worker.stop()
        beat.stop()
    assert await db_async(replays_match)() == {"rounds": 1, "differ": []}
