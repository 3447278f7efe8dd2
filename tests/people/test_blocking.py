"""Blocking (docs/site.md, "Friends, blocking and who is online"): a blocked
player's friend request is refused with a clear message and changes nothing;
blocking ends a friendship and the requests; the quick match (through the real
ws/quick/ socket path) and an arena never seat a blocked pair together, even
when they are the only two waiting."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from arenas import services as arenas
from arenas.models import ArenaMatch, ArenaPlayer
from domino_site.realtime.asyncdb import db_async
from games.world import world
from people import selectors, services
from people.errors import PeopleError
from people.models import Block, FriendRequest, Friendship
from quick.services import quick_pair
from rooms.models import QuickEntry, Room, Seat
from tests.realtime.test_quick_match import Quick

HOME, ELSEWHERE, THIRD = "203.0.113.7", "198.51.100.8", "192.0.2.9"


def _client(user, address: str = HOME) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_blocked_player_cannot_send_a_friend_request(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    as_bruno = _client(bruno)
    answer = _client(ana).post("/friends/bruno/block/", follow=True)
    assert "You blocked bruno." in [str(m) for m in answer.context["messages"]]
    answer = as_bruno.post("/friends/ana/request/", follow=True)
    said = [str(m) for m in answer.context["messages"]]
    assert said == ["This player does not accept friend requests from you."]
    assert not FriendRequest.objects.exists() and not Friendship.objects.exists()
    assert Block.objects.filter(blocker=ana, blocked=bruno).count() == 1
    # and the one who blocks must unblock first
    with pytest.raises(PeopleError) as refused:
        services.friend_request_send(sender=ana, recipient=bruno)
    assert refused.value.code == "blocking"
    assert not FriendRequest.objects.exists()
    _client(ana).post("/friends/bruno/unblock/")
    assert services.friend_request_send(sender=bruno, recipient=ana) == "sent"


@pytest.mark.django_db
def test_blocking_ends_the_friendship_and_the_requests(make_user):
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    services.friend_request_send(sender=ana, recipient=bruno)
    services.friend_request_accept(user=bruno, sender=ana)
    services.friend_request_send(sender=caio, recipient=ana)
    services.block(blocker=bruno, blocked=ana)
    services.block(blocker=ana, blocked=caio)
    services.block(blocker=ana, blocked=caio)  # again: nothing new
    assert not Friendship.objects.exists() and not FriendRequest.objects.exists()
    assert Block.objects.count() == 2
    assert selectors.kept_apart([ana.pk, bruno.pk, caio.pk]) == {
        frozenset((ana.pk, bruno.pk)),
        frozenset((ana.pk, caio.pk)),
    }
    assert selectors.relation(viewer=bruno, person=ana) == "blocking"
    assert selectors.relation(viewer=ana, person=bruno) == "none"  # not told
    html = _client(ana).get("/players/bruno/").content.decode()
    assert 'data-relation="none"' in html and "blocked" not in html.lower()


# ---------------------------------------------------------------- quick match


def _people(django_user_model, *names: str):
    return [django_user_model.objects.create_user(name, password="x") for name in names]


def _tables() -> list[set[str]]:
    rooms = {}
    for seat in Seat.objects.filter(kind="human").select_related("user", "room"):
        rooms.setdefault(seat.room.code, set()).add(seat.user.username)
    return list(rooms.values())


@pytest.mark.django_db(transaction=True)
async def test_quick_match_never_pairs_a_blocked_pair_even_alone_in_the_queue(
    live,
    django_user_model,
):
    ana, bruno, caio = await sync_to_async(_people)(django_user_model, "ana", "bruno", "caio")
    await db_async(services.block)(blocker=ana, blocked=bruno)
    one = await Quick.open(ana, HOME)
    two = await Quick.open(bruno, ELSEWHERE)
    await one.join("duelo", 20, people_only=True)
    await one.queue_until(1)
    await two.join("duelo", 20, people_only=True)
    await two.queue_until(2)  # both wait in one queue, alone
    for minutes in (0, 1, 5, 60):  # however wide their windows grow
        later = world().now() + timedelta(minutes=minutes)
        assert await db_async(quick_pair)(now=later) is not None  # they still wait
    assert await db_async(Room.objects.count)() == 0
    assert await db_async(QuickEntry.objects.count)() == 2
    assert not any(f["type"] == "matched" for f in one.frames + two.frames)
    # a third person is paired with one of them, never the pair together
    three = await Quick.open(caio, THIRD)
    await three.join("duelo", 20, people_only=True)
    matched = await three.next("matched")
    tables = await db_async(_tables)()
    assert len(tables) == 1 and "caio" in tables[0] and tables[0] != {"ana", "bruno"}
    assert matched["room"] == await db_async(lambda: Room.objects.get().code)()


@pytest.mark.django_db(transaction=True)
async def test_quick_match_bots_never_seat_a_blocked_pair_together(
    live,
    django_user_model,
    settings,
):
    """Past the wait, each gets bots of their own rather than the other."""
    settings.QUICK_BOTS_AFTER = 0.3
    ana, bruno = await sync_to_async(_people)(django_user_model, "ana", "bruno")
    await db_async(services.block)(blocker=bruno, blocked=ana)
    one = await Quick.open(ana, HOME)
    two = await Quick.open(bruno, ELSEWHERE)
    await one.join("duelo", 20)
    await two.join("duelo", 20)
    first, second = await one.next("matched"), await two.next("matched")
    assert first["room"] != second["room"]
    assert sorted(map(sorted, await db_async(_tables)())) == [["ana"], ["bruno"]]


@pytest.mark.django_db(transaction=True)
async def test_parceria_never_seats_a_blocked_pair_at_one_table(
    live,
    django_user_model,
):
    names = ("ana", "bruno", "caio", "dani", "edu")
    people = await sync_to_async(_people)(django_user_model, *names)
    await db_async(services.block)(blocker=people[0], blocked=people[1])
    sockets = [await Quick.open(p, f"203.0.113.{20 + i}") for i, p in enumerate(people)]
    for socket in sockets[:4]:  # ana and bruno among the four: no table yet
        await socket.join("parceria", 20, people_only=True)
        await socket.next("queue")
    assert await db_async(quick_pair)(now=world().now() + timedelta(minutes=5)) is not None
    assert await db_async(Room.objects.count)() == 0
    await sockets[4].join("parceria", 20, people_only=True)
    await sockets[4].next("matched")
    (table,) = await db_async(_tables)()
    assert len(table) == 4 and not {"ana", "bruno"} <= table


# --------------------------------------------------------------------- arenas


def _joined(arena, user, address: str) -> None:
    assert _client(user, address).post(f"/torneios/{arena.pk}/join/").status_code == 302


def _arena_tables(arena) -> list[set[str]]:
    names = dict(ArenaPlayer.objects.filter(arena=arena).values_list("user_id", "user__username"))
    return [{names[u] for u in am.users} for am in ArenaMatch.objects.filter(arena=arena)]


@pytest.mark.django_db
def test_an_arena_never_pairs_a_blocked_pair(make_user):
    ana, bia, caio = make_user("ana"), make_user("bia"), make_user("caio")
    services.block(blocker=bia, blocked=ana)
    arena = arenas.arena_create(name="Noite", preset="duelo", starts_at=world().now(), minutes=60)
    _joined(arena, ana, HOME)
    _joined(arena, bia, ELSEWHERE)
    for minutes in (0, 5, 30):  # however long they wait, rematch rule or not
        arenas.arena_tick(arena=arena, now=world().now() + timedelta(minutes=minutes))
        assert _arena_tables(arena) == []
    _joined(arena, caio, THIRD)
    arenas.arena_tick(arena=arena, now=world().now() + timedelta(minutes=31))
    (table,) = _arena_tables(arena)
    assert "caio" in table and table != {"ana", "bia"}
