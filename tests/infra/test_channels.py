"""What domino_site.infra.channels relies on in channels' in-memory layer: each
test fails when that behaviour changes."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.exceptions import ChannelFull

from domino_site.infra.channels import InMemoryChannelLayer
from tests.waiting import async_wait_for


class Counting(InMemoryChannelLayer):
    walks = 0

    def _clean_expired(self) -> None:
        self.walks += 1
        super()._clean_expired()


async def test_receive_and_group_send_walk_for_expired_messages():
    """The stock layer's calls that our throttle keeps from walking every time."""
    layer = Counting()
    await layer.send("a.channel", {"type": "m"})
    await layer.receive("a.channel")
    assert layer.walks == 1
    await layer.group_send("room.X", {"type": "m"})
    assert layer.walks == 2


async def test_the_walk_runs_at_most_once_every_clean_every_seconds():
    layer = InMemoryChannelLayer(expiry=60)
    layer.clean_every = 3600.0
    await layer.send("a.channel", {"type": "m", "n": 1})
    await layer.receive("a.channel")
    first = layer.cleaned_at
    await layer.send("a.channel", {"type": "m", "n": 2})
    await layer.receive("a.channel")
    assert layer.cleaned_at == first


async def test_expired_messages_still_go_when_the_walk_runs():
    layer = InMemoryChannelLayer(expiry=0)
    layer.clean_every = 0.0
    await layer.send("a.channel", {"type": "old"})
    expires_at = layer.channels["a.channel"]._queue[0][0]  # the stock layer's (expiry, message)
    await async_wait_for(
        lambda: time.time() > expires_at, timeout=2, message="the message past its expiry of 0 s"
    )
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive("a.channel"), 0.2)


async def test_groups_map_each_group_to_its_channels():
    layer = InMemoryChannelLayer()
    await layer.group_add("room.X", "a.channel")
    await layer.group_add("room.X", "b.channel")
    assert set(layer.groups["room.X"]) == {"a.channel", "b.channel"}


async def test_a_change_skips_the_members_already_told_and_drops_at_a_full_inbox():
    layer = InMemoryChannelLayer(capacity=1)
    for channel in ("seat.channel", "watcher.channel"):
        await layer.group_add("room.X", channel)
    await layer.send_in_order(
        [
            ("send", "seat.channel", {"type": "seat.state"}),
            ("group_others", "room.X", {"type": "room.state"}),
            ("group", "room.X", {"type": "notice"}),  # full inboxes: dropped, no error
        ]
    )
    assert (await layer.receive("seat.channel"))["type"] == "seat.state"
    assert (await layer.receive("watcher.channel"))["type"] == "room.state"
    with pytest.raises(ChannelFull):
        await layer.send("watcher.channel", {"type": "a"}) or await layer.send(
            "watcher.channel", {"type": "b"}
        )
