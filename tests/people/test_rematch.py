"""Rematch (docs/site.md, "Rematch"): after a match of two people (a quick
match, a challenge, a rated duelo), the table page offers each the other a
rematch; it reaches the other live as a challenge, and accepted, the two sit
at a new table the other way round. Only the two see the offer; it waits for
the match's end; the rulebook's cool-down applies."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.client_ip import ip_hash
from domino_site.realtime.asyncdb import db_async
from people import challenges
from people.errors import PeopleError
from people.models import Challenge
from records import services as records
from rooms import services as rooms
from rooms.models import Room, Seat
from tests.people.test_presence import Page
from tests.site.helpers import play_round


def _client(user) -> Client:
    client = Client(REMOTE_ADDR="203.0.113.7")
    client.force_login(user)
    return client


def _duelo(ana, bruno, now):
    """A rated duelo of ana (seat 0) and bruno (seat 1), started."""
    room = rooms.room_create(
        user=ana, name="Mesa", preset="duelo", move_seconds=20, ip_hash=ip_hash("203.0.113.1")
    )
    rooms.seat_take(room=room, index=1, user=bruno, ip_hash=ip_hash("203.0.113.2"))
    rooms.match_start(room=room, actor=Seat.objects.get(room=room, index=0), now=now)
    return Room.objects.get(pk=room.pk)


def _seats(room) -> list[tuple[int, str, str]]:
    rows = Seat.objects.filter(room=room).order_by("index")
    return [(s.index, s.kind, s.user.username if s.user else "") for s in rows]


@pytest.mark.django_db
def test_the_table_offers_the_two_a_rematch_after_the_match(make_user, clock):
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    room = _duelo(ana, bruno, clock())
    table = f"/r/{room.code}/"
    assert 'data-action="rematch"' in _client(ana).get(table).content.decode()
    assert 'data-action="rematch"' not in _client(caio).get(table).content.decode()  # a watcher
    with pytest.raises(PeopleError) as refused:
        challenges.rematch_offer(user=ana, room=room)
    assert refused.value.code == "already_seated"  # the match is still being played
    play_round(room, clock())  # a duelo is one round
    answer = _client(ana).post(f"/rematch/{room.code}/", {"next": table}, follow=True)
    assert "Rematch offered to bruno: waiting for an answer." in [
        str(m) for m in answer.context["messages"]
    ]
    offer = Challenge.objects.get()
    assert (offer.challenger, offer.challenged, offer.rematch_of) == (ana, bruno, room)
    assert (offer.preset, offer.move_seconds, offer.competitive) == ("duelo", 20, True)
    with pytest.raises(PeopleError):
        challenges.rematch_offer(user=caio, room=room)  # not one of the two
    new = challenges.challenge_accept(user=bruno, challenge_id=offer.pk)
    assert _seats(new) == [(0, "human", "bruno"), (1, "human", "ana")]  # the other way round
    assert Room.objects.get(pk=new.pk).status == "playing"


@pytest.mark.django_db
def test_a_rated_rematch_waits_for_the_cool_down(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _duelo(ana, bruno, clock())
    play_round(room, clock())
    offer = challenges.rematch_offer(user=bruno, room=room)
    records.abandonment_recorded(user=ana, reason="left")
    with pytest.raises(PeopleError) as refused:
        challenges.challenge_accept(user=ana, challenge_id=offer.pk)
    assert refused.value.code == "cooldown"
    assert Room.objects.count() == 1


@pytest.mark.django_db(transaction=True)
async def test_a_rematch_reaches_the_other_live_and_both_go_to_the_new_table(
    live, django_user_model
):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    room = await db_async(_duelo)(ana, bruno, None)
    await db_async(play_round)(room, None)
    one = await Page.open(ana, room=room.code)
    two = await Page.open(bruno, room=room.code)
    for page in (one, two):
        await page.next("friends")
    await db_async(challenges.rematch_offer)(user=ana, room=room)
    offer = await two.next("challenge")
    assert offer["rematch"] is True and offer["from"] == "ana"
    await two.comm.send_json_to({"type": "challenge_accept", "id": offer["id"]})
    started = [await one.next("challenge_started"), await two.next("challenge_started")]
    assert started[0]["room"] == started[1]["room"] != room.code


@pytest.mark.django_db
def test_a_parceria_of_four_is_offered_again_with_the_same_partnerships(make_user, clock):
    names = ("ana", "bruno", "caio", "dani")  # seats 0..3: ana and caio partners
    people = [make_user(n) for n in names]
    room = rooms.room_create(user=people[0], name="Mesa", preset="parceria", competitive=False)
    for index, person in enumerate(people[1:], start=1):
        rooms.seat_take(room=room, index=index, user=person)
    rooms.match_start(room=room, actor=Seat.objects.get(room=room, index=0), now=clock())
    page = _client(people[2]).get(f"/r/{room.code}/").content.decode()
    assert "Rematch with dani, ana, bruno" in page  # caio's next opponent, partner, theirs
    rooms.room_close(room=Room.objects.get(pk=room.pk), reason="test")  # the match is over
    offer = challenges.rematch_offer(user=people[2], room=Room.objects.get(pk=room.pk))
    assert offer.challenged.username == "dani"
    assert [i["seat"] for i in offer.invited] == [2, 3]
    for person in (people[3], people[0]):
        assert challenges.challenge_accept(user=person, challenge_id=offer.pk) is None
    new = challenges.challenge_accept(user=people[1], challenge_id=offer.pk)
    assert _seats(new) == [
        (0, "human", "caio"),
        (1, "human", "dani"),
        (2, "human", "ana"),
        (3, "human", "bruno"),
    ]  # caio and ana partners again, dani and bruno
