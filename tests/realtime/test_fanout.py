"""The fan-out of a change: the public state through the room group, each seat's
private part to that seat's socket only, composed by the consumer without a
query; a socket that misses its part re-reads the database."""

import json
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db.backends.utils import CursorWrapper

from domino_site.realtime import fanout
from rooms import consumers, events, services
from rooms.models import Seat
from rooms.selectors import current_round
from tests.realtime.conftest import (
    Player,
    first_legal,
    my_choice,
    my_turn,
    session_cookie,
    solo_room,
)
from tests.realtime.hidden import assert_frames_hide_tiles
from tests.realtime.test_full_games import _play_until_match_over

pytestmark = pytest.mark.django_db(transaction=True)


class LayerSpy:
    """Records every message the services hand to the channel layer."""

    def __init__(self, monkeypatch) -> None:
        self.told: list[tuple[str, str, dict]] = []
        real = fanout._deliver

        async def spying(layer, messages):
            self.told.extend(messages)
            await real(layer, messages)

        monkeypatch.setattr(fanout, "_deliver", spying)


async def _seat_channels(room) -> dict[int, str]:
    rows = Seat.objects.filter(room=room).exclude(channel_name="")
    return dict(await sync_to_async(lambda: list(rows.values_list("index", "channel_name")))())


async def _solo_table_and_a_watcher(users):
    """ana at a parceria table with three bots, and bia watching."""
    ana = await sync_to_async(users.objects.create_user)("ana", password="x")
    bia = await sync_to_async(users.objects.create_user)("bia", password="x")
    room = await sync_to_async(solo_room)(ana)
    player = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    watcher = await Player.table(room.code, await sync_to_async(session_cookie)(bia))
    return room, player, watcher


async def test_no_hand_travels_through_the_room_group_and_each_part_reaches_its_own_seat(
    live, django_user_model, monkeypatch
):
    spy = LayerSpy(monkeypatch)
    room, player, watcher = await _solo_table_and_a_watcher(django_user_model)
    await player.send({"type": "start", "ref": "go"})
    await _play_until_match_over(player)
    channels = await _seat_channels(room)

    told = [m for how, target, m in spy.told if how != "send" and target != "lobby"]
    # Besides the changes the group hears the watcher count: a number, no tile.
    assert all(set(m) == {"type", "count"} for m in told if m["type"] == "room.watchers")
    group = [m for m in told if m["type"] != "room.watchers"]
    private = [(target, m) for how, target, m in spy.told if how == "send"]
    assert len(group) > 20 and len(private) > 20
    for message in group:
        assert message["type"] == "room.state"
        round_ = json.loads(message["frame"])["round"]
        if round_ is not None:
            assert round_["hand"] == [] and round_["legal"] == []
            assert round_["mandatory_tile"] is None
    # The public parts pass the spectator's hidden-information check, frame by frame.
    publics = [json.loads(m["frame"]) for m in group]
    assert await sync_to_async(assert_frames_hide_tiles)(room, publics) > 20
    for target, message in private:
        assert message["type"] == "seat.state"
        assert target == channels[message["seat"]], "a private part goes to its own seat"
    # And what the sockets received passes it too.
    await watcher.drain()
    assert await sync_to_async(assert_frames_hide_tiles)(room, watcher.frames) > 20
    assert await sync_to_async(assert_frames_hide_tiles)(room, player.frames) > 20
    assert all(f["you"]["seat"] is None for f in watcher.frames if f["type"] == "room")


async def test_sockets_compose_a_change_without_touching_the_database(
    live, django_user_model, monkeypatch
):
    room, player, watcher = await _solo_table_and_a_watcher(django_user_model)
    await player.send({"type": "start", "ref": "go"})
    state = await player.until(my_choice, timeout=10)
    await watcher.until(lambda s: s["version"] >= state["version"])
    layer = get_channel_layer()
    public = [m for how, _, m in await _change_of(room) if how != "send"][0]
    private = [m for how, _, m in await _change_of(room) if how == "send"][0]
    player_channel = (await _seat_channels(room))[0]
    calls = []
    real_db = consumers._db
    monkeypatch.setattr(consumers, "_db", lambda func: calls.append(func) or real_db(func))
    # Exactly what the services send after a commit, delivered to the sockets.
    public["version"] = private["version"] = state["version"] + 1
    for message in (public, private):
        message["frame"] = json.dumps(
            {**json.loads(message["frame"]), "version": state["version"] + 1}
        )
    await layer.send(player_channel, private)
    await layer.group_send(events.room_group(room.code), public)
    seen = await player.until(lambda s: s["version"] == state["version"] + 1)
    watched = await watcher.until(lambda s: s["version"] == state["version"] + 1)
    composing = calls
    assert composing == [], "no socket went to the database for this change"
    assert seen["round"]["hand"] == state["round"]["hand"] and seen["you"]["seat"] == 0
    assert watched["round"]["hand"] == [] and watched["you"]["seat"] is None
    # A public room has no invite link at all (its seats are for accounts).
    assert seen["room"]["invite_url"] is None and watched["room"]["invite_url"] is None


async def _change_of(room) -> list:
    def build():
        fresh = type(room).objects.get(pk=room.pk)
        seats = list(Seat.objects.filter(room=fresh).order_by("index"))
        return events.change_messages(fresh, seats, current_round(fresh))

    return await sync_to_async(build)()


async def test_a_socket_that_misses_its_private_part_recovers_through_a_re_read(
    live, django_user_model, monkeypatch
):
    real = events.change_messages
    monkeypatch.setattr(
        events, "change_messages", lambda *a: [m for m in real(*a) if m[0] != "send"]
    )
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(solo_room)(ana)
    player = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    await player.send({"type": "start", "ref": "go"})
    state = await player.until(my_choice, timeout=10)
    assert len(state["round"]["hand"]) + 1 >= 7  # the hand came by a database read
    await player.send({**first_legal(state), "version": state["version"]})
    after = await player.until(lambda s: s["version"] > state["version"])
    assert after["you"]["seat"] == 0 and after["round"]["hand"]


class SocketQueries:
    """Counts the queries of the table sockets' database calls, by the function
    the consumer ran (``execute`` for a command, ``read_snapshot`` for a re-read)."""

    def __init__(self, monkeypatch) -> None:
        self.by: dict[str, int] = {}
        local = threading.local()

        real_execute = CursorWrapper.execute

        def count(cursor, sql, params=None):
            name = getattr(local, "name", None)
            if name is not None:
                self.by[name] = self.by.get(name, 0) + 1
            return real_execute(cursor, sql, params)

        # On the class: connections are kept per thread, made before the count began.
        monkeypatch.setattr(CursorWrapper, "execute", count)
        real_db = consumers._db

        def counted(func):
            def run(*args, **kwargs):
                local.name = func.__name__
                try:
                    return func(*args, **kwargs)
                finally:
                    local.name = None

            return real_db(run)

        monkeypatch.setattr(consumers, "_db", counted)

    def take(self) -> dict[str, int]:
        taken, self.by = self.by, {}
        return taken


def _duelo(user):
    return services.room_create(user=user, name="Duelo", preset="duelo")


def _sit(room, user):
    services.seat_take(room=room, index=1, user=user)


async def test_queries_per_move_end_to_end_do_not_grow_with_the_sockets_or_the_move_number(
    live, django_user_model, monkeypatch
):
    users = [
        await sync_to_async(django_user_model.objects.create_user)(name, password="x")
        for name in ("ana", "bia", "caio", "dani")
    ]
    room = await sync_to_async(_duelo)(users[0])
    await sync_to_async(_sit)(room, users[1])
    sockets = [
        await Player.table(room.code, await sync_to_async(session_cookie)(user)) for user in users
    ]
    players, watchers = sockets[:2], sockets[2:]
    await players[0].send({"type": "start", "ref": "go"})
    counter = SocketQueries(monkeypatch)
    per_move = []
    for _ in range(12):
        states = [await p.until(lambda s: s["round"] is not None) for p in players]
        mover = next((p for p, s in zip(players, states, strict=True) if my_turn(s)), None)
        if mover is None:
            break  # the round ended
        counter.take()
        version = mover.state["version"]
        await mover.send({**first_legal(mover.state), "version": version})
        for socket in sockets:
            await socket.until(lambda s, v=version: s["version"] > v)
        per_move.append(counter.take())
    assert len(per_move) >= 6
    print(f"\nqueries per move, end to end (2 players + 2 watchers): {per_move}")
    assert all(m.get("read_snapshot", 0) == 0 for m in per_move), "no socket re-reads"
    assert len({m["execute"] for m in per_move}) == 1, "constant in the move number"
    assert not [f for s in sockets for f in s.frames if f["type"] == "error"]
    assert all(w.state["you"]["seat"] is None and w.state["round"]["hand"] == [] for w in watchers)
