"""Privacy (docs/site.md, "Privacy of friends and presence"): presence, friend
lists, requests and challenges are visible only to whom they concern. A stranger (logged
in or not) crawling every page and JSON answer, and listening on the sockets
(ws/people/, the lobby's, a public table's), learns nothing of them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from domino_site.asgi import application
from domino_site.realtime.asyncdb import db_async
from people import challenges, services
from rooms import services as rooms
from tests.people.test_presence import Page
from tests.realtime.conftest import ORIGIN, TIMEOUT, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

# Names found nowhere else on the site's pages, so that a hit means a leak.
OWNER, FRIEND, ASKER, BLOCKED, STRANGER = (
    "alvarinho",
    "bernardete",
    "caetaninho",
    "dorivalzinho",
    "evelina",
)
SECRETS = (FRIEND, ASKER, BLOCKED)
MARKERS = (  # an entry of a list, or a presence (a person's own empty lists may show)
    'data-friend="',
    "data-request-from",
    "data-request-to",
    "data-blocked-person",
    'data-challenge="',
    "data-sanction",
    'data-presence="',
    '"presence":',
    '"friends":',
    '"from":',
)


def _world(django_user_model) -> dict[str, Any]:
    make = django_user_model.objects.create_user
    owner, friend, asker, blocked, stranger = (
        make(n, password="x") for n in (OWNER, FRIEND, ASKER, BLOCKED, STRANGER)
    )
    services.friend_request_send(sender=owner, recipient=friend)
    services.friend_request_accept(user=friend, sender=owner)
    services.friend_request_send(sender=asker, recipient=owner)
    services.friend_request_send(sender=owner, recipient=blocked)
    services.block(blocker=owner, blocked=blocked)
    challenges.challenge_send(challenger=asker, challenged=owner, preset="duelo", move_seconds=20)
    public = rooms.room_create(user=friend, name="Mesa aberta", preset="duelo")
    private = rooms.room_create(
        user=owner, name="Mesa fechada", preset="duelo", visibility="private"
    )
    services.presence_open(user=friend, channel_name="specific.x!friend", room_code=public.code)
    services.presence_open(user=owner, channel_name="specific.x!owner", room_code=private.code)
    return {"stranger": stranger, "public": public, "owner": owner, "friend": friend}


def _pages(public_code: str) -> list[str]:
    return [
        "/",
        "/?preset=duelo",
        f"/players/{OWNER}/",
        f"/players/{FRIEND}/",
        f"/players/{ASKER}/",
        f"/players/{BLOCKED}/",
        f"/players/{STRANGER}/",
        "/ranking/",
        "/api/rooms/",
        "/api/now/",
        "/torneios/",
        f"/r/{public_code}/",
    ]


def _crawl(client: Client, paths: list[str]) -> dict[str, str]:
    found = {}
    for path in paths:
        answer = client.get(path)
        assert answer.status_code in (200, 302), (path, answer.status_code)  # 302: log in
        found[path] = answer.content.decode()
    return found


def test_no_page_or_json_tells_a_stranger_of_friends_requests_or_presence(django_user_model):
    world = _world(django_user_model)
    logged_in = Client()
    logged_in.force_login(world["stranger"])
    for client in (Client(), logged_in):
        for path, body in _crawl(client, _pages(world["public"].code)).items():
            for secret in SECRETS:
                if f"/players/{secret}/" == path:
                    continue  # their own name on their own profile
                if path == f"/r/{world['public'].code}/" and secret == FRIEND:
                    continue  # seated at a public table: the table shows its players
                assert secret not in body, (path, secret, client is logged_in)
            for marker in MARKERS:
                assert marker not in body, (path, marker)
            if path != f"/players/{OWNER}/":
                assert OWNER not in body, path


def test_the_owner_sees_their_own_and_the_friend_only_the_presence(django_user_model):
    world = _world(django_user_model)
    owner = Client()
    owner.force_login(world["owner"])
    own = owner.get(f"/players/{OWNER}/").content.decode()
    for secret in SECRETS:
        assert secret in own
    friend = Client()
    friend.force_login(world["friend"])
    seen = friend.get(f"/players/{OWNER}/").content.decode()
    assert 'data-presence="table"' in seen  # the friend sees the presence
    for secret in (ASKER, BLOCKED):  # but not the owner's other relations
        assert secret not in seen
    assert "data-friends" not in seen and "data-request" not in seen


async def test_no_socket_tells_a_stranger_anything(live, django_user_model):
    world = await sync_to_async(_world)(django_user_model)
    cookie = await sync_to_async(session_cookie)(world["stranger"])
    headers = [(b"origin", ORIGIN), (b"host", b"localhost"), (b"cookie", cookie.encode())]
    people = await Page.open(world["stranger"], room=world["public"].code)
    assert (await people.next("friends"))["friends"] == []
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    assert (await lobby.connect(timeout=TIMEOUT))[0]
    frames = [await lobby.receive_json_from(timeout=TIMEOUT)]
    # the owner's and the friend's pages open and close: the stranger hears nothing
    owner_page = await Page.open(world["owner"])
    friend_page = await Page.open(world["friend"], room=world["public"].code)
    await owner_page.next("friends")
    await friend_page.next("friends")
    await owner_page.close()
    await db_async(services.friend_remove)(user=world["friend"], friend=world["owner"])
    assert await people.comm.receive_nothing(timeout=0.3)
    while not await lobby.receive_nothing(timeout=0.2):
        frames.append(await lobby.receive_json_from(timeout=TIMEOUT))
    text = json.dumps(people.frames + frames)
    for secret in (OWNER, ASKER, BLOCKED):
        assert secret not in text
    assert "presence" not in text and "friends" not in json.dumps(frames)
    await lobby.disconnect()
