"""Arenas through real sockets (docs/site.md, "Arenas"): accounts on the arena
socket, playing every table it gives them over the table socket, on the
embedded server (the in-process ticker pairs, scores and ends the arena); the
watchers hear nothing of a join refused for joining and leaving too often."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from arenas import services
from arenas.models import Arena, ArenaMatch, ArenaPlayer
from domino_site.realtime.asyncdb import db_async
from games.world import world
from tests.realtime.arena_bots import ArenaBot, ArenaSocket
from tests.realtime.conftest import Player, advance, session_cookie
from tests.waiting import async_wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _arena(
    preset: str, names: list[str], django_user_model, minutes: int = 3, starts_in: int = 0
) -> tuple:
    users = [django_user_model.objects.create_user(n, password="x") for n in names]
    starts_at = world().now() + timedelta(seconds=starts_in)
    arena = services.arena_create(
        name="Arena", preset=preset, starts_at=starts_at, minutes=minutes, move_seconds=60
    )
    for i, user in enumerate(users):
        services.arena_join(arena=arena, user=user, ip_hash=f"ip{i}")
    return arena, [session_cookie(u) for u in users], users


def _matches(arena_id: int) -> list[ArenaMatch]:
    return list(ArenaMatch.objects.filter(arena_id=arena_id).order_by("started_at", "pk"))


def _expected_scores(matches: list[ArenaMatch]) -> dict[int, tuple[int, int, int]]:
    """(score, streak, matches) of each account, from the matches' winners in
    the order they ended: 2 a win, 4 from the third win in a row, 0 a loss."""
    score: dict[int, int] = defaultdict(int)
    streak: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    for am in sorted(matches, key=lambda m: (m.ended_at, m.pk)):
        for user in am.users:
            played[user] += 1
            if not am.winners:
                score[user] += 2 if streak[user] >= 2 else 1
                streak[user] = 0
            elif user in am.winners:
                score[user] += 4 if streak[user] >= 2 else 2
                streak[user] += 1
            else:
                streak[user] = 0
    return {u: (score[u], streak[u], played[u]) for u in played}


def _failed(runs: list[asyncio.Task]) -> bool:
    """Raise a bot's failure at once rather than wait for the deadline."""
    for run in runs:
        if run.done() and run.exception() is not None:
            raise run.exception()
    return False


def _no_overlap(matches: list[ArenaMatch]) -> None:
    """Nobody at two tables at once: each account's matches follow one another."""
    by_user: dict[int, list[ArenaMatch]] = defaultdict(list)
    for am in matches:
        for user in am.users:
            by_user[user].append(am)
    for user, mine in by_user.items():
        mine.sort(key=lambda m: m.started_at)
        for before, after in zip(mine, mine[1:], strict=False):
            assert before.ended_at is not None and before.ended_at <= after.started_at, user


async def test_an_eight_player_duelo_arena_pairs_again_counts_streaks_and_ends_on_time(
    live, django_user_model
):
    names = [f"p{i}" for i in range(8)]
    arena, cookies, users = await sync_to_async(_arena)("duelo", names, django_user_model)
    bots = [ArenaBot(arena.pk, c, f"10.0.0.{i}") for i, c in enumerate(cookies)]
    runs = [asyncio.create_task(b.run()) for b in bots]
    watcher = await ArenaSocket.open(arena.pk)  # a socket without an account
    # Everyone is seated at once, and seated again as their matches end.
    await async_wait_for(
        lambda: _failed(runs) or all(len(b.tables) >= 3 for b in bots),
        timeout=120,
        message="every player seated at three tables in turn",
    )
    matches = await sync_to_async(_matches)(arena.pk)
    assert all(len(am.users) == 2 for am in matches)
    # Never the same opponent twice in a row.
    last: dict[int, int] = {}
    for am in matches:
        a, b = am.users
        assert last.get(a) != b and last.get(b) != a, (a, b)
        last[a], last[b] = b, a
    # The end: three minutes after the start, nobody is paired any more; the
    # matches being played finish and count.
    advance(3 * 60)
    await watcher.wait_arena(lambda f: f["status"] == "finished", timeout=30)
    await asyncio.wait_for(asyncio.gather(*runs), 120)
    final = await watcher.wait_arena(lambda f: f["podium"], timeout=30)
    matches = await sync_to_async(_matches)(arena.pk)
    ends_at = arena.starts_at + timedelta(minutes=3)
    late = [
        (am.pk, am.started_at, am.ended_at)
        for am in matches
        if am.started_at >= ends_at or am.ended_at is None
    ]
    assert not late, (late, ends_at)
    _no_overlap(matches)
    expected = _expected_scores(matches)
    players = await sync_to_async(list)(ArenaPlayer.objects.filter(arena=arena))
    for p in players:
        assert (p.score, p.streak, p.matches) == expected[p.user_id], p.user_id
    assert sum(p.wins for p in players) == sum(len(am.winners) for am in matches)
    # The standings over the socket are the stored ones, best first, and the
    # podium is the top three, with their final ranks stored.
    rows = final["standings"]
    assert [r["score"] for r in rows] == sorted((r["score"] for r in rows), reverse=True)
    by_name = {u.username: u.pk for u in users}
    assert {(r["player"], r["score"]) for r in rows} == {
        (n, expected[by_name[n]][0]) for n in names
    }
    assert final["podium"] == rows[:3]
    ranks = {p.user_id: p.rank for p in players}
    assert [ranks[by_name[r["player"]]] for r in rows] == list(range(1, 9))
    assert (await sync_to_async(Arena.objects.get)(pk=arena.pk)).status == "finished"


async def test_a_parceria_arena_seats_fours_and_changes_partners(live, django_user_model):
    names = [f"q{i}" for i in range(4)]
    arena, cookies, users = await sync_to_async(_arena)("parceria", names, django_user_model)
    bots = [ArenaBot(arena.pk, c, f"10.0.1.{i}") for i, c in enumerate(cookies)]
    runs = [asyncio.create_task(b.run(max_tables=3)) for b in bots]
    await asyncio.wait_for(asyncio.gather(*runs), 240)
    matches = await sync_to_async(_matches)(arena.pk)
    assert len(matches) >= 3
    pairs = []
    for am in matches:
        assert sorted(am.users) == sorted(u.pk for u in users)
        pairs.append({frozenset((am.users[0], am.users[2])), frozenset((am.users[1], am.users[3]))})
        # each winner gets the points
        if am.winners:
            assert len(am.winners) == 2 and all(am.points[str(u)] >= 2 for u in am.winners)
    for before, after in zip(pairs, pairs[1:], strict=False):
        assert before != after, "partners change from match to match"


async def test_a_player_who_leaves_is_not_paired_again(live, django_user_model, settings):
    settings.ARENA_REMATCH_SECONDS = 0  # two players left: they may meet again at once
    names = ["r0", "r1", "r2"]
    arena, cookies, users = await sync_to_async(_arena)(
        "duelo", names, django_user_model, starts_in=60
    )
    leaver = users[0]
    first = await ArenaSocket.open(arena.pk, cookies[0])
    await first.wait_arena(lambda f: f["you"]["joined"])
    await sync_to_async(services.arena_leave)(arena=arena, user=leaver)
    await first.wait_arena(lambda f: not f["you"]["joined"])
    bots = [ArenaBot(arena.pk, c, f"10.0.2.{i}") for i, c in enumerate(cookies[1:])]
    advance(60)
    runs = [asyncio.create_task(b.run(max_tables=2)) for b in bots]
    await asyncio.wait_for(asyncio.gather(*runs), 120)
    matches = await sync_to_async(_matches)(arena.pk)
    assert len(matches) >= 2
    assert all(leaver.pk not in am.users for am in matches)
    assert first.arena["you"] == {"joined": False, "table": None}


async def test_a_private_arena_socket_is_for_its_players_and_answers_ping(live, django_user_model):
    def make():
        ana, bia = (django_user_model.objects.create_user(n, password="x") for n in ("ana", "bia"))
        arena = services.arena_create(
            name="Amigos",
            preset="duelo",
            starts_at=world().now() + timedelta(hours=1),
            minutes=30,
            visibility="private",
            created_by=ana,
        )
        return arena, session_cookie(ana), session_cookie(bia)

    arena, ana, bia = await sync_to_async(make)()
    stranger = Player(f"/ws/arenas/{arena.pk}/", bia)
    connected, _ = await stranger.comm.connect(timeout=5)
    assert connected
    closed = await stranger.comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4004}
    mine = await ArenaSocket.open(arena.pk, ana)
    assert mine.arena["status"] == "upcoming" and mine.arena["you"] == {
        "joined": False,
        "table": None,
    }
    await mine.send({"type": "ping", "ref": 7})
    assert (await mine.receive()) == {"type": "pong", "ref": 7}
    await mine.send({"type": "join"})
    assert (await mine.receive())["code"] == "bad_message"


async def test_a_join_refused_for_joining_and_leaving_too_often_sends_the_watchers_nothing(
    live, django_user_model
):
    """Every join or leave is one frame to every watcher; the refused one, none."""

    def make():
        ana = django_user_model.objects.create_user("ana", password="x")
        arena = services.arena_create(
            name="Arena", preset="duelo", starts_at=world().now() + timedelta(hours=1), minutes=30
        )
        client = Client()
        client.force_login(ana)
        return arena, client

    arena, client = await sync_to_async(make)()
    watcher = await ArenaSocket.open(arena.pk)  # anyone may watch a public arena
    post = sync_to_async(client.post)
    for what in ("join", "leave") * 3:
        assert (await post(f"/torneios/{arena.pk}/{what}/")).status_code == 302
        frame = await watcher.next_frame()
        shown = [row["player"] for row in frame["standings"]]  # who is in, or played
        assert shown == (["ana"] if what == "join" else [])
    assert (await post(f"/torneios/{arena.pk}/join/")).status_code == 429
    assert await watcher.nothing(timeout=0.5)


async def test_ticks_with_nothing_to_do_send_the_watchers_nothing(live, django_user_model):
    """Issue 40: the version rose with every tick (the sweeper's, the timers')
    though nothing changed. A tick that changes nothing tells nobody and leaves
    the version as it was; a change still reaches every watcher."""
    arena, _cookies, _users = await sync_to_async(_arena)(
        "duelo", ["t0", "t1"], django_user_model, minutes=30
    )
    watcher = await ArenaSocket.open(arena.pk)
    seated = await watcher.wait_arena(
        lambda f: f["status"] == "running" and all(r["playing"] for r in f["standings"])
    )
    tick, sweep_arenas = db_async(services.arena_tick), db_async(services.arenas_sweep)
    for seconds in (1, 10, 19):  # both at their table, the end far away
        now = world().now() + timedelta(seconds=seconds)
        assert not await tick(arena=arena.pk, now=now)
        assert await sweep_arenas(now=now) == 0
    assert await watcher.nothing(timeout=0.5)
    stored = await sync_to_async(Arena.objects.get)(pk=arena.pk)
    assert stored.version == seated["version"]
    late = await sync_to_async(django_user_model.objects.create_user)("t2", password="x")
    await sync_to_async(services.arena_join)(arena=arena.pk, user=late, ip_hash="ip9")
    frame = await watcher.next_frame()
    assert frame["version"] == seated["version"] + 1
    assert "t2" in [row["player"] for row in frame["standings"]]
