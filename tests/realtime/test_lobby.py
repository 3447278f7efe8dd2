"""The lobby socket over the real ASGI app (docs/protocol.md "Lobby socket"): the
first page on connect, a ``view`` to filter and page, then only the changes of
the rows its viewer looks at (``rooms_changed``)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import Client

from domino_site.realtime.asyncdb import db_async
from lobby import consumers
from rooms import services
from rooms.events import LOBBY_GROUP
from rooms.models import Room, Seat
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

_names = itertools.count(1)


def _user():
    return get_user_model().objects.create_user(f"p{next(_names)}", password="x")


def _create(preset: str, move_seconds: int | None) -> tuple[Room, str]:
    user = _user()
    room = services.room_create(user=user, name="Mesa", preset=preset, move_seconds=move_seconds)
    return room, session_cookie(user)


def _fresh(room: Room) -> Room:
    return Room.objects.get(pk=room.pk)


def _add_bot(room: Room) -> None:
    host = Seat.objects.get(room=room, index=0)
    services.bot_add(room=room, actor=host, index=1, level="easy")


def _sit_someone(room: Room) -> None:
    services.seat_take(room=room, index=1, user=_user())


def _close(room: Room) -> None:
    services.room_close(room=room, reason="admin")


def _api(query: str = "") -> list[dict[str, Any]]:
    return Client().get(f"/api/rooms/{query}").json()


async def listed(preset: str = "duelo", move_seconds: int | None = None) -> Room:
    """A public room whose creator has its table open: on the public list."""
    room, cookie = await db_async(_create)(preset, move_seconds)
    await Player.table(room.code, cookie)
    return await db_async(_fresh)(room)


# In a database thread of the server, as a socket's change is.
add_bot = db_async(_add_bot)
sit_someone = db_async(_sit_someone)
close = db_async(_close)
api = sync_to_async(_api)


class Lobby(Player):
    """A lobby socket that reads its first ``rooms`` on connect."""

    @classmethod
    async def open(cls, view: bool = True) -> tuple[Lobby, dict[str, Any]]:
        """Connected; with ``view``, having said it views the first page (as the
        lobby page does), which asks for the changes alone."""
        lobby = cls("/ws/lobby/")
        connected, _ = await lobby.comm.connect(timeout=5)
        assert connected
        first = await lobby.next("rooms")
        if view:
            await lobby.view()
        return lobby, first

    async def next(self, kind: str) -> dict[str, Any]:
        """The next frame, which must be of ``kind``."""
        frame = await self.receive()
        assert frame["type"] == kind, frame
        return frame

    async def view(self, **fields: Any) -> dict[str, Any]:
        await self.send({"type": "view", **fields})
        return await self.next("rooms")


def codes(rows: list[dict[str, Any]]) -> list[str]:
    return [row["code"] for row in rows]


def applied(before: list[str], change: dict[str, Any]) -> list[str]:
    """The page's codes after ``change``, applied as docs/protocol.md says."""
    after = [code for code in before if code not in change["removed"]]
    for row, at in zip(change["added"], change.get("added_at", []), strict=True):
        after.insert(at, row["code"])
    return after


async def test_the_first_message_is_the_first_page_with_the_api_rows(live):
    rooms = [await listed("duelo"), await listed("parceria", 30)]
    lobby, first = await Lobby.open()
    assert first["rooms"] == await api()
    assert codes(first["rooms"]) == [rooms[1].code, rooms[0].code]
    assert first["more"] is False and first["next"] is None
    assert first["view"] == {"preset": None, "move_seconds": None, "free": False,
                             "rated": False, "cursor": None, "page_size": 50}  # fmt: skip
    await lobby.close()


async def test_a_client_that_never_said_its_view_gets_its_page_whole(live):
    room, other = await listed(), await listed()
    lobby, first = await Lobby.open(view=False)
    await add_bot(room)
    again = await lobby.next("rooms")
    assert again["rooms"] == await api() and again["rooms"] != first["rooms"]
    assert codes(again["rooms"]) == [other.code, room.code]
    await listed("parceria")
    assert len((await lobby.next("rooms"))["rooms"]) == 3
    await lobby.close()


async def test_a_client_without_a_view_gets_whole_pages_within_a_byte_budget(live, settings):
    """docs/protocol.md, the lobby socket: past its budget the changes wait, and
    come together in one page once it has earned its bytes back."""
    settings.DOMINO_LOBBY_WHOLE_BYTES = 400  # a one-row page (~300 B) costs most of a second
    burst, consumers.WHOLE_BURST = consumers.WHOLE_BURST, 1  # one page spends it all
    try:
        room = await listed()
        lobby, _ = await Lobby.open(view=False)
        await add_bot(room)
        first = await lobby.next("rooms")  # the credit it had
        assert len(first["rooms"]) == 1
        await listed("parceria")
        await listed("parceria")
        assert await lobby.comm.receive_nothing(timeout=0.3)  # in debt: nothing yet
        together = await lobby.next("rooms")  # both new rooms in one page
        assert len(together["rooms"]) == 3
        await lobby.close()
    finally:
        consumers.WHOLE_BURST = burst


async def test_a_change_of_a_visible_row_comes_as_changed_alone(live):
    room, other = await listed(), await listed()
    lobby, _ = await Lobby.open()
    await add_bot(room)
    change = await lobby.next("rooms_changed")
    assert codes(change["changed"]) == [room.code]
    assert change["changed"][0]["bots"] == 1 and change["changed"][0]["seats_taken"] == 2
    assert change["changed"] == [r for r in await api() if r["code"] == room.code]
    assert change["added"] == [] and change["removed"] == [] and "added_at" not in change
    assert other.code not in str(change)
    await lobby.close()


async def test_a_new_matching_room_comes_as_added_in_its_place(live):
    older = await listed("duelo")
    lobby, _ = await Lobby.open()
    shown = codes((await lobby.view(preset="duelo"))["rooms"])
    room = await listed("duelo")
    change = await lobby.next("rooms_changed")
    assert codes(change["added"]) == [room.code] and change["added_at"] == [0]
    assert applied(shown, change) == [room.code, older.code] and change["removed"] == []
    await lobby.close()


async def test_a_closed_room_and_a_filled_one_come_as_removed(live):
    closing, filling, staying = await listed(), await listed(), await listed()
    lobby, _ = await Lobby.open()
    shown = codes((await lobby.view(free=True))["rooms"])
    assert shown == [staying.code, filling.code, closing.code]
    await close(closing)
    change = await lobby.next("rooms_changed")
    assert change["removed"] == [closing.code] and change["added"] == []
    shown = applied(shown, change)
    await sit_someone(filling)  # both seats people: no free seat any more
    change = await lobby.next("rooms_changed")
    assert change["removed"] == [filling.code] and applied(shown, change) == [staying.code]
    await lobby.close()


async def test_a_change_outside_the_filter_tells_that_viewer_nothing(live):
    duelo, parceria = await listed("duelo"), await listed("parceria")
    watching_all, _ = await Lobby.open()
    only_parceria, _ = await Lobby.open()
    await only_parceria.view(preset="parceria")
    seen = len(only_parceria.frames)
    await add_bot(duelo)
    assert codes((await watching_all.next("rooms_changed"))["changed"]) == [duelo.code]
    await add_bot(parceria)  # the next frame of the filtered viewer is this one's
    change = await only_parceria.next("rooms_changed")
    assert codes(change["changed"]) == [parceria.code]
    assert all(duelo.code not in str(frame) for frame in only_parceria.frames[seen:])
    for lobby in (watching_all, only_parceria):
        await lobby.close()


async def test_pages_by_cursor_and_a_new_room_pushes_the_last_row_off(live):
    rooms = [await listed() for _ in range(3)]
    lobby, _ = await Lobby.open()
    first = await lobby.view(page_size=2)
    assert codes(first["rooms"]) == [rooms[2].code, rooms[1].code] and first["more"]
    second = await lobby.view(page_size=2, cursor=first["next"])
    assert codes(second["rooms"]) == [rooms[0].code] and not second["more"]
    assert second["rooms"] == await api(f"?page_size=2&cursor={first['next']}")
    fourth = await listed()  # newest: the first page's, never the second's
    await add_bot(rooms[0])
    change = await lobby.next("rooms_changed")
    assert codes(change["changed"]) == [rooms[0].code] and change["added"] == []
    shown = codes((await lobby.view(page_size=2))["rooms"])
    assert shown == [fourth.code, rooms[2].code]
    newest = await listed()
    change = await lobby.next("rooms_changed")
    assert codes(change["added"]) == [newest.code] and change["removed"] == [rooms[2].code]
    assert applied(shown, change) == [newest.code, fourth.code]
    assert change["more"] is True
    await lobby.close()


@pytest.mark.parametrize(
    "bad",
    [{"preset": "xadrez"}, {"move_seconds": 7}, {"free": "1"}, {"page_size": 1000},
     {"cursor": 12}, {"colour": "red"}],
)  # fmt: skip
async def test_a_bad_view_is_refused_and_the_page_stays(live, bad):
    duelo, parceria = await listed("duelo"), await listed("parceria")
    lobby, _ = await Lobby.open()
    await lobby.view(preset="duelo")
    await lobby.send({"type": "view", "ref": "v1", **bad})
    error = await lobby.next("error")
    assert error["code"] == "bad_message" and error["reason"] == "bad_view"
    assert error["field"] == next(iter(bad)) and error["ref"] == "v1"
    await add_bot(parceria)  # still the duelo view: this tells it nothing
    await add_bot(duelo)
    change = await lobby.next("rooms_changed")
    assert codes(change["changed"]) == [duelo.code]
    await lobby.close()


async def test_other_messages_are_refused_and_ping_answered(live):
    lobby, _ = await Lobby.open()
    await lobby.send({"type": "rooms"})
    assert (await lobby.next("error"))["code"] == "bad_message"
    await lobby.send({"type": "ping", "ref": 3})
    assert await lobby.next("pong") == {"type": "pong", "ref": 3}
    await lobby.close()


def _rename_quietly(room: Room, name: str) -> None:
    Room.objects.filter(pk=room.pk).update(name=name, version=F("version") + 1)


async def test_a_bare_notice_makes_the_sockets_read_their_page_again(live, monkeypatch):
    """When the changed rows could not be read for the broadcast, the notice
    comes bare: each socket reads its page again (one read for the sockets of
    one page) and still tells only what changed."""
    room, other = await listed(), await listed()
    lobbies = [(await Lobby.open())[0] for _ in range(2)]
    await db_async(_rename_quietly)(room, "Renamed")  # nobody told
    reads = []

    def counted(view, limit):
        reads.append(view)
        return real(view, limit)

    real = consumers.lobby_page
    monkeypatch.setattr(consumers, "lobby_page", counted)
    layer = get_channel_layer()
    await layer.group_send(LOBBY_GROUP, {"type": "lobby.changed", "id": "bare:1"})
    for lobby in lobbies:
        change = await lobby.next("rooms_changed")
        assert change["changed"] == [r for r in await api() if r["code"] == room.code]
        assert change["changed"][0]["name"] == "Renamed" and other.code not in str(change)
        await lobby.close()
    assert len(reads) == 1  # the two sockets on the same page shared one read
