"""Illegal, stale, duplicated and malformed messages on the table socket: the
right error code, the client's ref echoed, and no change to the room."""

import pytest
from asgiref.sync import sync_to_async

from games.engine import ALL_TILES
from rooms import services
from rooms.consumers import connects
from rooms.errors import rule_error_message
from rooms.models import Room
from tests.realtime.conftest import (
    Player,
    first_legal,
    my_choice,
    session_cookie,
    solo_room,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _version(room) -> int:
    return Room.objects.get(pk=room.pk).version


async def _my_turn_at_a_table(django_user_model, **kw):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(solo_room)(ana, **kw)
    player = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    await player.send({"type": "start"})
    await player.until(my_choice)  # (a pass-only turn is passed by the server: not quiet)
    return room, player


async def _refused(player: Player, room, msg, code: str, ref="r1"):
    before = await sync_to_async(_version)(room)
    await player.send({**msg, "ref": ref} if isinstance(msg, dict) else msg)
    error = await player.error()
    assert (error["code"], error["ref"]) == (code, ref), error
    assert await player.nothing(), "a refused message changes nothing"
    assert await sync_to_async(_version)(room) == before
    return error


async def test_illegal_moves_are_refused_with_the_engines_code(live, django_user_model):
    room, player = await _my_turn_at_a_table(django_user_model)
    state = player.state
    hand = set(state["round"]["hand"])
    chain = {link["tile"] for link in state["round"]["chain"]}
    foreign = next(str(t) for t in ALL_TILES if str(t) not in hand | chain)
    await _refused(player, room, {"type": "play", "tile": foreign, "version": state["version"]},
                   "not_in_hand")  # fmt: skip
    error = await _refused(player, room, {"type": "draw"}, "not_a_draw_game", ref=7)
    assert error["message"]


async def test_a_move_decided_on_an_old_version_is_stale(live, django_user_model):
    room, player = await _my_turn_at_a_table(django_user_model)
    state = player.state
    move = {**first_legal(state), "version": state["version"] - 1}
    await _refused(player, room, move, "stale")


async def test_a_duplicated_move_is_played_once(live, django_user_model):
    room, player = await _my_turn_at_a_table(django_user_model)
    state = player.state
    move = {**first_legal(state), "version": state["version"]}
    await player.send({**move, "ref": "first"})
    await player.send({**move, "ref": "again"})  # a double click
    error = await player.error()
    assert (error["code"], error["ref"]) == ("stale", "again")
    after = await player.until(lambda s: s["version"] > state["version"])
    mine = [e for e in after["log"] if e["seat"] == 0 and e["by"] == "person"]
    assert len(mine) == 1


@pytest.mark.parametrize(
    "frame, ref",
    [
        ("not json", None),
        ("[1, 2]", None),
        ('{"type": "dance", "ref": "d"}', "d"),
        ('{"type": "play", "ref": "p"}', "p"),
        ('{"type": "play", "tile": "9-9", "ref": "n"}', "n"),
        ('{"type": "play", "tile": "1-2", "version": "x", "ref": "v"}', "v"),
        ('{"type": "sit", "seat": "zero", "ref": "s"}', "s"),
        ('{"type": "ping", "ref": "' + "x" * 5000 + '"}', None),  # over 4 KiB
    ],
)
async def test_malformed_messages_get_bad_message(live, django_user_model, frame, ref):
    room, player = await _my_turn_at_a_table(django_user_model)
    before = await sync_to_async(_version)(room)
    await player.send_text(frame)
    error = await player.error()
    assert (error["code"], error["ref"]) == ("bad_message", ref)
    assert await player.nothing()
    assert await sync_to_async(_version)(room) == before


async def test_a_refusal_that_names_a_rule_knob_reaches_the_socket_with_it(live, django_user_model):
    """The page shows the knob's own message (static/js/table.js, errorText)."""
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset="parceria")
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    error = await _refused(
        host, room, {"type": "settings", "options": {"target": 500}}, "bad_message", ref="t"
    )
    assert error == {
        "type": "error",
        "code": "bad_message",
        "message": str(rule_error_message("target")),
        "ref": "t",
        "reason": "invalid_rules",
        "field": "target",
    }


def _duelo_for_two(users):
    """A duelo of ana (host, seat 0) and bruno (seat 1)."""
    ana = users.objects.create_user("ana", password="x")
    bruno = users.objects.create_user("bruno", password="x")
    room = services.room_create(user=ana, name="Duelo", preset="duelo")
    services.seat_take(room=room, index=1, user=bruno)
    return room, ana, bruno


async def test_host_commands_need_the_host(live, django_user_model):
    room, ana, bruno = await sync_to_async(_duelo_for_two)(django_user_model)
    guest = await Player.table(room.code, await sync_to_async(session_cookie)(bruno))
    await _refused(guest, room, {"type": "start"}, "not_host")
    await _refused(guest, room, {"type": "pause"}, "not_host")
    carla = await sync_to_async(django_user_model.objects.create_user)("carla", password="x")
    spectator = await Player.table(room.code, await sync_to_async(session_cookie)(carla))
    assert spectator.state["you"]["seat"] is None
    await _refused(spectator, room, {"type": "ready"}, "not_seated")


async def test_an_anonymous_socket_cannot_watch_a_public_room(live, django_user_model):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset="duelo")
    anonymous = Player(f"/ws/rooms/{room.code}/")
    connected, _ = await anonymous.comm.connect(timeout=5)
    assert connected  # accepted, then closed: the page tells the visitor to log in
    assert await anonymous.comm.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": 4003,
    }


async def test_a_lower_case_code_joins_the_same_table_and_gets_its_changes(live, django_user_model):
    room, ana, bruno = await sync_to_async(_duelo_for_two)(django_user_model)
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    guest = await Player.table(room.code.lower(), await sync_to_async(session_cookie)(bruno))
    assert guest.state["you"]["seat"] == 1
    await host.send({"type": "start", "ref": "go"})
    dealt = await guest.until(lambda s: s["round"] is not None)
    assert len(dealt["round"]["hand"]) == 7


async def test_reconnecting_in_a_loop_is_refused_after_thirty_a_minute(live, django_user_model):
    connects.clear()
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset="duelo")
    cookie = await sync_to_async(session_cookie)(ana)
    for _ in range(30):
        player = await Player.table(room.code, cookie)
        await player.close()
    refused = Player(f"/ws/rooms/{room.code}/", cookie)
    connected, _ = await refused.comm.connect(timeout=5)
    error = await refused.comm.receive_json_from(timeout=5)
    assert error["type"] == "error" and error["code"] == "rate_limited"
    assert await refused.comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4008}
    connects.clear()


async def test_ping_gets_pong(live, django_user_model):
    room, player = await _my_turn_at_a_table(django_user_model)
    await player.send({"type": "ping", "ref": "hello"})
    assert await player.receive() == {"type": "pong", "ref": "hello"}


async def test_a_flood_is_refused_then_closed_with_4008(live, django_user_model):
    room, player = await _my_turn_at_a_table(django_user_model)
    player.pace = 0  # misbehave
    for n in range(45):
        await player.send({"type": "ping", "ref": n})
    codes = []
    while True:
        msg = await player.comm.receive_output()
        if msg["type"] == "websocket.close":
            assert msg["code"] == 4008
            break
        codes.append(msg["text"])
    pongs = sum('"pong"' in c for c in codes)
    limited = sum('"rate_limited"' in c for c in codes)
    # 20 a second pass (the `start` a moment ago may count among them), then refusals
    assert 18 <= pongs <= 20 and limited >= 18 and pongs + limited <= 40


async def test_the_host_sets_up_the_table_through_the_socket(live, django_user_model):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    bruno = await sync_to_async(django_user_model.objects.create_user)("bruno", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset="parceria")
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    await host.send({"type": "settings", "move_seconds": 30, "target": 100})
    state = await host.until(lambda s: s["room"]["move_seconds"] == 30)
    assert state["room"]["rules"]["target"] == 100
    for seat in (1, 2, 3):
        await host.send({"type": "add_bot", "seat": seat, "level": "easy"})
    await host.until(lambda s: all(x["kind"] == "bot" for x in s["seats"][1:]))
    await host.send({"type": "bot_level", "seat": 2, "level": "hard"})
    await host.send({"type": "remove_bot", "seat": 1})
    state = await host.until(lambda s: s["seats"][1]["kind"] == "empty")
    assert state["seats"][2]["bot_level"] == "hard"
    # a second person sits on the free seat from a socket of their own
    other = await Player.table(room.code, await sync_to_async(session_cookie)(bruno))
    assert other.state["you"]["seat"] is None
    await other.send({"type": "sit", "seat": 1})
    mine = await other.until(lambda s: s["you"]["seat"] == 1)
    assert mine["seats"][1]["connected"] and mine["seats"][1]["kind"] == "human"
    await host.send({"type": "start"})
    await host.until(lambda s: s["round"] is not None)
