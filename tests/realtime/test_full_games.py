"""Whole matches through the sockets: bots on the in-process scheduler, people
through the table socket, hidden information checked on every frame."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.models import Round
from rooms import services
from rooms.models import Seat
from tests.realtime.conftest import Player, first_legal, my_turn, session_cookie
from tests.realtime.hidden import assert_frames_hide_tiles, round_facts

pytestmark = pytest.mark.django_db(transaction=True)


def _room_with_bots(user, preset="parceria", **kw):
    room = services.room_create(user=user, name="Mesa", preset=preset, **kw)
    host = Seat.objects.get(room=room, index=0)
    for index in range(1, room.seat_count):
        services.bot_add(room=room, actor=host, index=index, level="medium")
    return room


async def _play_until_match_over(player: Player, limit: int = 400) -> dict:
    """Play the first legal action on our turn, deal the next round as host."""
    for _ in range(limit):
        state = await player.until(
            lambda s: (
                my_turn(s)
                or (s["match"] or {}).get("over")
                or (s["round"] or {}).get("result") is not None
            )
        )
        if (state["match"] or {}).get("over"):
            return state
        if my_turn(state):
            await player.send({**first_legal(state), "version": state["version"]})
        else:
            await player.send({"type": "next_round", "ref": "next"})
        await player.room()
    raise AssertionError("the match did not end")


async def test_one_person_and_three_bots_play_parceria_to_fifty(live, django_user_model):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(_room_with_bots)(ana)
    player = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    assert player.state["you"] == {"seat": 0, "is_host": True, "side": 0}
    await player.send({"type": "start", "ref": "go"})
    final = await _play_until_match_over(player)
    assert max(final["match"]["scores"]) >= 50
    assert final["match"]["winner"] is not None
    versions = [f["version"] for f in player.frames if f["type"] == "room"]
    assert versions == sorted(set(versions)), "snapshots come with a growing version"
    assert not [f for f in player.frames if f["type"] == "error"]
    assert await sync_to_async(assert_frames_hide_tiles)(room, player.frames) > 20
    await player.close()


def _private_duelo(user):
    return services.room_create(user=user, name="Duelo", preset="duelo", visibility="private")


def _open_invite(path: str) -> str:
    """A browser with no account opens the invite link: the seat cookie it gets."""
    client = Client()
    assert client.get(path).status_code == 200  # the sit page
    response = client.post(path)  # "Sit at this table"
    assert response.status_code == 302, response.status_code
    return guest_cookie_header(client)


def guest_cookie_header(client: Client) -> str:
    return f"domino_guest={client.cookies['domino_guest'].value}"


async def _play_my_turns(player: Player, limit: int = 200) -> dict:
    for _ in range(limit):
        state = await player.until(lambda s: my_turn(s) or (s["match"] or {}).get("over"))
        if (state["match"] or {}).get("over"):
            return state
        await player.send({**first_legal(state), "version": state["version"]})
        await player.until(lambda s, v=state["version"]: s["version"] > v)
    raise AssertionError("the match did not end")


async def test_two_people_play_a_duelo_through_an_invite_link_with_a_guest(live, django_user_model):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(_private_duelo)(ana)
    guest_cookie = await sync_to_async(_open_invite)(room.invite_path)
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    guest = await Player.table(room.code, guest_cookie)
    assert guest.state["you"]["seat"] == 1 and not guest.state["you"]["is_host"]
    assert guest.state["room"]["visibility"] == "private"
    await host.send({"type": "start"})
    ends = await asyncio.gather(_play_my_turns(host), _play_my_turns(guest))
    for state in ends:
        assert state["match"]["over"]
        assert state["round"]["result"] is not None  # the reveal
    for player in (host, guest):
        assert not [f for f in player.frames if f["type"] == "error"]
        assert await sync_to_async(assert_frames_hide_tiles)(room, player.frames) > 5
        await player.close()
    # the check is not vacuous: a tile another seat still held at the end, shown
    # in a player's hand, fails it
    await sync_to_async(_a_leak_is_caught)(room, {0: host.frames, 1: guest.frames})


def _a_leak_is_caught(room, frames_by_seat) -> None:
    """Put into one player's first frame a tile the other still held when the
    round ended: never played, never the viewer's. Such a tile exists on every
    deal, for one of the two viewers at least: the round ends as soon as one hand
    is empty, so the other hand is not (a blocked round leaves both)."""
    rnd = Round.objects.select_related("room").get(room=room)
    held, played = round_facts(rnd)
    for viewer in frames_by_seat:
        others = set().union(*(h for seat, h in enumerate(held) if seat != viewer))
        kept = sorted(others - held[viewer] - played)
        if kept:
            break
    else:
        raise AssertionError("no hand was left at the end of the round")
    frame = next(f for f in frames_by_seat[viewer] if f["type"] == "room" and f["round"])
    leaky = {**frame, "round": {**frame["round"], "hand": [*frame["round"]["hand"], kept[0]]}}
    with pytest.raises(AssertionError, match="sees"):
        assert_frames_hide_tiles(room, [leaky])


async def test_a_stranger_cannot_open_a_private_table(live, django_user_model):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(_private_duelo)(ana)
    stranger = Player(f"/ws/rooms/{room.code}/")
    connected, _ = await stranger.comm.connect()
    assert connected
    # The answer of an unknown code: a stranger cannot tell a private room exists.
    assert (await stranger.comm.receive_output())["code"] == 4004
