"""Both channel layers of domino_site.infra hand a change over in order, one
message a socket: a seat's socket gets its own frame, and the group's message
(``"group_others"``) goes to the group's other members only."""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest

from domino_site.infra.channels import InMemoryChannelLayer
from domino_site.infra.channels_redis import RedisChannelLayer


async def _one_message_a_socket(layer) -> None:
    seat, watcher = await layer.new_channel(), await layer.new_channel()
    for channel in (seat, watcher):
        await layer.group_add("room.ONE", channel)
    await layer.send_in_order(
        [
            ("send", seat, {"type": "seat.state", "version": 3}),
            ("group_others", "room.ONE", {"type": "room.state", "version": 3}),
            ("group", "room.ONE", {"type": "room.watchers", "count": 1}),  # everyone
        ]
    )

    async def types(channel: str) -> list[str]:
        return [(await asyncio.wait_for(layer.receive(channel), 2))["type"] for _ in range(2)]

    assert await types(seat) == ["seat.state", "room.watchers"]
    assert await types(watcher) == ["room.state", "room.watchers"]
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(seat), 0.3)


async def test_in_memory_each_socket_gets_one_message_a_change():
    await _one_message_a_socket(InMemoryChannelLayer())


@pytest.mark.redis
async def test_redis_each_socket_gets_one_message_a_change():
    layer = RedisChannelLayer(
        hosts=[os.environ["REDIS_URL"]], prefix=f"test-order-{secrets.token_hex(4)}"
    )
    try:
        await _one_message_a_socket(layer)
    finally:
        await layer.flush()
