"""domino_site.infra.channels_redis.RedisChannelLayer: channels-redis' messages, keys, expiries
and capacities, in fewer round trips. What it sends, channels-redis' own layer
receives (and the other way round); full inboxes refuse; expired members and
messages are dropped first."""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest
from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer as StockLayer

from domino_site.infra.channels_redis import RedisChannelLayer
from tests.waiting import async_wait_for

pytestmark = pytest.mark.redis


def _pair(**config):
    """Ours and channels-redis' layer on the same Redis and prefix."""
    prefix = f"test-layer-{secrets.token_hex(4)}"
    hosts = [os.environ["REDIS_URL"]]
    return (
        RedisChannelLayer(hosts=hosts, prefix=prefix, **config),
        StockLayer(hosts=hosts, prefix=prefix, **config),
    )


async def _closed(*layers) -> None:
    for layer in layers:
        await layer.flush()


async def test_a_send_reaches_its_channel_and_the_stock_layer_reads_it():
    ours, stock = _pair()
    general = await ours.new_channel()  # process-local ("specific.…!…")
    await ours.send(general, {"type": "hello", "n": 1})
    assert await asyncio.wait_for(ours.receive(general), 2) == {"type": "hello", "n": 1}
    await ours.send("plain.channel", {"type": "hi", "text": "olá"})
    assert await asyncio.wait_for(stock.receive("plain.channel"), 2) == {
        "type": "hi",
        "text": "olá",
    }
    await stock.send("plain.channel", {"type": "back"})
    assert await asyncio.wait_for(ours.receive("plain.channel"), 2) == {"type": "back"}
    await _closed(ours, stock)


async def test_a_full_inbox_refuses_the_message_and_keeps_what_it_had():
    ours, _ = _pair(capacity=2)
    for n in range(2):
        await ours.send("full.channel", {"type": "m", "n": n})
    with pytest.raises(ChannelFull):
        await ours.send("full.channel", {"type": "m", "n": 2})
    got = [await asyncio.wait_for(ours.receive("full.channel"), 2) for _ in range(2)]
    assert [m["n"] for m in got] == [0, 1]
    await ours.send("full.channel", {"type": "m", "n": 3})  # room again
    assert (await asyncio.wait_for(ours.receive("full.channel"), 2))["n"] == 3
    await _closed(ours)


async def test_expired_messages_do_not_count_against_the_capacity():
    ours, _ = _pair(capacity=1, expiry=1)
    await ours.send("old.channel", {"type": "m", "n": 0})
    with pytest.raises(ChannelFull):  # while the first one lives, the inbox is full
        await ours.send("old.channel", {"type": "m", "n": 1})

    async def sent_once_the_old_one_expired() -> bool:
        try:
            await ours.send("old.channel", {"type": "m", "n": 1})  # the old one is dropped first
        except ChannelFull:
            return False
        return True

    # Expiry is counted in whole seconds: within about two the old one goes.
    await async_wait_for(
        sent_once_the_old_one_expired, timeout=5, message="the expired message freeing the inbox"
    )
    assert (await asyncio.wait_for(ours.receive("old.channel"), 2))["n"] == 1
    await _closed(ours)


async def test_a_group_send_reaches_every_member_once_local_or_not():
    ours, stock = _pair()
    local = [await ours.new_channel(), await ours.new_channel()]
    others = ["plain.a", "plain.b"]
    for channel in [*local, *others]:
        await ours.group_add("room.TEST", channel)
    await ours.group_send("room.TEST", {"type": "room.state", "version": 7})
    for channel in local:
        assert await asyncio.wait_for(ours.receive(channel), 2) == {
            "type": "room.state",
            "version": 7,
        }
    for channel in others:
        assert await asyncio.wait_for(stock.receive(channel), 2) == {
            "type": "room.state",
            "version": 7,
        }
    await ours.group_discard("room.TEST", "plain.b")
    await ours.group_send("room.TEST", {"type": "again"})
    assert (await asyncio.wait_for(stock.receive("plain.a"), 2))["type"] == "again"
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(stock.receive("plain.b"), 0.5)
    await _closed(ours, stock)


async def test_a_group_send_skips_full_inboxes_and_expired_members():
    ours, _ = _pair(capacity=1, group_expiry=1)
    await ours.group_add("room.FULL", "plain.full")
    await ours.group_add("room.FULL", "plain.free")
    await ours.send("plain.full", {"type": "first"})
    await ours.group_send("room.FULL", {"type": "second"})  # no error: full ones are skipped
    assert (await asyncio.wait_for(ours.receive("plain.full"), 2))["type"] == "first"
    assert (await asyncio.wait_for(ours.receive("plain.free"), 2))["type"] == "second"

    async def not_delivered_any_more() -> bool:
        """A group send misses plain.free once its membership expired."""
        await ours.group_send("room.FULL", {"type": "third"})
        try:
            await asyncio.wait_for(ours.receive("plain.free"), 0.2)
        except TimeoutError:
            return True
        return False

    await async_wait_for(not_delivered_any_more, timeout=5, message="the memberships expiring")
    with pytest.raises(asyncio.TimeoutError):  # and it stays so
        await ours.group_send("room.FULL", {"type": "fourth"})
        await asyncio.wait_for(ours.receive("plain.free"), 0.5)
    await _closed(ours)


async def test_receives_come_in_order_once_each():
    ours, _ = _pair()
    for n in range(3):
        await ours.send("queue.channel", {"type": "m", "n": n})
    got = [(await asyncio.wait_for(ours.receive("queue.channel"), 2))["n"] for _ in range(3)]
    assert got == [0, 1, 2]
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(ours.receive("queue.channel"), 0.5)
    await _closed(ours)


async def test_a_changes_messages_arrive_in_the_order_they_were_given():
    """rooms.events hands a change's messages over at once: each seat's own frame,
    then the group's; a socket gets its own before the group's."""
    ours, stock = _pair()
    seat = await ours.new_channel()
    await ours.group_add("room.ORDER", seat)
    await ours.group_add("room.ORDER", "plain.watcher")
    await ours.send_in_order(
        [
            ("send", seat, {"type": "seat.state", "version": 2}),
            ("send", "plain.other", {"type": "seat.state", "version": 2}),
            ("group", "room.ORDER", {"type": "room.state", "version": 2}),
            ("group", "room.EMPTY", {"type": "room.state", "version": 2}),  # nobody: skipped
        ]
    )
    assert [(await asyncio.wait_for(ours.receive(seat), 2))["type"] for _ in range(2)] == [
        "seat.state",
        "room.state",
    ]
    assert (await asyncio.wait_for(stock.receive("plain.other"), 2))["type"] == "seat.state"
    assert (await asyncio.wait_for(stock.receive("plain.watcher"), 2))["type"] == "room.state"
    await _closed(ours, stock)
