"""domino_site.infra.channels_redis (receiving): one reader a process moves
its inbox into its sockets' queues, many messages a round trip; other
processes (and channels-redis' own layer) reach every socket, in order."""

from __future__ import annotations

import asyncio
import os
import secrets
import time

import pytest
import redis.asyncio as aioredis
from channels_redis.core import RedisChannelLayer as StockLayer
from redis.exceptions import ConnectionError as RedisConnectionError

from domino_site.infra.channels_redis import RedisChannelLayer
from tests.waiting import async_wait_for

pytestmark = pytest.mark.redis


def _layers(n: int, **config) -> list:
    """``n`` of our layers (as ``n`` processes would have) on one Redis and prefix."""
    prefix = f"test-inbox-{secrets.token_hex(4)}"
    hosts = [os.environ["REDIS_URL"]]
    return [RedisChannelLayer(hosts=hosts, prefix=prefix, **config) for _ in range(n)]


async def _inbox_size(layer) -> int:
    """Messages waiting in Redis for ``layer``'s process."""
    client = aioredis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        return await client.zcard(layer.prefix + f"specific.{layer.client_prefix}!")
    finally:
        await client.aclose()


async def _closed(*layers) -> None:
    for layer in layers:
        await layer.flush()


async def _receiving(layer, channel: str) -> asyncio.Future:
    """A receive of ``channel`` that has started waiting."""
    receive = asyncio.ensure_future(layer.receive(channel))
    await async_wait_for(
        lambda: layer.receiving(channel), timeout=5, message=f"a receive waiting on {channel}"
    )
    return receive


async def test_a_message_to_a_socket_of_the_same_process_goes_through_its_inbox():
    (ours,) = _layers(1)
    socket = await ours.new_channel()
    receiving = await _receiving(ours, socket)
    await ours.send(socket, {"type": "seat.state", "version": 3})
    assert await asyncio.wait_for(receiving, 2) == {"type": "seat.state", "version": 3}
    await ours.group_add("room.HERE", socket)
    await ours.send_in_order([("group", "room.HERE", {"type": "room.state", "version": 4})])
    assert await asyncio.wait_for(ours.receive(socket), 2) == {"type": "room.state", "version": 4}
    assert await _inbox_size(ours) == 0  # read, every one
    await _closed(ours)


async def test_another_process_and_the_stock_layer_reach_the_socket_through_redis():
    ours, other = _layers(2)
    stock = StockLayer(hosts=[os.environ["REDIS_URL"]], prefix=ours.prefix)
    socket = await ours.new_channel()
    await ours.group_add("room.MIXED", socket)
    await other.send(socket, {"type": "seat.state", "version": 1})
    await other.group_send("room.MIXED", {"type": "room.state", "version": 2})
    await stock.group_send("room.MIXED", {"type": "room.state", "version": 3})
    got = [(await asyncio.wait_for(ours.receive(socket), 2))["version"] for _ in range(3)]
    assert got == [1, 2, 3]
    await _closed(ours, other, stock)


async def test_messages_waiting_in_the_inbox_come_in_order_once_each():
    """Sent while no socket of the process was receiving: the reader takes them in
    one pop and every socket gets its own, in order, once."""
    ours, other = _layers(2)
    a, b = await ours.new_channel(), await ours.new_channel()
    for n in range(30):
        await other.send(a if n % 2 else b, {"type": "m", "n": n})
    got_a = [(await asyncio.wait_for(ours.receive(a), 2))["n"] for _ in range(15)]
    got_b = [(await asyncio.wait_for(ours.receive(b), 2))["n"] for _ in range(15)]
    assert got_a == list(range(1, 30, 2))
    assert got_b == list(range(0, 30, 2))
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(ours.receive(a), 0.3)
    assert await _inbox_size(ours) == 0
    await _closed(ours, other)


async def test_a_socket_closing_while_the_process_waits_loses_nobody_elses_message():
    """No receive holds the process' pop: a socket's receive being cancelled (it
    closed) just as a message for another socket arrives costs that message
    nothing."""
    ours, other = _layers(2)
    closing, staying = await ours.new_channel(), await ours.new_channel()
    waiting = await _receiving(ours, closing)
    kept = asyncio.ensure_future(ours.receive(staying))
    await other.send(staying, {"type": "seat.state", "n": 1})
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert await asyncio.wait_for(kept, 2) == {"type": "seat.state", "n": 1}
    await _closed(ours, other)


async def test_the_queues_of_closed_sockets_are_forgotten():
    """Messages kept coming for a socket that closed: its queue goes once nobody
    has read it for the layer's expiry."""
    ours, other = _layers(2, expiry=1)
    gone, alive = await ours.new_channel(), await ours.new_channel()
    await other.send(gone, {"type": "late"})
    receiving = await _receiving(ours, alive)
    await async_wait_for(
        lambda: gone in ours.receive_buffer, timeout=5, message="the late message read"
    )  # from the inbox, with nobody to take it
    await async_wait_for(
        lambda: time.monotonic() - ours._read_at[gone] > ours.expiry,
        timeout=5,
        message="the late message's queue unread for the layer's expiry (1 s)",
    )
    await other.send(alive, {"type": "news"})
    assert await asyncio.wait_for(receiving, 2) == {"type": "news"}
    assert gone not in ours.receive_buffer
    await _closed(ours, other)


async def test_a_receive_that_ends_leaves_no_waiter_behind():
    ours, other = _layers(2)
    socket = await ours.new_channel()
    receiving = await _receiving(ours, socket)
    await other.send(socket, {"type": "m"})
    await asyncio.wait_for(receiving, 2)
    assert not ours.receiving(socket)
    cancelled = await _receiving(ours, socket)
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert not ours.receiving(socket)
    await _closed(ours, other)


async def test_a_redis_that_does_not_answer_fails_the_waiting_receive():
    """The sockets' guard (domino_site.realtime.socket_guard) then closes them with 4012."""
    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:1/0"], prefix="test-inbox-down")
    socket = await layer.new_channel()
    with pytest.raises(RedisConnectionError):
        await asyncio.wait_for(layer.receive(socket), 5)


async def test_a_redis_before_7_is_read_one_message_a_pop():
    """No BZMPOP (Redis 6): the reader falls back to BZPOPMIN."""
    ours, other = _layers(2)
    ours.use_bzmpop = False
    socket = await ours.new_channel()
    for n in range(3):
        await other.send(socket, {"type": "m", "n": n})
    got = [(await asyncio.wait_for(ours.receive(socket), 2))["n"] for _ in range(3)]
    assert got == [0, 1, 2]
    await _closed(ours, other)
