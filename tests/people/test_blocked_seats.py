"""A block keeps the two apart at the tables too (docs/site.md, "Friends,
blocking and who is online"): whoever is blocked cannot take a seat at a table
where the one who blocked them sits or hosts, by any path, and the one who
blocked cannot sit with them either. The refusal is ``blocked`` with a clear
sentence (the invite's page answers 403), and changes nothing; watching a
public table stays open. Every path asks one check, the rooms' seat-taking
(`rooms.services.apart.check_not_kept_apart`): the invite's POST, the
table's ``sit``, and the tables the quick match, the arenas and the
challenges open through `rooms.services.seat_take` (their pairings never
even try: tests/people/test_blocking.py, tests/people/test_challenges.py)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.client_ip import ip_hash
from domino_site.realtime.asyncdb import db_async
from games.errors import ServiceError
from people import services
from people.models import Challenge
from rooms import services as rooms
from rooms.models import Room, Seat
from tests.realtime.conftest import Player, session_cookie
from tests.site.helpers import play_round, room_with_bots, seat

ANA_IP, BRUNO_IP, CAIO_IP = "203.0.113.10", "198.51.100.20", "192.0.2.30"


def _client(user, address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _people_at(room) -> list[str]:
    seats = Seat.objects.filter(room=room, user__isnull=False).select_related("user")
    return sorted(seat.user.username for seat in seats)


@pytest.mark.django_db
def test_a_blocked_player_cannot_sit_by_the_private_rooms_invite(make_user):
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    services.block(blocker=ana, blocked=bruno)
    room = rooms.room_create(
        user=ana,
        name="Mesa",
        preset="parceria",
        visibility=Room.Visibility.PRIVATE,
        ip_hash=ip_hash(ANA_IP),
    )
    answer = _client(bruno, BRUNO_IP).post(room.invite_path)
    assert answer.status_code == 403
    assert "You cannot sit at this table." in answer.content.decode()
    assert _people_at(room) == ["ana"]
    # the one who blocked cannot sit with them either: caio's table, bruno seated
    other = rooms.room_create(
        user=caio, name="Outra", preset="parceria", visibility=Room.Visibility.PRIVATE
    )
    assert _client(bruno, BRUNO_IP).post(other.invite_path).status_code == 302
    answer = _client(ana, ANA_IP).post(other.invite_path)
    assert answer.status_code == 403
    assert "You blocked someone at this table" in answer.content.decode()
    assert _people_at(other) == ["bruno", "caio"]
    # anyone else sits as before
    answer = _client(caio, CAIO_IP).post(room.invite_path)
    assert answer.status_code == 302 and answer["Location"] == f"/r/{room.code}/"
    assert _people_at(room) == ["ana", "caio"]


@pytest.mark.django_db
def test_the_tables_the_site_opens_refuse_a_blocked_pair_in_the_one_seat_check(make_user):
    """The quick match, the arenas and the challenges seat their people with
    `rooms.services.seat_take`: a blocked pair is refused there too, whichever
    of the two sits first, and nothing changes."""
    ana, bruno = make_user("ana"), make_user("bruno")
    services.block(blocker=bruno, blocked=ana)
    for first, second, sentence in (
        (ana, bruno, "You blocked someone at this table: unblock them to sit here."),
        (bruno, ana, "You cannot sit at this table."),
    ):
        room = rooms.room_create(
            user=first,
            name="Mesa",
            preset="duelo",
            visibility=Room.Visibility.PRIVATE,
            seated_by_pairing=True,
            ip_hash=ip_hash(ANA_IP),
        )
        version = Room.objects.get(pk=room.pk).version
        with pytest.raises(ServiceError) as refused:
            rooms.seat_take(room=room, index=1, user=second, ip_hash=ip_hash(BRUNO_IP))
        assert refused.value.code == "blocked" and refused.value.message == sentence
        assert _people_at(room) == [first.username]
        assert Room.objects.get(pk=room.pk).version == version


@pytest.mark.django_db(transaction=True)
async def test_a_blocked_player_watches_a_public_table_but_cannot_sit_there(
    live, django_user_model
):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    await db_async(services.block)(blocker=ana, blocked=bruno)
    room = await sync_to_async(rooms.room_create)(user=ana, name="Mesa", preset="duelo")
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    watcher = await Player.table(room.code, await sync_to_async(session_cookie)(bruno), BRUNO_IP)
    assert watcher.state is not None and watcher.state["you"]["seat"] is None  # watching
    await watcher.send({"type": "sit", "seat": 1})
    refused = await watcher.error()
    assert refused["code"] == "blocked"
    assert refused["message"] == "You cannot sit at this table."
    assert await db_async(_people_at)(room) == ["ana"]
    # and the one who blocked cannot sit at bruno's table
    theirs = await sync_to_async(rooms.room_create)(user=bruno, name="Dele", preset="duelo")
    blocker = await Player.table(theirs.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    await blocker.send({"type": "sit", "seat": 1})
    assert (await blocker.error())["code"] == "blocked"
    assert await db_async(_people_at)(theirs) == ["bruno"]
    assert host.state is not None and host.state["seats"][1]["kind"] == "empty"


@pytest.mark.django_db
def test_no_rematch_between_a_blocked_pair(make_user, clock):
    """The rematch (and any challenge) between them is refused before any table
    opens; one offered before the block is withdrawn by it."""
    ana, bruno = make_user("ana"), make_user("bruno")
    room = rooms.room_create(user=ana, name="Mesa", preset="duelo", ip_hash=ip_hash(ANA_IP))
    rooms.seat_take(room=room, index=1, user=bruno, ip_hash=ip_hash(BRUNO_IP))
    rooms.match_start(room=room, actor=Seat.objects.get(room=room, index=0), now=clock())
    play_round(Room.objects.get(pk=room.pk), clock())  # a duelo is one round
    offered = _client(ana, ANA_IP).post(f"/rematch/{room.code}/")
    assert offered.status_code == 302
    assert Challenge.objects.filter(status="pending").count() == 1
    services.block(blocker=bruno, blocked=ana)
    assert not Challenge.objects.filter(status="pending").exists()
    answer = _client(ana, ANA_IP).post(f"/rematch/{room.code}/", follow=True)
    assert "You cannot challenge this player." in [str(m) for m in answer.context["messages"]]
    assert not Challenge.objects.filter(status="pending").exists()
    assert Room.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("blocker", ["host", "reserver"])
def test_a_reservation_made_before_a_block_lapses_at_the_rounds_result(make_user, clock, blocker):
    """A seat reserved on a bot during a round is handed over at the result
    only if no block stands between its person and the table's people then:
    a block made since lets it lapse (the bot keeps the seat)."""
    ana, bruno = make_user("ana"), make_user("bruno")
    room = room_with_bots(ana, clock(), preset="duelo")
    rooms.match_start(room=room, actor=seat(room, 0), now=clock())
    assert rooms.seat_take(room=room, index=1, user=bruno, now=clock()).reserved_user == bruno
    if blocker == "host":
        services.block(blocker=ana, blocked=bruno)
    else:
        services.block(blocker=bruno, blocked=ana)
    play_round(Room.objects.get(pk=room.pk), clock())
    after = seat(room, 1)
    assert after.kind == "bot" and not after.is_reserved
    assert _people_at(room) == ["ana"]
