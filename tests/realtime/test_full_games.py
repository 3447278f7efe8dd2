"""Whole matches through the sockets: bots on the in-process scheduler, people
through the table socket, hidden information checked on every frame."""

import pytest
from asgiref.sync import sync_to_async

from rooms import services
from rooms.models import Seat
from tests.realtime.conftest import Player, first_legal, my_turn, session_cookie
from tests.realtime.hidden import assert_frames_hide_tiles

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
    await sync_to_async(assert_frames_hide_tiles)(room, player.frames)
    await player.close()
