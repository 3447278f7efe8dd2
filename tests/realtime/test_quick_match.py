"""The quick-match queue over ws/quick/ (docs/protocol.md, "Quick match"), on
the real ASGI app with the in-process timers: pairing into one seated table,
balanced partnerships, bots after the wait (and not for "people only"), a
person on two tabs matched once, leaving, the refusals, and the lobby's
"N jogando agora" (people at their tables)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from domino_site.asgi import application
from domino_site.realtime.asyncdb import db_async
from games.models import Round
from games.world import world
from quick import pairing
from quick.services import quick_pair
from records import rating
from records.models import Rating
from rooms.models import QuickEntry, Room, Seat
from tests.realtime.conftest import ORIGIN, TIMEOUT, Player, session_cookie
from tests.waiting import async_wait_for

pytestmark = pytest.mark.django_db(transaction=True)


class Quick:
    """One ws/quick/ socket; ``frames`` holds every message received."""

    def __init__(self, cookie: str | None, client: str) -> None:
        headers = [(b"origin", ORIGIN), (b"host", b"localhost")]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        self.comm = WebsocketCommunicator(application, "/ws/quick/", headers=headers)
        self.comm.scope["client"] = [client, 50000]
        self.frames: list[dict[str, Any]] = []
        Player.open.append(self)  # type: ignore[arg-type]  # closed by the live fixture

    @classmethod
    async def open(cls, user, client: str) -> Quick:
        socket = cls(await sync_to_async(session_cookie)(user), client)
        connected, _ = await socket.comm.connect(timeout=TIMEOUT)
        assert connected
        return socket

    async def send(self, msg: dict[str, Any]) -> None:
        await self.comm.send_json_to(msg)

    async def join(self, preset: str = "duelo", move_seconds: int = 20, **kw: Any) -> None:
        await self.send({"type": "join", "preset": preset, "move_seconds": move_seconds, **kw})

    async def next(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message of type ``kind`` (those before it are kept in ``frames``)."""
        while True:
            msg = await self.comm.receive_json_from(timeout=timeout)
            self.frames.append(msg)
            if msg["type"] == kind:
                return msg

    async def queue_until(self, waiting: int) -> dict[str, Any]:
        while True:
            msg = await self.next("queue")
            if msg["waiting"] == waiting:
                return msg


async def _people(django_user_model, *names: str) -> list:
    make = sync_to_async(django_user_model.objects.create_user)
    return [await make(name, password="x") for name in names]


def _address(i: int) -> str:
    return f"203.0.113.{10 + i}"


async def _sockets(users) -> list[Quick]:
    return [await Quick.open(user, _address(i)) for i, user in enumerate(users)]


def _seats(code: str) -> list[Seat]:
    return list(Seat.objects.filter(room__code=code).select_related("user").order_by("index"))


async def test_two_people_in_the_duelo_queue_are_seated_at_one_new_table(live, django_user_model):
    ana, bruno = await _people(django_user_model, "ana", "bruno")
    one, two = await _sockets([ana, bruno])
    await one.join("duelo", 20)
    first = await one.next("queue")
    assert (first["preset"], first["move_seconds"], first["waiting"]) == ("duelo", 20, 1)
    assert first["since"]
    await two.join("duelo", 20)
    matched = [await one.next("matched"), await two.next("matched")]
    assert matched[0]["room"] == matched[1]["room"]
    assert matched[0]["url"] == f"/r/{matched[0]['room']}/"
    assert sorted(m["seat"] for m in matched) == [0, 1]
    code = matched[0]["room"]
    seats = await db_async(_seats)(code)
    assert {s.user.username: s.index for s in seats} == {
        "ana": matched[0]["seat"],
        "bruno": matched[1]["seat"],
    }
    room = await db_async(Room.objects.get)(code=code)
    assert (room.visibility, room.competitive, room.move_seconds) == ("public", True, 20)
    assert room.status == "playing" and room.rated  # two accounts, two addresses
    assert await db_async(Round.objects.filter(room=room).exists)()  # dealt at once
    assert await db_async(QuickEntry.objects.count)() == 0
    # and the table socket sees them seated, the round under way
    table = await Player.table(code, await sync_to_async(session_cookie)(ana), _address(0))
    assert table.state["round"] is not None
    assert table.state["you"]["seat"] == matched[0]["seat"]


def _rate(user, shown: int) -> None:
    """Give ``user`` a parceria rating that shows as ``shown``."""
    sigma = 2.0
    mu = shown / rating.SCALE + 3 * sigma
    Rating.objects.create(user=user, preset="parceria", mu=mu, sigma=sigma, ordinal=mu - 3 * sigma)


async def test_four_for_parceria_make_two_balanced_partnerships(live, django_user_model):
    users = await _people(django_user_model, "ana", "bruno", "caio", "dani")
    shown = {"ana": 1000, "bruno": 1095, "caio": 1040, "dani": 1080}
    for user in users:
        await db_async(_rate)(user, shown[user.username])
    sockets = await _sockets(users)
    for socket in sockets:
        await socket.join("parceria", 30, people_only=True)
    matched = [await s.next("matched") for s in sockets]
    assert len({m["room"] for m in matched}) == 1
    seats = await db_async(_seats)(matched[0]["room"])
    assert all(s.kind == "human" for s in seats)
    strength = [shown[s.user.username] for s in seats]
    gap = abs(strength[0] + strength[2] - strength[1] - strength[3])
    every_split = [
        abs(sum(strength[i] for i in side) - (sum(strength) - sum(strength[i] for i in side)))
        for side in ((0, 1), (0, 2), (0, 3))
    ]
    assert gap == min(every_split)
    # the strongest and the weakest are partners (seats 0 and 2, 1 and 3 play together)
    partner = {seats[i].user.username: seats[(i + 2) % 4].user.username for i in range(4)}
    assert partner["bruno"] == "ana" and partner["dani"] == "caio"


async def test_bots_fill_the_empty_seats_after_the_wait(live, django_user_model, settings):
    settings.QUICK_BOTS_AFTER = 0.3
    (ana,) = await _people(django_user_model, "ana")
    (socket,) = await _sockets([ana])
    await socket.join("parceria", 15)
    matched = await socket.next("matched")
    seats = await db_async(_seats)(matched["room"])
    assert [s.kind for s in seats].count("bot") == 3
    # a newcomer (rating 0) gets the bots nearest their strength
    assert {s.bot_level for s in seats if s.kind == "bot"} == {
        pairing.bot_level([pairing.Waiting(0, 0, world().now())])
    }
    room = await db_async(Room.objects.get)(code=matched["room"])
    assert room.status == "playing" and not room.rated


async def test_people_only_waits_for_people_however_long(live, django_user_model, settings):
    settings.QUICK_BOTS_AFTER = 0.3
    (ana,) = await _people(django_user_model, "ana")
    (socket,) = await _sockets([ana])
    await socket.join("duelo", 20, people_only=True)
    await socket.next("queue")
    later = world().now() + timedelta(minutes=5)
    assert await db_async(quick_pair)(now=later) is not None  # still waiting: another pass due
    assert await db_async(Room.objects.count)() == 0
    assert await db_async(QuickEntry.objects.filter(user=ana).exists)()
    assert not any(f["type"] == "matched" for f in socket.frames)


async def test_a_person_on_two_tabs_is_matched_once(live, django_user_model):
    ana, bruno = await _people(django_user_model, "ana", "bruno")
    tab1 = await Quick.open(ana, _address(0))
    tab2 = await Quick.open(ana, _address(0))
    await tab1.join("duelo", 10)
    await tab1.queue_until(1)
    await tab2.join("duelo", 10)
    again = await tab2.queue_until(1)  # one person, one entry: still one waiting
    assert again["waiting"] == 1
    other = await Quick.open(bruno, _address(1))
    await other.join("duelo", 10)
    matched = [await tab1.next("matched"), await tab2.next("matched"), await other.next("matched")]
    assert len({m["room"] for m in matched}) == 1
    assert await db_async(Seat.objects.filter(user=ana, kind="human").count)() == 1
    assert await db_async(Room.objects.count)() == 1


async def test_joining_from_another_tab_moves_the_person(live, django_user_model):
    (ana,) = await _people(django_user_model, "ana")
    tab1 = await Quick.open(ana, _address(0))
    tab2 = await Quick.open(ana, _address(0))
    await tab1.join("duelo", 10, people_only=True)
    await tab1.next("queue")
    await tab2.join("parceria", 45, people_only=True)
    moved = await tab1.next("queue")  # the first tab follows the person
    assert (moved["preset"], moved["move_seconds"]) == ("parceria", 45)
    entries = await db_async(list)(QuickEntry.objects.values_list("preset", "move_seconds"))
    assert entries == [("parceria", 45)]


async def test_leaving_the_queue_removes_you(live, django_user_model):
    ana, bruno = await _people(django_user_model, "ana", "bruno")
    one, two = await _sockets([ana, bruno])
    await one.join("duelo", 20, people_only=True)
    await one.queue_until(1)
    await one.send({"type": "leave"})
    await one.next("left")
    assert not await db_async(QuickEntry.objects.filter(user=ana).exists)()
    await two.join("duelo", 20, people_only=True)
    alone = await two.next("queue")
    assert alone["waiting"] == 1
    assert await db_async(quick_pair)() is not None  # bruno waits alone: nobody to pair
    assert await db_async(Room.objects.count)() == 0


async def test_closing_the_socket_leaves_the_queue(live, django_user_model):
    (ana,) = await _people(django_user_model, "ana")
    (socket,) = await _sockets([ana])
    await socket.join("duelo", 20, people_only=True)
    await socket.next("queue")
    await socket.comm.disconnect()
    Player.open.remove(socket)  # type: ignore[arg-type]

    async def gone() -> bool:
        return not await db_async(QuickEntry.objects.exists)()

    await async_wait_for(gone, timeout=TIMEOUT, message="the entry of the closed socket gone")


async def test_the_counts_of_api_now(live, django_user_model, client):
    ana, bruno = await _people(django_user_model, "ana", "bruno")
    one, two = await _sockets([ana, bruno])
    await one.join("duelo", 20, people_only=True)
    await two.join("parceria", 20, people_only=True)
    await one.next("queue")
    await two.next("queue")
    answer = await sync_to_async(client.get)("/api/now/")
    assert answer.json() == {"playing": 0, "queued": {"duelo": 1, "parceria": 1}}


async def _playing(client) -> int:
    return (await sync_to_async(client.get)("/api/now/")).json()["playing"]


async def test_playing_now_counts_people_at_their_tables_in_play(live, django_user_model, client):
    """Connected, playing their own seat, at a table in play that is not paused:
    a table nobody opened, a paused one, a seat a bot stands in for and a
    closed socket count nobody."""
    ana, bruno = await _people(django_user_model, "ana", "bruno")
    # One address: an unrated table, where leaving during a round leaves a bot
    # in the seat (a rated match would end in a forfeit).
    one = await Quick.open(ana, _address(0))
    two = await Quick.open(bruno, _address(0))
    await one.join("duelo", 20, people_only=True)
    await two.join("duelo", 20, people_only=True)
    matched = [await one.next("matched"), await two.next("matched")]
    assert await _playing(client) == 0  # seated, the table not opened yet
    code, left = matched[0]["room"], matched[1]["seat"]
    cookies = [await sync_to_async(session_cookie)(u) for u in (ana, bruno)]
    tables = [await Player.table(code, c, _address(0)) for c in cookies]
    assert await _playing(client) == 2
    await tables[0].send({"type": "pause"})
    await tables[0].until(lambda s: s["room"]["paused"])
    assert await _playing(client) == 0  # both connected, the table paused
    await tables[0].send({"type": "resume"})
    await tables[0].until(lambda s: not s["room"]["paused"])
    assert await _playing(client) == 2
    await tables[1].send({"type": "leave"})  # a bot plays bruno's seat until the result
    await tables[0].until(lambda s: s["seats"][left]["substitute"])
    assert await _playing(client) == 1
    await tables[0].comm.disconnect()
    Player.open.remove(tables[0])

    async def nobody() -> bool:
        return await _playing(client) == 0

    await async_wait_for(nobody, timeout=TIMEOUT, message="nobody playing once ana's socket closed")


async def test_anonymous_sockets_are_closed_with_4003(live):
    comm = WebsocketCommunicator(
        application, "/ws/quick/", headers=[(b"origin", ORIGIN), (b"host", b"localhost")]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    closed = await comm.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4003}


@pytest.mark.parametrize(
    "join",
    [
        {"preset": "com_monte", "move_seconds": 20},
        {"preset": "duelo", "move_seconds": 7},
        {"preset": "duelo", "move_seconds": True},
        {"preset": "duelo", "move_seconds": 20, "people_only": "yes"},
    ],
)
async def test_a_bad_join_is_a_bad_message(live, django_user_model, join):
    (ana,) = await _people(django_user_model, "ana")
    (socket,) = await _sockets([ana])
    await socket.send({"type": "join", **join})
    error = await socket.next("error")
    assert error["code"] == "bad_message"
    assert not await db_async(QuickEntry.objects.exists)()


async def test_someone_in_the_middle_of_a_match_is_already_seated(live, django_user_model):
    ana, bruno = await _people(django_user_model, "ana", "bruno")
    one, two = await _sockets([ana, bruno])
    await one.join("duelo", 20)
    await two.join("duelo", 20)
    code = (await one.next("matched"))["room"]
    await one.join("duelo", 20)
    error = await one.next("error")
    assert (error["code"], error["room"]) == ("already_seated", code)
