"""Challenges (docs/site.md, "Challenges"): sent from a profile, seen live on
the challenged person's pages (ws/people/), accepted or declined there; an
accepted one seats both at a new private table, the match started, and sends
both there within 2 s; the rulebook's cool-down, blocks and the "who may
challenge you" setting refuse it; a stranger hears nothing of it."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.realtime.asyncdb import db_async
from games.models import Round
from games.world import world
from people import challenges, services
from people.errors import PeopleError
from people.models import Challenge
from records import services as records
from rooms.models import Room, Seat
from tests.people.test_presence import Page

HOME, ELSEWHERE = "203.0.113.7", "198.51.100.8"


def _client(user, address: str = HOME) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _people(django_user_model, *names: str):
    return [django_user_model.objects.create_user(name, password="x") for name in names]


def _send(challenger, challenged, **kw):
    kw = {"preset": "duelo", "move_seconds": 20, **kw}
    return challenges.challenge_send(challenger=challenger, challenged=challenged, **kw)


def _seats(code: str) -> list[tuple[int, str, str]]:
    rows = Seat.objects.filter(room__code=code).order_by("index")
    return [(s.index, s.kind, s.user.username if s.user else "") for s in rows]


@pytest.mark.django_db(transaction=True)
async def test_a_challenge_is_seen_live_accepted_and_both_are_seated_within_2_s(
    live, django_user_model
):
    ana, bruno, caio = await sync_to_async(_people)(django_user_model, "ana", "bruno", "caio")
    challenger = await Page.open(ana)
    challenged = await Page.open(bruno)
    stranger = await Page.open(caio)
    for page in (challenger, challenged, stranger):
        await page.next("friends")
    form = {"preset": "duelo", "move_seconds": "20", "rated": "1"}
    answer = await sync_to_async(lambda: _client(ana).post("/friends/bruno/challenge/", form))()
    assert answer.status_code == 302
    shown = await challenged.next("challenge")
    assert {k: shown[k] for k in ("from", "preset", "move_seconds", "rated")} == {
        "from": "ana",
        "preset": "duelo",
        "move_seconds": 20,
        "rated": True,
    }
    started = time.monotonic()
    await challenged.comm.send_json_to({"type": "challenge_accept", "id": shown["id"]})
    for_bruno = await challenged.next("challenge_started")
    for_ana = await challenger.next("challenge_started")
    assert time.monotonic() - started < 2.0
    assert for_ana == for_bruno and for_ana["url"] == f"/r/{for_ana['room']}/"
    seats = await db_async(_seats)(for_ana["room"])
    assert seats == [(0, "human", "ana"), (1, "human", "bruno")]
    room = await db_async(Room.objects.get)(code=for_ana["room"])
    assert room.visibility == "private" and room.status == "playing"
    assert await db_async(Round.objects.filter(room=room).exists)()  # dealt at once
    status = await db_async(lambda: Challenge.objects.get().status)()
    assert status == "accepted"
    assert await stranger.comm.receive_nothing(timeout=0.3)
    assert all("ana" not in str(frame) for frame in stranger.frames)


def _ms(moment) -> int:
    return int(moment.timestamp() * 1000)


@pytest.mark.django_db(transaction=True)
async def test_a_page_reloading_while_its_challenge_starts_is_sent_on_when_it_connects(
    live, django_user_model
):
    """docs/protocol.md, ``challenge_started``: sending a challenge posts a
    form, so the challenger's page reloads; an answer quicker than that reaches
    none of their sockets. The page, rendered before the start (``?since=``),
    is sent on when it connects; a page rendered after the start is not."""
    ana, bruno = await sync_to_async(_people)(django_user_model, "ana", "bruno")
    challenge = await db_async(_send)(ana, bruno)
    rendered = _ms(world().now())
    room = await db_async(challenges.challenge_accept)(user=bruno, challenge_id=challenge.pk)
    reloaded = await Page.open(ana, since=rendered)
    await reloaded.next("friends")
    sent_on = await reloaded.next("challenge_started")
    assert (sent_on["room"], sent_on["url"]) == (room.code, f"/r/{room.code}/")
    for later in (_ms(world().now()), None):  # a page rendered after, and one that says nothing
        page = await Page.open(ana, since=later)
        await page.next("friends")
        assert await page.comm.receive_nothing(timeout=0.3)


def test_a_start_is_caught_up_only_within_a_minute_and_only_for_its_people(make_user):
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    challenge = _send(ana, bruno)
    before = world().now()
    room = challenges.challenge_accept(user=bruno, challenge_id=challenge.pk)
    started = Challenge.objects.get(pk=challenge.pk).answered_at
    url = f"/r/{room.code}/"
    assert challenges.started_since(ana, before, now=started) == url
    assert challenges.started_since(bruno, before, now=started + timedelta(seconds=59)) == url
    assert challenges.started_since(ana, before, now=started + timedelta(seconds=61)) is None
    assert challenges.started_since(caio, before, now=started) is None
    assert challenges.started_since(ana, started, now=started) is None


@pytest.mark.django_db(transaction=True)
async def test_a_waiting_challenge_shows_on_a_page_opened_later_and_a_decline_reaches_both(
    live, django_user_model
):
    ana, bruno = await sync_to_async(_people)(django_user_model, "ana", "bruno")
    challenge = await db_async(_send)(ana, bruno, preset="parceria", move_seconds=None)
    challenger = await Page.open(ana)
    await challenger.next("friends")
    challenged = await Page.open(bruno)
    shown = await challenged.next("challenge")
    assert (shown["id"], shown["preset"], shown["move_seconds"]) == (challenge.pk, "parceria", None)
    await challenged.comm.send_json_to({"type": "challenge_decline", "id": challenge.pk})
    for page in (challenged, challenger):
        gone = await page.next("challenge_gone")
        assert (gone["id"], gone["reason"]) == (challenge.pk, "declined")
    await challenged.comm.send_json_to({"type": "challenge_accept", "id": challenge.pk, "ref": 9})
    refused = await challenged.next("error")
    assert (refused["code"], refused["ref"]) == ("no_challenge", 9)
    assert await db_async(Room.objects.count)() == 0


@pytest.mark.django_db
def test_a_parceria_challenge_seats_the_two_against_each_other_with_bots(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    challenge = _send(ana, bruno, preset="parceria", competitive=False)
    answer = _client(bruno, ELSEWHERE).post(f"/challenges/{challenge.pk}/accept/")
    room = Room.objects.get()
    assert answer["Location"] == f"/r/{room.code}/"
    assert _seats(room.code) == [
        (0, "human", "ana"),
        (1, "human", "bruno"),
        (2, "bot", ""),
        (3, "bot", ""),
    ]  # seats 0 and 2 are partners, 1 and 3: the two face each other
    assert room.status == "playing" and not room.rated


@pytest.mark.django_db
def test_the_refusals_change_nothing(make_user, settings):
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")

    def refused(code: str, **kw) -> None:
        with pytest.raises(PeopleError) as exc:
            _send(kw.pop("challenger", ana), kw.pop("challenged", bruno), **kw)
        assert exc.value.code == code

    refused("self", challenged=ana)
    refused("bad_challenge", preset="com_monte")
    refused("bad_challenge", move_seconds=7)
    challenges.preferences_set(user=bruno, challenges="nobody")
    refused("not_accepting")
    challenges.preferences_set(user=bruno, challenges="friends")
    refused("not_accepting")
    services.friend_request_send(sender=ana, recipient=bruno)
    services.friend_request_accept(user=bruno, sender=ana)
    assert _send(ana, bruno).status == "pending"  # a friend may
    services.block(blocker=caio, blocked=ana)
    refused("blocked", challenged=caio)
    refused("blocked", challenger=caio, challenged=ana)
    records.abandonment_recorded(user=caio, reason="left")
    refused("cooldown", challenger=caio, challenged=make_user("edu"))
    assert _send(caio, make_user("dora"), competitive=False).status == "pending"  # friendly: may
    assert Challenge.objects.count() == 2


@pytest.mark.django_db
def test_a_rated_challenge_is_not_accepted_by_someone_cooling_down(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    challenge = _send(ana, bruno)
    records.abandonment_recorded(user=bruno, reason="left")
    with pytest.raises(PeopleError) as exc:
        challenges.challenge_accept(user=bruno, challenge_id=challenge.pk)
    assert exc.value.code == "cooldown"
    assert not Room.objects.exists() and Challenge.objects.get().status == "pending"


@pytest.mark.django_db
def test_a_challenge_lapses_is_replaced_withdrawn_and_ended_by_a_block(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    first = _send(ana, bruno)
    second = _send(ana, bruno, preset="parceria")  # replaces the first
    assert Challenge.objects.get(pk=first.pk).status == "withdrawn"
    later = world().now() + challenges.CHALLENGE_TTL + timedelta(seconds=1)
    with pytest.raises(PeopleError) as exc:
        challenges.challenge_accept(user=bruno, challenge_id=second.pk, now=later)
    assert exc.value.code == "no_challenge"
    third = _send(ana, bruno)
    with pytest.raises(PeopleError):  # only the challenged answers
        challenges.challenge_accept(user=ana, challenge_id=third.pk)
    challenges.challenge_withdraw(user=ana, challenge_id=third.pk)
    fourth = _send(ana, bruno)
    services.block(blocker=bruno, blocked=ana)
    assert Challenge.objects.get(pk=fourth.pk).status == "withdrawn"
    assert challenges.challenges_for(bruno) == []


@pytest.mark.django_db
def test_the_profile_offers_the_challenge_and_the_owner_answers_it(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    html = _client(ana).get("/players/bruno/").content.decode()
    assert 'data-form="challenge"' in html and 'action="/friends/bruno/challenge/"' in html
    _client(ana).post("/friends/bruno/challenge/", {"preset": "duelo", "move_seconds": ""})
    challenge = Challenge.objects.get()
    assert (challenge.move_seconds, challenge.competitive) == (None, False)
    own = _client(bruno).get("/").content.decode()
    assert f'data-challenge="{challenge.pk}"' in own
    assert f'action="/challenges/{challenge.pk}/accept/"' in own
    assert f'data-challenge="{challenge.pk}"' in _client(ana).get("/players/ana/").content.decode()
    for stranger in (Client(), _client(make_user("caio"))):
        assert "data-challenge=" not in stranger.get("/players/bruno/").content.decode()
    answer = _client(bruno).post("/challenges/settings/", {"challenges": "nobody"}, follow=True)
    assert challenges.preference_of(bruno) == "nobody"
    assert 'data-form="challenge"' not in _client(ana).get("/players/bruno/").content.decode()
    assert answer.status_code == 200


@pytest.mark.django_db
def test_a_challenge_at_one_address_is_played_unrated(make_user):
    """Two accounts of one address may play a challenge; the match is not rated
    (docs/rated-play.md, "The rulebook")."""
    ana, bruno = make_user("ana"), make_user("bruno")
    _client(ana).post("/friends/bruno/challenge/", {"preset": "duelo", "rated": "1"})
    challenge = Challenge.objects.get()
    _client(bruno).post(f"/challenges/{challenge.pk}/accept/")  # the same address
    room = Room.objects.get()
    assert room.competitive and room.status == "playing" and not room.rated


@pytest.mark.django_db
def test_nobody_is_taken_out_of_a_match_by_a_challenge(make_user):
    """Accepting would send both pages to the new table: refused while either
    plays a match (``already_seated``), so nobody abandons one by it."""
    from rooms import services as rooms

    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    challenge = _send(ana, bruno)
    room = rooms.room_create(user=ana, name="Outra", preset="duelo", ip_hash="a")
    rooms.seat_take(room=room, index=1, user=caio, ip_hash="c")
    rooms.match_start(room=room, actor=Seat.objects.get(room=room, index=0))
    with pytest.raises(PeopleError) as refused:
        challenges.challenge_accept(user=bruno, challenge_id=challenge.pk)
    assert refused.value.code == "already_seated"
    assert refused.value.message == "ana is in the middle of a match."
    assert Challenge.objects.get(pk=challenge.pk).status == "pending"


def _friends(a, b) -> None:
    services.friend_request_send(sender=a, recipient=b)
    services.friend_request_accept(user=b, sender=a)


@pytest.mark.django_db(transaction=True)
async def test_a_parceria_challenge_with_invited_friends_opens_once_all_accept(
    live, django_user_model
):
    ana, bruno, bia, caio = await sync_to_async(_people)(
        django_user_model, "ana", "bruno", "bia", "caio"
    )
    for friend in (bia, caio):
        await db_async(_friends)(ana, friend)
    pages = {u.username: await Page.open(u) for u in (ana, bruno, bia, caio)}
    for page in pages.values():
        await page.next("friends")
    form = {"preset": "parceria", "move_seconds": "20", "partner": "bia", "their_partner": "caio"}
    await sync_to_async(lambda: _client(ana).post("/friends/bruno/challenge/", form))()
    for name in ("bruno", "bia", "caio"):
        shown = await pages[name].next("challenge")
        assert shown["from"] == "ana" and shown["invited"] == ["bia", "caio"]
    for name in ("bruno", "bia"):
        await pages[name].comm.send_json_to({"type": "challenge_accept", "id": shown["id"]})
    status = await db_async(lambda: Challenge.objects.get(pk=shown["id"]).status)()
    assert status == "pending"  # caio has not answered
    assert await db_async(Room.objects.count)() == 0
    await pages["caio"].comm.send_json_to({"type": "challenge_accept", "id": shown["id"]})
    started = [await pages[n].next("challenge_started") for n in ("ana", "bruno", "bia", "caio")]
    assert len({s["room"] for s in started}) == 1
    seats = await db_async(_seats)(started[0]["room"])
    assert seats == [
        (0, "human", "ana"),
        (1, "human", "bruno"),
        (2, "human", "bia"),
        (3, "human", "caio"),
    ]


@pytest.mark.django_db
def test_invitations_are_for_friends_and_one_decline_ends_it(make_user):
    ana, bruno, bia, caio = (make_user(n) for n in ("ana", "bruno", "bia", "caio"))
    with pytest.raises(PeopleError) as refused:
        _send(ana, bruno, preset="parceria", partner=bia)
    assert refused.value.code == "not_friends"
    _friends(ana, bia)
    with pytest.raises(PeopleError) as refused:
        _send(ana, bruno, preset="duelo", partner=bia)
    assert refused.value.code == "bad_challenge"
    services.block(blocker=bia, blocked=bruno)
    _friends(ana, caio)
    with pytest.raises(PeopleError) as refused:
        _send(ana, bruno, preset="parceria", their_partner=bia)
    assert refused.value.code == "blocked"
    challenge = _send(ana, bruno, preset="parceria", partner=caio)  # the rest: a bot
    assert [c.pk for c in challenges.challenges_for(caio)] == [challenge.pk]
    assert challenges.challenge_accept(user=bruno, challenge_id=challenge.pk) is None
    assert challenges.challenges_for(bruno) == []  # answered; caio's answer waits
    challenges.challenge_decline(user=caio, challenge_id=challenge.pk)
    assert Challenge.objects.get(pk=challenge.pk).status == "declined"
    assert not Room.objects.exists()
