"""One arena on two Daphne processes, one Celery worker (the arena's ticks)
and one beat (the sweeper), PostgreSQL and Redis (docs/site.md, "Arenas"):
eight accounts, half on each server, play every table the arena gives them
until each has played three, then leave; nobody is ever at two tables at
once, and every match is scored once."""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Count

from arenas import services
from arenas.models import Arena, ArenaMatch, ArenaPlayer
from domino_site.realtime.asyncdb import db_async
from games.world import world
from rooms.models import Seat
from tests.scale.drills import CeleryProcess, process_env
from tests.scale.players import Client, first_legal, my_turn, session_cookie
from tests.waiting import async_wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]

PLAYERS = 8
TABLES_EACH = 3


def _arena(user_model) -> tuple[Arena, list[tuple[int, str]]]:
    users = [user_model.objects.create_user(f"s{i}", password="x") for i in range(PLAYERS)]
    arena = services.arena_create(
        name="Escala",
        preset="duelo",
        starts_at=world().now() + timedelta(seconds=3),
        minutes=30,
        move_seconds=60,
    )
    for i, user in enumerate(users):
        services.arena_join(arena=arena, user=user, ip_hash=f"scale{i}")
    return arena, [(u.pk, session_cookie(u)) for u in users]


async def _arena_frame(sock: Client, predicate, timeout: float = 60) -> dict:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        msg = await sock.receive(max(0.01, end - loop.time()))
        if msg["type"] == "arena" and predicate(msg):
            return msg


def _home(user_id: int) -> str:
    """Each account plays from a loopback address of its own (two homes: an
    arena scores only a lineup that could be rated, docs/rated-play.md)."""
    return f"127.0.0.{10 + user_id % 200}"


async def _play(server, code: str, cookie: str, user_id: int) -> None:
    table = await Client.open(server, f"/ws/rooms/{code}/", cookie, _home(user_id))
    try:
        for _ in range(400):
            state = await table.until(
                lambda s: my_turn(s) or (s["match"] or {}).get("over")
                or s["room"]["status"] == "closed",
                timeout=60,
            )  # fmt: skip
            if (state["match"] or {}).get("over") or state["room"]["status"] == "closed":
                return
            await table.send({**first_legal(state), "version": state["version"]})
            await table.receive(60)
        raise AssertionError("the match did not end")
    finally:
        await table.close()


def _new_table(user_id: int, arena_id: int, played: list[str]) -> str | None:
    """The table the arena seated ``user_id`` at that it has not played yet."""
    code = (
        ArenaPlayer.objects.filter(arena_id=arena_id, user_id=user_id)
        .exclude(table__status="closed")
        .values_list("table__code", flat=True)
        .first()
    )
    return code if code and code not in played else None


def _leave(user_id: int, arena_id: int) -> None:
    services.arena_leave(arena=arena_id, user=get_user_model().objects.get(pk=user_id))


async def _bot(server, arena_id: int, account: tuple[int, str], tables: list[str], everyone):
    """A player who plays every table the arena gives them until every player
    has played TABLES_EACH, then leaves (as one closes the arena's page after
    "Sair"), and plays out a table given meanwhile. Nobody leaves earlier: the
    arena would seat the others with someone gone."""
    user_id, cookie = account
    sock = await Client.open(server, f"/ws/arenas/{arena_id}/", cookie, _home(user_id))
    try:
        while not everyone.done.is_set():
            frame = asyncio.ensure_future(_arena_frame(
                sock, lambda f: f["you"]["table"] and f["you"]["table"] not in tables
            ))  # fmt: skip
            done = asyncio.ensure_future(everyone.done.wait())
            await asyncio.wait({frame, done}, return_when=asyncio.FIRST_COMPLETED)
            done.cancel()
            if not frame.done():
                frame.cancel()
                break
            tables.append(frame.result()["you"]["table"])
            await _play(server, tables[-1], cookie, user_id)
            everyone.played(user_id)
        await db_async(_leave)(user_id, arena_id)
        while code := await db_async(_new_table)(user_id, arena_id, tables):
            tables.append(code)
            await _play(server, code, cookie, user_id)
    finally:
        await sock.close()


class Everyone:
    """How many tables each player has played; ``done`` once each has played
    TABLES_EACH."""

    def __init__(self, user_ids: list[int]) -> None:
        self.count = dict.fromkeys(user_ids, 0)
        self.done = asyncio.Event()

    def played(self, user_id: int) -> None:
        self.count[user_id] += 1
        if min(self.count.values()) >= TABLES_EACH:
            self.done.set()


def _seated_twice() -> list[tuple[int, int]]:
    """Accounts holding seats at two tables not closed."""
    rows = (
        Seat.objects.filter(kind="human", user__isnull=False)
        .exclude(room__status="closed")
        .values("user_id")
        .annotate(n=Count("room", distinct=True))
        .filter(n__gt=1)
    )
    return [(r["user_id"], r["n"]) for r in rows]


async def test_two_servers_and_a_worker_run_one_arena_without_double_pairings(
    servers, django_user_model, settings, own_redis
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    env = process_env(
        REDIS_URL=own_redis.url(), DOMINO_SWEEP_SECONDS="1", DOMINO_SCHEDULER="celery"
    )
    arena, accounts = await db_async(_arena)(django_user_model)
    worker = CeleryProcess("worker", env).start()
    beat = CeleryProcess("beat", env).start()
    try:
        one, two = await asyncio.gather(*[
            asyncio.to_thread(
                servers, redis=True, scheduler="celery", env={"REDIS_URL": own_redis.url()}
            )
            for _ in range(2)
        ])  # fmt: skip
        await asyncio.to_thread(worker.wait_for_output, "ready")
        tables: dict[int, list[str]] = defaultdict(list)
        everyone = Everyone([user_id for user_id, _ in accounts])
        bots = [
            asyncio.create_task(_bot(one if i % 2 else two, arena.pk, account, tables[i], everyone))
            for i, account in enumerate(accounts)
        ]
        doubles: list = []

        async def watch() -> None:
            while True:
                doubles.extend(await db_async(_seated_twice)())
                await asyncio.sleep(0.1)

        watcher = asyncio.create_task(watch())
        await asyncio.wait_for(asyncio.gather(*bots), 240)
        watcher.cancel()
        assert not doubles, doubles
        # Every table is a match of its own, each account in one match at a
        # time, every ended match scored once.
        matches = await db_async(list)(ArenaMatch.objects.filter(arena=arena))
        assert len({am.room_id for am in matches}) == len(matches)
        per_user = defaultdict(list)
        for am in matches:
            for user in am.users:
                per_user[user].append(am)
        for mine in per_user.values():
            mine.sort(key=lambda m: m.started_at)
            for before, after in zip(mine, mine[1:], strict=False):
                assert before.ended_at is not None and before.ended_at <= after.started_at
        await async_wait_for(
            db_async(lambda: not ArenaMatch.objects.filter(arena=arena, ended_at=None).exclude(
                room__status="playing").exists()),
            timeout=30, message="every ended match scored", every=0.1,
        )  # fmt: skip
        played = Counter(u for am in matches if am.ended_at for u in am.users)
        players = await db_async(list)(ArenaPlayer.objects.filter(arena=arena))
        assert all(p.matches >= played[p.user_id] for p in players)
        assert all(p.matches >= TABLES_EACH for p in players)
    finally:
        worker.stop()
        beat.stop()
