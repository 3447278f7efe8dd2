"""A challenge while one plays a match elsewhere (docs/site.md, "Challenges"):
accepting is refused (``already_seated``), but the refusal links one's own
table ("Go to the table") and offers "Leave the table and accept", which
leaves it through the table's own leave (`rooms.services.seat_leave`: a bot
plays the seat until the result; a rated match at stake is the rulebook's
forfeit, its cool-down included) and then accepts. A refusal leaves nothing."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.realtime.asyncdb import db_async
from games.models import Match
from people import challenges
from people.errors import PeopleError
from people.models import Challenge
from records import rulebook
from rooms import services as rooms
from rooms.models import Room, Seat
from tests.people.test_presence import Page
from tests.site.helpers import room_with_bots, seat

HOME = "203.0.113.7"


def _client(user, address: str = HOME) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _challenge(challenger, challenged, **kw) -> Challenge:
    kw = {"preset": "duelo", "move_seconds": 20, "competitive": False, **kw}
    return challenges.challenge_send(challenger=challenger, challenged=challenged, **kw)


def _with_bots(user) -> Room:
    """``user`` plays a match against bots (a "play alone" table)."""
    room = room_with_bots(user, None, preset="duelo")
    rooms.match_start(room=room, actor=seat(room, 0))
    return Room.objects.get(pk=room.pk)


def _rated(user, other) -> Room:
    """``user`` plays a rated duelo with ``other`` (two accounts, two addresses)."""
    room = rooms.room_create(user=other, name="Valendo", preset="duelo", ip_hash="o")
    rooms.seat_take(room=room, index=1, user=user, ip_hash="u")
    rooms.match_start(room=room, actor=seat(room, 0))
    room = Room.objects.get(pk=room.pk)
    assert room.rated
    return room


def _said(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


@pytest.mark.django_db
def test_the_refusal_links_ones_table_and_the_page_leaves_it_and_accepts(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    table = _with_bots(bruno)
    challenge = _challenge(ana, bruno)
    with pytest.raises(PeopleError) as refused:
        challenges.challenge_accept(user=bruno, challenge_id=challenge.pk)
    assert refused.value.code == "already_seated"
    assert refused.value.extra == {"room": table.code, "url": f"/r/{table.code}/"}
    page = _client(bruno).post(f"/challenges/{challenge.pk}/accept/", {"next": "/"}, follow=True)
    assert _said(page) == [
        "You are in the middle of a match: finish it first, or leave it to accept."
    ]
    html = page.content.decode()
    assert f'<a href="/r/{table.code}/" data-action="go-to-table">Go to the table</a>' in html
    assert f'name="leave" value="{table.code}"' in html
    assert 'data-action="challenge-leave-accept">Leave the table and accept</button>' in html
    assert Challenge.objects.get().status == "pending"
    answer = _client(bruno).post(
        f"/challenges/{challenge.pk}/accept/", {"next": "/", "leave": table.code}
    )
    new = Challenge.objects.get().room
    assert new is not None and answer["Location"] == f"/r/{new.code}/"
    # the old table's own leave: a bot plays bruno's seat until the result
    left = Seat.objects.get(room=table, index=0)
    assert left.substitute and left.substitute_reason == "left"
    assert challenges.seated_in_play(bruno) == new.code


@pytest.mark.django_db
def test_leaving_a_rated_table_to_accept_is_its_forfeit(make_user):
    """The rulebook is asked as by the table's own leave: the rated match at
    stake is lost by forfeit and the cool-down starts; a rated challenge is then
    refused by that cool-down, and nothing was left."""
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    table = _rated(bruno, caio)
    rated = _challenge(ana, bruno, competitive=True)
    with pytest.raises(PeopleError) as refused:
        challenges.challenge_accept(
            user=bruno, challenge_id=rated.pk, leave=table.code, ip_hash="u"
        )
    assert refused.value.code == "cooldown"
    assert not Match.objects.get(room=table).over  # nothing was left
    assert challenges.seated_in_play(bruno) == table.code
    assert rulebook.cooldown_for(user=bruno) is None
    friendly = _challenge(ana, bruno)  # replaces the rated one
    room = challenges.challenge_accept(
        user=bruno, challenge_id=friendly.pk, leave=table.code, ip_hash="u"
    )
    assert room is not None and Room.objects.get(pk=room.pk).status == "playing"
    match = Match.objects.get(room=table)
    assert match.over and match.ended_by == "abandono" and match.winner == 0
    assert rulebook.cooldown_for(user=bruno) is not None


@pytest.mark.django_db
def test_only_ones_own_table_is_left_and_a_refusal_leaves_nothing(make_user):
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    mine = _with_bots(bruno)
    theirs = _with_bots(caio)
    challenge = _challenge(ana, bruno)
    with pytest.raises(PeopleError) as refused:  # someone else's table: nothing left
        challenges.challenge_accept(user=bruno, challenge_id=challenge.pk, leave=theirs.code)
    assert refused.value.extra["room"] == mine.code
    assert challenges.seated_in_play(caio) == theirs.code
    assert challenges.seated_in_play(bruno) == mine.code
    _with_bots(ana)  # now the challenger plays a match: the accept is refused after the leave
    with pytest.raises(PeopleError) as refused:
        challenges.challenge_accept(user=bruno, challenge_id=challenge.pk, leave=mine.code)
    assert refused.value.message == "ana is in the middle of a match."
    assert refused.value.extra == {}  # not bruno's table: no link
    assert challenges.seated_in_play(bruno) == mine.code  # the leave was undone
    assert not Seat.objects.get(room=mine, index=0).substitute
    assert Challenge.objects.get().status == "pending"


@pytest.mark.django_db(transaction=True)
async def test_the_socket_refusal_carries_the_table_and_leave_and_accept_seats_both(
    live, django_user_model
):
    ana, bruno = await sync_to_async(
        lambda: [django_user_model.objects.create_user(n, password="x") for n in ("ana", "bruno")]
    )()
    table = await db_async(_with_bots)(bruno)
    challenge = await db_async(_challenge)(ana, bruno)
    challenger = await Page.open(ana)
    await challenger.next("friends")
    challenged = await Page.open(bruno)
    shown = await challenged.next("challenge")
    await challenged.comm.send_json_to({"type": "challenge_accept", "id": shown["id"], "ref": 3})
    refused = await challenged.next("error")
    assert refused == {
        "type": "error",
        "code": "already_seated",
        "message": "You are in the middle of a match: finish it first, or leave it to accept.",
        "ref": 3,
        "room": table.code,
        "url": f"/r/{table.code}/",
    }
    await challenged.comm.send_json_to(
        {"type": "challenge_accept", "id": challenge.pk, "ref": 3, "leave": refused["room"]}
    )
    for_bruno = await challenged.next("challenge_started")
    for_ana = await challenger.next("challenge_started")
    assert for_ana == for_bruno and for_ana["room"] != table.code
    seats = await db_async(
        lambda: list(
            Seat.objects.filter(room__code=for_ana["room"])
            .order_by("index")
            .values_list("user__username", flat=True)
        )
    )()
    assert seats == ["ana", "bruno"]
    left = await db_async(Seat.objects.get)(room=table, index=0)
    assert left.substitute and left.substitute_reason == "left"
