"""Who is online (docs/site.md, "Friends, blocking and who is online"), over
ws/people/ on the real ASGI application: a friend's presence reads online, at
a table (with the link of a public table) or offline, and changes live as the
friend's pages open and close; friendships coming and going reach both lists
at once; only friends hear of a presence; an anonymous socket is closed with
4003; the sweeper forgets the pages of a dead server process."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from domino_site.asgi import application
from domino_site.realtime.asyncdb import db_async
from people import services
from people.models import Presence
from rooms import services as rooms
from tests.realtime.conftest import ORIGIN, TIMEOUT, Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


class Page:
    """One page's ws/people/ socket; ``frames`` holds every message received."""

    def __init__(self, cookie: str | None, path: str) -> None:
        headers = [(b"origin", ORIGIN), (b"host", b"localhost")]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        self.frames: list[dict[str, Any]] = []
        Player.open.append(self)  # type: ignore[arg-type]  # closed by the live fixture

    @classmethod
    async def open(cls, user, room: str | None = None, since: int | None = None) -> Page:
        query = urlencode({k: v for k, v in {"room": room, "since": since}.items() if v})
        path = f"/ws/people/?{query}" if query else "/ws/people/"
        page = cls(await sync_to_async(session_cookie)(user), path)
        connected, _ = await page.comm.connect(timeout=TIMEOUT)
        assert connected
        return page

    async def next(self, kind: str) -> dict[str, Any]:
        while True:
            msg = await self.comm.receive_json_from(timeout=TIMEOUT)
            self.frames.append(msg)
            if msg["type"] == kind:
                return msg

    async def presence(self, name: str, state: str) -> dict[str, Any]:
        """The next ``presence`` of ``name``, which must read ``state``."""
        while True:
            msg = await self.next("presence")
            if msg["name"] == name:
                assert msg["state"] == state, msg
                return msg

    async def close(self) -> None:
        await self.comm.disconnect()
        Player.open.remove(self)  # type: ignore[arg-type]


def _people(django_user_model, *names: str):
    return [django_user_model.objects.create_user(name, password="x") for name in names]


def _friends(a, b) -> None:
    services.friend_request_send(sender=a, recipient=b)
    services.friend_request_accept(user=b, sender=a)


async def test_a_friend_s_presence_changes_live(live, django_user_model):
    ana, bruno, caio = await sync_to_async(_people)(django_user_model, "ana", "bruno", "caio")
    await db_async(_friends)(ana, bruno)
    public = await db_async(rooms.room_create)(user=ana, name="Mesa", preset="duelo")
    watching = await Page.open(bruno)
    first = await watching.next("friends")
    assert first["friends"] == [{"name": "ana", "state": "offline", "url": None}]
    stranger = await Page.open(caio)
    assert (await stranger.next("friends"))["friends"] == []

    lobby = await Page.open(ana)
    own = await lobby.next("friends")
    assert own["friends"] == [{"name": "bruno", "state": "online", "url": None}]
    assert (await watching.presence("ana", "online"))["url"] is None
    table = await Page.open(ana, room=public.code)
    at_table = await watching.presence("ana", "table")
    assert at_table["url"] == f"/r/{public.code}/"
    await table.close()
    await watching.presence("ana", "online")  # her lobby is still open
    await lobby.close()
    await watching.presence("ana", "offline")
    assert await db_async(Presence.objects.filter(user=ana).count)() == 0
    # the stranger heard nothing of it
    assert await stranger.comm.receive_nothing(timeout=0.3)
    assert all("ana" not in str(frame) for frame in stranger.frames)


async def test_a_private_table_has_no_link_and_a_stranger_s_claim_is_ignored(
    live,
    django_user_model,
):
    ana, bruno, caio = await sync_to_async(_people)(django_user_model, "ana", "bruno", "caio")
    await db_async(_friends)(ana, bruno)
    await db_async(_friends)(caio, bruno)
    private = await db_async(rooms.room_create)(
        user=ana, name="Em casa", preset="duelo", visibility="private"
    )
    watching = await Page.open(bruno)
    await watching.next("friends")
    await Page.open(ana, room=private.code)
    at_table = await watching.presence("ana", "table")
    assert at_table["url"] is None  # a private table's code is for those seated there
    await Page.open(caio, room=private.code)  # not seated there: merely online
    assert (await watching.presence("caio", "online"))["url"] is None
    await Page.open(caio, room="NO-SUCH")
    await watching.presence("caio", "online")


async def test_friendships_reach_both_lists_and_end_the_presence(live, django_user_model):
    ana, bruno = await sync_to_async(_people)(django_user_model, "ana", "bruno")
    one, two = await Page.open(ana), await Page.open(bruno)
    await one.next("friends")
    await two.next("friends")
    await db_async(services.friend_request_send)(sender=ana, recipient=bruno)
    await db_async(services.friend_request_accept)(user=bruno, sender=ana)
    assert (await one.next("friends"))["friends"] == [
        {"name": "bruno", "state": "online", "url": None}
    ]
    assert (await two.next("friends"))["friends"] == [
        {"name": "ana", "state": "online", "url": None}
    ]
    await db_async(services.friend_remove)(user=bruno, friend=ana)
    assert (await one.next("friends"))["friends"] == []
    assert (await two.next("friends"))["friends"] == []
    again = await Page.open(ana)  # no longer friends: bruno hears nothing of it
    await again.next("friends")
    assert await two.comm.receive_nothing(timeout=0.3)


async def test_an_anonymous_socket_is_closed_with_4003(live):
    comm = WebsocketCommunicator(
        application, "/ws/people/", headers=[(b"origin", ORIGIN), (b"host", b"localhost")]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    assert await comm.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4003}


async def test_the_socket_answers_ping_and_refuses_the_rest(live, django_user_model):
    (ana,) = await sync_to_async(_people)(django_user_model, "ana")
    page = await Page.open(ana)
    await page.next("friends")
    await page.comm.send_json_to({"type": "ping", "ref": 3})
    assert await page.next("pong") == {"type": "pong", "ref": 3}
    await page.comm.send_json_to({"type": "presence", "name": "bruno"})
    refused = await page.next("error")
    assert refused["code"] == "bad_message"


@pytest.mark.django_db
def test_the_sweeper_forgets_the_pages_of_a_dead_process(make_user, monkeypatch):
    from datetime import timedelta

    from domino_site.realtime import liveness
    from games.world import world

    ana = make_user("ana")
    services.presence_open(user=ana, channel_name="specific.dead!abc", room_code="")
    services.presence_open(user=ana, channel_name="specific.alive!abc", room_code="")
    monkeypatch.setattr(liveness, "enabled", lambda: True)
    monkeypatch.setattr(
        liveness, "dead_processes", lambda prefixes: {"specific.dead"} & set(prefixes)
    )
    monkeypatch.setattr(liveness, "process_of", lambda name: name.split("!")[0])
    assert services.presence_sweep(now=world().now()) == 0  # younger than a TTL: left alone
    later = world().now() + timedelta(seconds=liveness.ttl_seconds() + 1)
    assert services.presence_sweep(now=later) == 1
    assert list(Presence.objects.values_list("channel_name", flat=True)) == ["specific.alive!abc"]
