"""A seated socket told it is to move reads its table ahead (rooms.consumers,
rooms.services.ahead): the move then takes that copy, and reaches every socket
of the table like any other; a quick move does not wait for a read not begun."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games.models import Move
from rooms import consumers, services
from rooms.services import ahead
from tests.realtime.conftest import Player, first_legal, my_choice, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def _duel(users):
    ana = await sync_to_async(users.objects.create_user)("ana", password="x")
    bia = await sync_to_async(users.objects.create_user)("bia", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Duelo", preset="duelo")
    await sync_to_async(services.seat_take)(room=room, index=1, user=bia)
    sockets = [
        await Player.table(room.code, await sync_to_async(session_cookie)(user))
        for user in (ana, bia)
    ]
    return room, sockets


def _count_reads(monkeypatch) -> list[int]:
    """No copy kept yet; each read ahead that runs from now on adds a 1."""
    ahead.forget_copies()
    reads: list[int] = []
    real_read = consumers.read_ahead
    monkeypatch.setattr(
        consumers, "read_ahead", lambda viewer: reads.append(1) or real_read(viewer)
    )
    return reads


async def _started_duel(users):
    room, players = await _duel(users)
    await players[0].send({"type": "start", "ref": "go"})
    for p in players:
        await p.until(lambda s: s["round"] is not None)
    return room, players


async def _copy_waiting(room_id: int, version: int, timeout: float = 10) -> bool:
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        with ahead._copies_lock:
            copy = ahead._copies.get(room_id)
        if copy is not None and copy.version == version:
            return True
        await asyncio.sleep(0.02)
    return False


async def test_the_socket_to_move_reads_ahead_and_its_move_takes_the_copy(
    live, django_user_model, monkeypatch
):
    monkeypatch.setattr(consumers, "READ_AHEAD_AFTER", 0.05)
    monkeypatch.setattr(consumers, "READ_AHEAD_BELOW", float("inf"))  # (however busy)
    ahead.forget_copies()
    taken = []
    real_take = ahead.take_copy

    def take(room_id, version):
        copy = real_take(room_id, version)
        taken.append(copy.version if copy is not None else None)  # (the move changes it)
        return copy

    monkeypatch.setattr("rooms.services.base.take_copy", take)
    room, players = await _duel(django_user_model)
    await players[0].send({"type": "start", "ref": "go"})
    states = [await p.until(lambda s: s["round"] is not None) for p in players]
    for _move in range(3):
        mover = next(p for p in players if my_choice(p.state))
        version = mover.state["version"]
        assert await _copy_waiting(room.pk, version), "the socket to move read ahead"
        await mover.send({**first_legal(mover.state), "version": version})
        states = [await p.until(lambda s, v=version: s["version"] > v) for p in players]
        assert taken[-1] == version, "the move took the copy read ahead"
    assert all(s["round"]["hand"] for s in states)
    count = await sync_to_async(Move.objects.filter(round__room=room).count)()
    assert count >= 3
    assert not [f for p in players for f in p.frames if f["type"] == "error"]


async def test_a_move_sent_at_once_cancels_the_read_ahead_not_yet_begun(
    live, django_user_model, monkeypatch
):
    monkeypatch.setattr(consumers, "READ_AHEAD_AFTER", 30)  # (not due before the move)
    reads = _count_reads(monkeypatch)
    room, players = await _started_duel(django_user_model)
    mover = next(p for p in players if my_choice(p.state))
    version = mover.state["version"]
    await mover.send({**first_legal(mover.state), "version": version})
    for p in players:
        await p.until(lambda s, v=version: s["version"] > v)
    assert reads == [], "the move came before the read ahead was due"
    assert not [f for p in players for f in p.frames if f["type"] == "error"]


async def test_a_busy_process_does_not_read_ahead_and_the_move_reads_its_table(
    live, django_user_model, monkeypatch
):
    monkeypatch.setattr(consumers, "READ_AHEAD_AFTER", 0.01)
    monkeypatch.setattr(consumers, "READ_AHEAD_BELOW", 0.0)  # (always busy)
    reads = _count_reads(monkeypatch)
    room, players = await _started_duel(django_user_model)
    for _move in range(2):
        mover = next(p for p in players if my_choice(p.state))
        version = mover.state["version"]
        await asyncio.sleep(0.1)  # (the read ahead would have been due)
        await mover.send({**first_legal(mover.state), "version": version})
        for p in players:
            await p.until(lambda s, v=version: s["version"] > v)
    assert reads == [], "spare-time work only"
    count = await sync_to_async(Move.objects.filter(round__room=room).count)()
    assert count >= 2
    assert not [f for p in players for f in p.frames if f["type"] == "error"]
