"""Fault drill: a reconnect storm on the production set-up (PostgreSQL, the Redis
channel layer on the drill's own ``redis-server``, one Daphne).

100 duelo tables, each with its two players and two logged-in watchers: 400
open sockets. Every connection is dropped at once (the TCP connections cut,
as by a network blip or a restart) and all 400 reconnect at once. Every socket
must get its snapshot back (its own seat, or none for a watcher), and no
handshake may end in an HTTP error (a 500 was what a 100-connection Redis pool
gave). A handshake that Daphne drops (its 5 s connect timeout, on a
starved CPU) is tried again as the page does, with its jittered backoff; those
retries are printed with how long the storm took (``-s``); nothing is timed.

``STORM_TABLES`` changes the number of tables (four sockets each)."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from domino_site.realtime.asyncdb import db_async
from rooms import services
from rooms.models import Room, Seat
from tests.scale.drills import replays_match
from tests.scale.players import Client
from tests.waiting import async_wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]

TABLES = int(os.environ.get("STORM_TABLES") or 100)
RECONNECTS = 6  # a page keeps trying; the drill gives up after this many


def _session_cookie(user) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"sessionid={session.session_key}"


def _tables(user_model, count: int) -> list[tuple[str, list[tuple[str, int | None]]]]:
    """``count`` started duelo tables: (code, [(cookie, seat or None)] * 4)."""
    user_model.objects.bulk_create(
        [user_model(username=f"s{i}", password="!") for i in range(4 * count)]
    )
    users = list(user_model.objects.filter(username__startswith="s").order_by("id"))
    tables = []
    for t in range(count):
        ana, bruno, w1, w2 = users[4 * t : 4 * t + 4]
        room = services.room_create(user=ana, name=f"Mesa {t}", preset="duelo")
        services.seat_take(room=room, index=1, user=bruno)
        services.match_start(room=room, actor=Seat.objects.get(room=room, index=0))
        people = [(ana, 0), (bruno, 1), (w1, None), (w2, None)]
        tables.append((room.code, [(_session_cookie(u), seat) for u, seat in people]))
    return tables


class Outcome(Counter):
    """How the connection attempts ended, and when (seconds from ``began``)."""

    def __init__(self) -> None:
        super().__init__()
        self.began = time.monotonic()
        self.accepted: list[float] = []  # the handshake's end
        self.snapshots: list[float] = []  # the snapshot's arrival
        self.retried: Counter = Counter()  # failed handshakes, retried as the page does

    def summary(self) -> str:
        def worst(times: list[float]) -> str:
            return f"{max(times):.1f} s" if times else "-"

        return (
            f"{dict(self)}; retried as the page does: {dict(self.retried) or 'none'};"
            f" last handshake after {worst(self.accepted)},"
            f" last snapshot after {worst(self.snapshots)}"
        )


async def _open(server, code: str, cookie: str, seat: int | None, outcome: Outcome):
    """One socket and its snapshot (its seat as expected), reconnecting as the
    page does (static/js/table/socket.js: exponential backoff with jitter, 0.5-1 s,
    1-2 s, ... up to 5-10 s) when a handshake does not go through. An HTTP error
    status is never retried: the drill fails on it. Failed attempts are counted
    in ``outcome.retried``."""
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

    for attempt in range(RECONNECTS + 1):
        try:
            client = await Client.open(server, f"/ws/rooms/{code}/", cookie)
            outcome.accepted.append(time.monotonic() - outcome.began)
            while True:
                msg = await client.receive(timeout=120)
                if msg["type"] == "room":
                    break
        except InvalidStatus as exc:
            outcome[f"HTTP {exc.response.status_code}"] += 1
            return None
        except (InvalidHandshake, ConnectionClosed, OSError, TimeoutError) as exc:
            outcome.retried[type(exc).__name__] += 1
            step = min(2**attempt, 10)
            await asyncio.sleep(step / 2 + random.random() * step / 2)
            continue
        outcome.snapshots.append(time.monotonic() - outcome.began)
        assert msg["you"]["seat"] == seat, (code, seat, msg["you"])
        outcome["snapshot"] += 1
        return client
    outcome["gave up"] += 1
    return None


async def _open_all(server, tables, outcome: Outcome) -> list:
    jobs = [
        _open(server, code, cookie, seat, outcome)
        for code, people in tables
        for cookie, seat in people
    ]
    return await asyncio.gather(*jobs)


def _connected_seats() -> int:
    return Seat.objects.filter(kind="human", connected=True).count()


async def test_four_hundred_sockets_dropped_at_once_all_get_their_snapshot_back(
    servers, django_user_model, settings, own_redis
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    tables = await db_async(_tables)(django_user_model, TABLES)
    server = await asyncio.to_thread(
        servers, redis=True, scheduler="celery", env={"REDIS_URL": own_redis.url()}
    )
    sockets = 4 * TABLES
    # Open them (forty at a time: this is the set-up, not the storm).
    first = Outcome()
    clients = []
    for start in range(0, len(tables), 10):
        clients += await _open_all(server, tables[start : start + 10], first)
    assert first == {"snapshot": sockets}, first
    assert await db_async(_connected_seats)() == 2 * TABLES

    # The storm: every TCP connection cut at once, then all reconnect at once.
    for client in clients:
        client.ws.transport.abort()
    storm = Outcome()
    again = await _open_all(server, tables, storm)
    print(
        f"\nreconnect storm: {sockets} sockets ({TABLES} tables) dropped and reconnected at"
        f" once: {storm.summary()}"
    )
    assert storm == {"snapshot": sockets}, storm
    log = server.output()
    assert " 500 " not in log and "Exception inside application" not in log, log[-3000:]

    # Every player is bound to its new socket (the old ones' goodbyes came first or
    # were told apart by their channel), and every room goes on.
    async def all_bound() -> bool:
        return await db_async(_connected_seats)() == 2 * TABLES

    await async_wait_for(
        all_bound,
        timeout=30,
        message="every player bound to its new socket after the storm",
        every=0.2,
    )
    paused = await db_async(lambda: Room.objects.filter(paused=True).count())()
    assert paused == 0
    for client in again:
        await client.close()
    assert await db_async(replays_match)() == {"rounds": TABLES, "differ": []}
