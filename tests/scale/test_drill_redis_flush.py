"""Fault drill: Redis emptied (FLUSHDB on the channel layer's and broker's db)
while two tables play, on the production set: two Daphne processes, a Celery
worker and beat (the sweeper), PostgreSQL, the drill's own ``redis-server``.

Redis holds nothing that cannot be lost (docs/scaling.md, "Backups"): the
groups, the heartbeats and the queued wake-ups go, and nothing else does.

* Table A (ana and bruno, one on each Daphne) keeps playing: every socket is
  told to reconnect (4012) and does, and every move sent after it is applied,
  each once, in order, on every socket.
* Table B (carla and davi) has a move clock. The worker is down when carla
  moves, so the wake-up of davi's clock waits in Redis; the flush takes it.
  The worker comes back; davi never moves: the sweeper (beat, every second
  here) finds the clock due in the database and fires it, once.
"""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

from domino_site.realtime.asyncdb import db_async
from games.models import Move
from rooms import services
from tests.scale.drills import CeleryProcess, process_env, replays_match
from tests.scale.players import duelo, first_legal, my_turn, session_cookie
from tests.scale.test_drill_redis_restart import Reconnecting, _play_one
from tests.waiting import async_wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]

CLOCK = 10  # seconds, the shortest move clock


def _tables(user_model):
    room_a, ana, bruno = duelo(user_model, name="Mesa A")
    carla = user_model.objects.create_user("carla", password="x")
    davi = user_model.objects.create_user("davi", password="x")
    room_b = services.room_create(user=carla, name="Mesa B", preset="duelo", move_seconds=CLOCK)
    services.seat_take(room=room_b, index=1, user=davi)
    return room_a, (ana, bruno), room_b, (session_cookie(carla), session_cookie(davi))


def _moves(room) -> list[tuple[int, int, str]]:
    return list(
        Move.objects.filter(round__room=room).order_by("round_id", "seq")
        .values_list("seq", "seat", "by")
    )  # fmt: skip


async def _start(players: dict[int, Reconnecting]) -> None:
    host, guest = players[0], players[1]
    await host.until(lambda s: s["seats"][1]["connected"])
    await host.send({"type": "start"})
    for player in (guest, host):
        await player.until(lambda s: s["round"] is not None)


async def test_redis_flushed_mid_play_loses_nothing(
    servers, django_user_model, settings, own_redis
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    env = process_env(REDIS_URL=own_redis.url(), DOMINO_SWEEP_SECONDS="1")
    web = {"REDIS_URL": own_redis.url(), "DOMINO_ALIVE_BEAT_SECONDS": "1"}
    room_a, cookies_a, room_b, cookies_b = await db_async(_tables)(django_user_model)
    worker = CeleryProcess("worker", env).start()
    beat = CeleryProcess("beat", env).start()
    try:
        one, two = await asyncio.gather(
            asyncio.to_thread(servers, redis=True, scheduler="celery", env=web),
            asyncio.to_thread(servers, redis=True, scheduler="celery", env=web),
        )
        path_a, path_b = f"/ws/rooms/{room_a.code}/", f"/ws/rooms/{room_b.code}/"
        table_a = {0: Reconnecting(one, path_a, cookies_a[0]),
                   1: Reconnecting(two, path_a, cookies_a[1])}  # fmt: skip
        table_b = {0: Reconnecting(two, path_b, cookies_b[0]),
                   1: Reconnecting(one, path_b, cookies_b[1])}  # fmt: skip
        sockets = [*table_a.values(), *table_b.values()]
        for client in sockets:
            await client.open()
        await asyncio.gather(_start(table_a), _start(table_b))
        sent_a: list = []  # (seat, move) of every move sent at A
        sent_b: list = []
        for _ in range(3):
            await _play_one(table_a, sent_a)
        await _play_one(table_b, sent_b)

        # The worker goes; the mover at B moves: the next clock's wake-up waits
        # in Redis, where nobody takes it.
        worker.kill()
        worker.wait_for_its_database_sessions()
        state = await _play_one(table_b, sent_b)
        idle_seat = state["round"]["turn"]
        idle_version = state["version"]
        assert state["round"]["result"] is None, "the round ended: no clock runs"
        store = redis.Redis.from_url(own_redis.url())
        # the wake-up waits in the worker's queue (Celery's default, "celery")
        await async_wait_for(
            lambda: store.llen("celery") > 0, timeout=10, message="the wake-up queued in Redis"
        )
        flushed_at = time.monotonic()
        await asyncio.to_thread(store.flushdb)
        worker.start()

        # Every socket comes back (its groups are gone: told to reconnect).
        for client in sockets:
            await client.until(lambda s, c=client: c.opened >= 2, timeout=60)
        recovered = time.monotonic() - flushed_at

        # A plays on across both Daphnes: every move applied once, everywhere.
        for _ in range(4):
            state = await _play_one(table_a, sent_a)
            if state["round"]["result"] is not None:
                break
        moves_a = await db_async(_moves)(room_a)
        seqs = [seq for seq, _seat, _by in moves_a]
        assert seqs == list(range(1, len(seqs) + 1)), f"a gap or a double: {moves_a}"
        # every move sent was applied (none lost, none twice), by its sender
        assert moves_a == [(i + 1, seat, "person") for i, (seat, _move) in enumerate(sent_a)]
        final = max(c.state["version"] for c in table_a.values())
        for client in table_a.values():
            shown = await client.until(lambda s, v=final: s["version"] >= v, timeout=30)
            logged = [(e["seq"], e["seat"], e["by"]) for e in shown["log"]
                      if e["type"] != "adjust"]  # fmt: skip
            assert logged == moves_a, (logged, moves_a)

        # B: davi's clock, whose wake-up went with Redis, fires (the sweeper).
        def fired():
            return [m for m in _moves(room_b) if m[2] != "person"]

        timeouts = await async_wait_for(
            db_async(fired), timeout=CLOCK + 30, message="davi's clock firing", every=0.2
        )
        clock_fired = time.monotonic() - flushed_at
        assert [(seat, by) for _seq, seat, by in timeouts] == [(idle_seat, "timeout")], timeouts
        moves_b = await db_async(_moves)(room_b)
        assert [seq for seq, _s, _b in moves_b] == list(range(1, len(moves_b) + 1)), moves_b
        for client in table_b.values():  # both sockets show it
            await client.until(lambda s, v=idle_version: s["version"] > v, timeout=30)
            logged = [(e["seq"], e["seat"], e["by"]) for e in client.state["log"]
                      if e["type"] != "adjust"]  # fmt: skip
            assert logged == moves_b, (logged, moves_b)
        # ...and B plays on: the turn is the other seat's, its move applies.
        mover = table_b[1 - idle_seat]
        if not table_b[idle_seat].state["round"]["result"]:
            mine = await mover.until(my_turn)
            await mover.send({**first_legal(mine), "version": mine["version"]})
            await table_b[idle_seat].until(lambda s, v=mine["version"]: s["version"] > v)

        closes = [code for client in sockets for code in client.closes]
        assert set(closes) == {4012}, closes
        for server in (one, two):
            assert "Exception inside application" not in server.output(), server.output()
        print(
            f"\nredis flushed mid-play: all {len(sockets)} sockets back after {recovered:.1f} s;"
            f" {len(moves_a)} moves at A, each once; B's clock fired {clock_fired:.1f} s after"
            f" the flush (wake-up lost, the sweeper)"
        )
        for client in sockets:
            await client.client.close()
    finally:
        worker.stop()
        beat.stop()
    assert await db_async(replays_match)() == {"rounds": 2, "differ": []}
