"""How a committed change's messages leave a database thread (domino_site.realtime.fanout.deliver).

A service called from a socket runs in a database thread (`db_async`): its
messages are handed to the server loop and the thread goes on at once. Sync
code with no loop (Celery, commands) still sends before it returns.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from channels.layers import InMemoryChannelLayer

from domino_site.realtime.asyncdb import calling_loop, db_async
from domino_site.realtime.fanout import deliver

# db_async tidies its thread's database connection after each call: with the
# embedded default a pool thread keeps one from an earlier test.
pytestmark = pytest.mark.django_db


class GatedLayer(InMemoryChannelLayer):
    """Sends only once the gate opens, and notes the thread that sent."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.sent_in: list[str] = []

    async def send(self, channel, message):
        await self.gate.wait()
        self.sent_in.append(threading.current_thread().name)
        await super().send(channel, message)


def _send_one(layer, channel) -> asyncio.AbstractEventLoop | None:
    deliver(layer, [("send", channel, {"type": "x.y", "n": 1})])
    return calling_loop()


async def test_a_database_thread_hands_the_messages_to_the_loop_without_waiting():
    layer = GatedLayer()
    channel = await layer.new_channel()
    # The sending cannot start before the call returned: a thread that waited
    # for it would never return.
    seen_loop = await asyncio.wait_for(db_async(_send_one)(layer, channel), 5)
    assert seen_loop is asyncio.get_running_loop()
    assert layer.sent_in == []
    layer.gate.set()
    message = await asyncio.wait_for(layer.receive(channel), 5)
    assert message["n"] == 1
    assert layer.sent_in == [threading.current_thread().name]  # sent by the loop


async def test_the_calling_loop_is_known_only_during_the_call():
    assert calling_loop() is None
    assert await db_async(calling_loop)() is asyncio.get_running_loop()
    assert await db_async(lambda: threading.current_thread().name)() != "MainThread"


def test_sync_code_without_a_loop_sends_before_returning():
    layer = InMemoryChannelLayer()
    channel = "x.plain"
    deliver(layer, [("send", channel, {"type": "x.y", "n": 2})])

    async def receive():
        return await asyncio.wait_for(layer.receive(channel), 1)

    assert asyncio.run(receive())["n"] == 2
