"""A reconnect storm queues for the connect's database work (rooms.consumers.
connect_slot): at most ``connect_concurrency()`` sockets bind their seat and read
their snapshot at once, each already accepted, so that the handshakes still
coming keep their share of the process (Daphne drops a handshake not accepted
within 5 s: with 800 sockets reconnecting at once and no bound, 603 of them were
dropped; the fault drill tests/scale/test_drill_reconnect_storm.py)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from asgiref.sync import sync_to_async

from rooms import consumers, services
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _rooms(django_user_model, count: int):
    cookies = []
    for i in range(count):
        user = django_user_model.objects.create_user(f"u{i}", password="x")
        room = services.room_create(user=user, name=f"Mesa {i}", preset="duelo")
        cookies.append((room.code, session_cookie(user)))
    return cookies


async def test_at_most_two_sockets_do_their_connect_work_at_once(
    live, django_user_model, monkeypatch
):
    assert consumers.connect_concurrency() == 2
    real, lock = consumers.open_socket, threading.Lock()
    running, most = [0], [0]

    def slow_open_socket(viewer):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.1)
        try:
            return real(viewer)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(consumers, "open_socket", slow_open_socket)
    tables = await sync_to_async(_rooms)(django_user_model, 6)
    players = await asyncio.gather(*(Player.table(code, cookie) for code, cookie in tables))
    assert [p.state["you"]["seat"] for p in players] == [0] * 6  # every snapshot came
    assert most[0] == 2
    for player in players:
        await player.close()
