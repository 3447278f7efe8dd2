"""The round analysis is never live (docs/site.md, "Round analysis"): two people
play the planted round (tests/analysis/planted.py) over the table sockets of a
private room; no frame, before or after the analysis exists, carries any of it;
the in-process scheduler writes it after the round ended; then the round's JSON
and replay page show it to the seats and to nobody else."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from analysis.models import RoundAnalysis
from games.models import Round
from rooms import services
from rooms.models import Seat
from tests.analysis.planted import BLUNDER, HANDS, SCRIPT
from tests.realtime.conftest import Player, my_turn, session_cookie
from tests.site.helpers import set_deal
from tests.waiting import async_wait_for

pytestmark = pytest.mark.django_db(transaction=True)

# What an analysis is made of: none of it may appear in a socket frame.
ANALYSIS_WORDS = ("analysis", "accuracy", "imprecisao", "capivarada", "decisions", "loss")


def _private_room(ana, bruno):
    room = services.room_create(user=ana, name="Mesa", preset="sem_monte", visibility="private")
    services.seat_take_by_invite(token=room.invite_token, user=bruno)
    services.match_start(room=room, actor=Seat.objects.get(room=room, index=0))
    set_deal(room, HANDS, opener=0)
    return room


def _no_analysis_in(frames) -> None:
    for frame in frames:
        text = json.dumps(frame)
        found = [w for w in ANALYSIS_WORDS if f'"{w}' in text]
        assert not found, f"{frame['type']} frame carries {found}"


async def _play(players, seat, action):
    player = players[seat]
    state = await player.until(my_turn)
    await player.send({**action, "version": state["version"]})
    await player.until(lambda s, v=state["version"]: s["version"] > v)


def _analysed(room_id):
    return RoundAnalysis.objects.filter(round__room_id=room_id).first()


async def test_the_analysis_is_in_no_frame_and_for_the_seats_only(live, django_user_model):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno, stranger = await make("ana"), await make("bruno"), await make("stranger")
    room = await sync_to_async(_private_room)(ana, bruno)
    cookies = [await sync_to_async(session_cookie)(u) for u in (ana, bruno, stranger)]
    players = [await Player.table(room.code, cookies[0]), await Player.table(room.code, cookies[1])]
    for index, tile, end in SCRIPT:
        await _play(players, index, {"type": "play", "tile": tile, "end": end})
    # Seat 1 can only pass now (the server passes for it), then seat 0 blunders;
    # both can only pass afterwards, and the blocked round ends.
    await _play(players, 0, BLUNDER.to_dict())
    for player in players:
        await player.until(lambda s: (s["round"] or {}).get("result") is not None)
    rnd = await sync_to_async(Round.objects.get)(room=room, number=1)
    analysis = await async_wait_for(
        sync_to_async(lambda: _analysed(room.pk)), timeout=20, message="the round's analysis"
    )
    assert analysis.round_id == rnd.pk and analysis.decisions
    # A fresh socket's snapshot, after the analysis exists, carries none of it either.
    again = await Player.table(room.code, cookies[0])
    for player in [*players, again]:
        await player.drain()
        _no_analysis_in(player.frames)
        assert len(player.frames) >= (1 if player is again else 10)
        await player.comm.disconnect()
    with pytest.raises(AssertionError, match="carries"):  # the check is not vacuous
        _no_analysis_in([{**players[0].frames[-1], "analysis": analysis.decisions}])
    api = f"/api/rooms/{room.code}/rounds/1/"
    page = f"/r/{room.code}/rounds/1/"

    def http(cookie):
        client = Client()
        client.cookies.load(cookie)
        return client.get(api), client.get(page)

    mine, my_page = await sync_to_async(http)(cookies[1])
    assert mine.status_code == 200 and mine.json()["analysis"]["decisions"]
    assert b'id="replay-analysis"' in my_page.content
    theirs, their_page = await sync_to_async(http)(cookies[2])
    assert theirs.status_code == 404 and their_page.status_code == 404
    assert b"analysis" not in theirs.content + their_page.content


async def test_nothing_is_analysed_while_the_round_is_played(live, django_user_model):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana"), await make("bruno")
    room = await sync_to_async(_private_room)(ana, bruno)
    cookies = [await sync_to_async(session_cookie)(u) for u in (ana, bruno)]
    players = [await Player.table(room.code, c) for c in cookies]
    for index, tile, end in SCRIPT:
        await _play(players, index, {"type": "play", "tile": tile, "end": end})
        assert not await sync_to_async(_analysed)(room.pk)

    def http():
        client = Client()
        client.cookies.load(cookies[0])
        return client.get(f"/api/rooms/{room.code}/rounds/1/"), client.get(
            f"/r/{room.code}/rounds/1/"
        )

    api, page = await sync_to_async(http)()
    assert api.status_code == 403 and b"analysis" not in api.content
    assert b"replay-analysis" not in page.content
    for player in players:
        _no_analysis_in(player.frames)
        await player.comm.disconnect()
