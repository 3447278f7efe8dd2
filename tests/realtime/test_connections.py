"""Connections come and go: reconnection, a second tab, pause, the move clock,
disconnected players (30 s auto move, bot takeover after 2 minutes, the seat
and hand back on return) and rooms left with no connected human. Time moves
through the ticker's clock (``advance``/``sweep``), as the scheduler sees it."""

import asyncio
from datetime import datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.models import Round
from rooms import services
from rooms.models import Room, Seat
from tests.realtime.conftest import (
    Player,
    advance,
    first_legal,
    my_choice,
    my_turn,
    session_cookie,
    solo_room,
    sweep,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def _user(django_user_model, name):
    return await sync_to_async(django_user_model.objects.create_user)(name, password="x")


async def _solo(django_user_model, **kw):
    ana = await _user(django_user_model, "ana")
    room = await sync_to_async(solo_room)(ana, **kw)
    cookie = await sync_to_async(session_cookie)(ana)
    return room, cookie


def _engine_hand(room, seat: int) -> list[str]:
    rnd = Round.objects.filter(room=room).order_by("-id").first()
    return sorted(str(t) for t in rnd.engine().hand(seat))


def _room_row(room) -> Room:
    return Room.objects.get(pk=room.pk)


def _last(state) -> dict:
    return state["log"][-1] if state["log"] else {}


async def test_reconnecting_gives_the_same_hand(live, django_user_model):
    room, cookie = await _solo(django_user_model)
    player = await Player.table(room.code, cookie)
    await player.send({"type": "start"})
    before = await player.until(my_choice)  # (a pass-only turn would move on by itself)
    await player.close()
    again = await Player.table(room.code, cookie)
    state = await again.until(lambda s: not s["room"]["paused"] and my_turn(s))
    assert state["you"]["seat"] == 0
    assert state["round"]["hand"] == before["round"]["hand"]
    assert state["round"]["chain"] == before["round"]["chain"]
    assert sorted(state["round"]["hand"]) == await sync_to_async(_engine_hand)(room, 0)
    await again.close()


async def test_a_second_tab_replaces_the_first(live, django_user_model):
    room, cookie = await _solo(django_user_model)
    first = await Player.table(room.code, cookie)
    second = await Player.table(room.code, cookie)
    while (msg := await first.receive())["type"] == "room":
        pass  # the seat's change may come first
    assert msg == {"type": "replaced"}
    closed = await first.comm.receive_output()
    assert closed == {"type": "websocket.close", "code": 4001}
    await first.close()
    await second.send({"type": "start"})
    state = await second.until(my_turn)
    assert state["seats"][0]["connected"]
    assert await first.nothing(), "the replaced tab hears nothing more"
    await second.close()


async def test_pause_freezes_the_clock_and_the_bots(live, django_user_model, settings):
    settings.BOT_DELAY_SECONDS = 1
    room, cookie = await _solo(django_user_model, move_seconds=10)
    player = await Player.table(room.code, cookie)
    await player.send({"type": "start"})
    # A turn with a choice runs on the clock (a turn with nothing but pass is
    # passed by the server after a second, with no deadline shown: wait past it).
    # (Bots take a second each here: a pass-only turn costs a whole lap.)
    await player.until(lambda s: my_choice(s) and s["round"]["deadline"] is not None, timeout=20)
    await player.send({"type": "pause"})
    paused = await player.until(lambda s: s["room"]["paused"])
    assert paused["round"]["deadline"] is None
    assert 9000 <= paused["round"]["remaining_ms"] <= 10000
    advance(120)  # two minutes frozen: no timeout move
    assert await player.nothing(0.3)
    # Back to the real clock: the deadline below is compared with timezone.now().
    live.offset = timedelta(0)
    await player.send({"type": "resume"})
    resumed = await player.until(lambda s: not s["room"]["paused"])
    assert resumed["round"]["turn"] == 0 and resumed["log"] == paused["log"]
    # the clock goes on from what was left
    left = datetime.fromisoformat(resumed["round"]["deadline"]) - timezone.now()
    assert 8 < left.total_seconds() <= paused["round"]["remaining_ms"] / 1000
    await player.send({**first_legal(resumed), "version": resumed["version"]})
    after = await player.until(lambda s: s["round"]["turn"] != 0)
    assert after["round"]["deadline"] is None  # a bot's turn: due in 1 s, not shown
    await player.send({"type": "pause"})
    frozen = await player.until(lambda s: s["room"]["paused"])
    advance(60)
    assert await player.nothing(0.3), "no bot moves while paused"
    assert frozen["round"]["remaining_ms"] <= 1000
    live.offset = timedelta(0)
    await player.send({"type": "resume"})
    await player.until(lambda s: not s["room"]["paused"])
    advance(2)
    moved = await player.until(lambda s: len(s["log"]) > len(frozen["log"]))
    assert _last(moved)["by"] == "bot"
    await player.close()


async def test_the_clock_running_out_makes_a_timeout_move(live, django_user_model):
    room, cookie = await _solo(django_user_model, move_seconds=10)
    player = await Player.table(room.code, cookie)
    await player.send({"type": "start"})
    # A turn on the clock (a turn with nothing but pass is passed by the server
    # at once, without one; random deals have them).
    mine = await player.until(lambda s: my_choice(s) and s["round"]["deadline"] is not None)
    count = len(mine["log"])
    deadline = datetime.fromisoformat(mine["round"]["deadline"])
    advance((deadline - live.now()).total_seconds() - 3)  # 3 s left (real time runs too)
    assert await player.nothing(0.2), "not yet"
    advance(4)
    state = await player.until(lambda s: len(s["log"]) > count)
    entry = state["log"][count]
    assert (entry["seat"], entry["by"]) == (0, "timeout")
    await player.close()


def _duelo(ana, bruno):
    room = services.room_create(user=ana, name="Duelo", preset="duelo")
    services.seat_take(room=room, index=1, user=bruno)
    return room


async def test_a_disconnected_player_is_played_for_then_replaced_then_comes_back(
    live, django_user_model
):
    ana, bruno = await _user(django_user_model, "ana"), await _user(django_user_model, "bruno")
    room = await sync_to_async(_duelo)(ana, bruno)
    cookies = [await sync_to_async(session_cookie)(u) for u in (ana, bruno)]
    players = [await Player.table(room.code, c) for c in cookies]
    await players[0].send({"type": "start"})
    state = await players[0].until(
        lambda s: s["round"] is not None and s["round"]["turn"] is not None
    )
    away = state["round"]["turn"]
    stays = players[1 - away]
    await players[away].close()
    state = await stays.until(lambda s: not s["seats"][away]["connected"])
    assert state["round"]["due_kind"] == "auto" and state["round"]["deadline"]
    count = len(state["log"])
    # 30 s without a clock: the server moves for them
    advance(25)  # (real time runs too: a margin for a slow machine)
    assert await stays.nothing(0.2)
    advance(6)
    state = await stays.until(lambda s: len(s["log"]) > count)
    assert (state["log"][count]["seat"], state["log"][count]["by"]) == (away, "timeout")
    # two minutes away: a bot takes the seat (same tiles and side)
    await sweep(120)
    state = await stays.until(lambda s: s["seats"][away]["substitute"])
    assert state["seats"][away]["bot_level"]
    count = len(state["log"])

    def bot_moved_or_over(s) -> bool:
        return any(e["seat"] == away for e in s["log"][count:]) or bool(s["round"]["result"])

    for _ in range(30):  # the other plays (a draw keeps the turn); the bot answers at once
        state = await stays.until(lambda s: my_turn(s) or bot_moved_or_over(s))
        if bot_moved_or_over(state):
            break
        await stays.send({**first_legal(state), "version": state["version"]})
        await stays.until(lambda s, v=state["version"]: s["version"] > v)
    assert any(e["by"] == "substitute" for e in state["log"][count:]) or state["round"]["result"]
    # back before the result: the same seat and the hand as the bot left it
    back = await Player.table(room.code, cookies[away])
    mine = await back.until(lambda s: not s["seats"][away]["substitute"])
    assert mine["you"]["seat"] == away
    assert sorted(mine["round"]["hand"]) == await sync_to_async(_engine_hand)(room, away)
    for player in (back, stays):
        await player.close()


async def test_a_public_room_with_no_connected_human_pauses_leaves_the_list_and_closes(
    live, django_user_model
):
    room, cookie = await _solo(django_user_model)
    lobby = Player("/ws/lobby/")
    assert (await lobby.comm.connect())[0]
    player = await Player.table(room.code, cookie)
    await player.send({"type": "start"})
    await player.until(my_turn)

    shown: set[str] = set()  # the lobby's page, as the page keeps it

    async def listed() -> bool:
        await lobby.receive()  # (every frame is kept in lobby.frames)
        await lobby.drain()
        for frame in lobby.frames:
            if frame["type"] == "rooms":
                shown.clear()
                shown.update(r["code"] for r in frame["rooms"])
            elif frame["type"] == "rooms_changed":
                shown.difference_update(frame["removed"])
                shown.update(r["code"] for r in frame["added"])
        lobby.frames.clear()
        return room.code in shown

    for _ in range(10):  # the lobby's news comes within rooms.events.LOBBY_EVERY
        if await listed():
            break
    else:
        raise AssertionError("the room never reached the public list")
    await player.close()
    for _ in range(10):  # the lobby hears of the room going away
        if not await listed():
            break
    else:
        raise AssertionError("the empty room stayed on the public list")
    row = await sync_to_async(_room_row)(room)
    assert row.paused and row.status != "closed"
    await sweep(60)
    assert (await sync_to_async(_room_row)(room)).status != "closed"
    await sweep(61)
    assert (await sync_to_async(_room_row)(room)).status == "closed"
    await lobby.close()
    await asyncio.sleep(0)


def _seat_left_connected_by_a_dead_server(room) -> None:
    host = Seat.objects.get(room=room, index=0)
    services.seat_connected(room=room, index=0, channel_name="specific.dead!channel")
    services.match_start(room=room, actor=host)


async def test_the_embedded_server_forgets_connections_of_a_dead_process(
    live, django_user_model, settings
):
    # embedded: the in-memory layer, so every socket lives in this process
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    room, cookie = await _solo(django_user_model)
    await sync_to_async(_seat_left_connected_by_a_dead_server)(room)
    lobby = Player("/ws/lobby/")  # the first connection starts the ticker
    assert (await lobby.comm.connect())[0]
    row = await sync_to_async(_room_row)(room)
    seat = await sync_to_async(Seat.objects.get)(room=room, index=0)
    assert not seat.connected and row.paused  # the only human is gone: paused
    player = await Player.table(room.code, cookie)  # coming back resumes
    state = await player.until(lambda s: not s["room"]["paused"])
    assert state["seats"][0]["connected"]
    await player.close()
    await lobby.close()


def _arena(ana, bruno):
    room = services.room_create(user=ana, name="Arena", preset="arena")
    services.seat_take(room=room, index=1, user=bruno)
    return room


async def test_arena_walkover_when_the_next_round_is_not_confirmed_in_60_s(live, django_user_model):
    ana, bruno = await _user(django_user_model, "ana"), await _user(django_user_model, "bruno")
    room = await sync_to_async(_arena)(ana, bruno)
    players = [
        await Player.table(room.code, await sync_to_async(session_cookie)(u)) for u in (ana, bruno)
    ]
    await players[0].send({"type": "start"})

    async def play(player: Player) -> dict:
        for _ in range(100):
            state = await player.until(
                lambda s: my_turn(s) or bool((s["round"] or {}).get("result"))
            )
            if state["round"]["result"]:
                return state
            await player.send({**first_legal(state), "version": state["version"]})
            await player.until(lambda s, v=state["version"]: s["version"] > v)
        raise AssertionError("the round did not end")

    await asyncio.gather(*(play(p) for p in players))
    await players[0].send({"type": "ready"})  # ana confirms, bruno does not
    state = await players[1].until(lambda s: s["seats"][0]["ready"])
    assert state["round"]["due_kind"] == "walkover" and not state["match"]["over"]
    advance(50)  # (real time runs too: a margin for a slow machine)
    assert await players[1].nothing(0.2)
    advance(15)
    state = await players[1].until(lambda s: s["match"]["over"])
    assert state["match"]["ended_by"] == "walkover"
    assert state["match"]["winner"] == 0  # bruno's side loses by W.O.
    for player in players:
        await player.close()
