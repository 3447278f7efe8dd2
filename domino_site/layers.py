"""The channel layers, each with what its stock class spends too much on.

* `InMemoryChannelLayer` (the embedded server): channels' class walks every
  channel and every group looking for expired messages on each ``receive``
  and each ``group_send``. With 400 sockets that walk was a sixth of the
  embedded server's time under load (py-spy, bench/load.py at 100 tables),
  and it grows with the square of the sockets. Expiry is a safety net (a
  message nobody read for 60 s), so once a second is plenty.
* `RedisChannelLayer` (``REDIS_URL`` set): channels-redis' class makes four
  round trips to Redis for one ``send``: drop expired messages, count them
  against the capacity, add, set the expiry. A ``group_send`` also takes
  four: drop expired members, list them, drop each inbox's expired messages,
  then a script that adds. On this machine a round trip costs about as much
  CPU as building a small frame, and a move makes two sends and a group send.
  This class does the same work in one script call for a ``send`` and in two
  round trips for a ``group_send`` (the members listed in a pipeline, then
  one script). Receiving is `domino_site.inbox`: one task a process reads
  its inbox, many messages a round trip, and a frame for one of the process'
  own sockets skips Redis. At 250 tables on two Daphnes (bench/load.py) that
  took the servers from 90-95% to about 70-85% of a core. The messages, keys,
  expiries, capacities and groups are channels-redis' own (either layer
  reads what the other sends).
  `RedisChannelLayer.send_in_order` hands a whole change over (each seat's
  frame, then the group's) in one pipeline, in order. With more than one
  Redis host the group sends and receives fall back to channels-redis' own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer
from channels_redis.core import RedisChannelLayer as StockRedisChannelLayer

from domino_site.ablation import off
from domino_site.inbox import ProcessInbox

log = logging.getLogger(__name__)


def recipients(how: str, members: list[str], told: set[str]) -> list[str]:
    """Who of a group's ``members`` a ``"group"`` message goes to (all of them) or
    a ``"group_others"`` one (those not ``told`` already in the same change)."""
    return members if how == "group" else [m for m in members if m not in told]


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    """`channels.layers.InMemoryChannelLayer`, cleaning expired messages and
    group memberships at most once every ``clean_every`` seconds, with
    `send_in_order` as the Redis layer has it."""

    clean_every = 1.0
    _cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < self.clean_every:
            return
        self._cleaned_at = now
        super()._clean_expired()

    async def send_in_order(self, messages: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
        """As `RedisChannelLayer.send_in_order`: each message in this order, a
        ``"group_others"`` one to the group's members that got none before it."""
        self._clean_expired()
        told: set[str] = set()
        for how, target, message in messages:
            if how == "send":
                channels = [target]
            else:
                assert self.require_valid_group_name(target), "Group name not valid"
                channels = recipients(how, list(self.groups.get(target, {})), told)
            for channel in channels:
                try:
                    await self.send(channel, message)
                except ChannelFull:
                    log.info("channel layer: the inbox of %s is full", channel)
                told.add(channel)


# KEYS[1]: the inbox. ARGV: message, now, expired-before, capacity, expiry.
_SEND = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[3])
if redis.call('ZCOUNT', KEYS[1], '-inf', '+inf') >= tonumber(ARGV[4]) then
    return 1
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 0
"""

# KEYS: the inboxes. ARGV: one message per inbox, one capacity per inbox, then
# now, expired-before, expiry. Returns how many inboxes were full.
_GROUP_SEND = """
local n = #KEYS
local now, expired, expiry = ARGV[2 * n + 1], ARGV[2 * n + 2], ARGV[2 * n + 3]
local full = 0
for i = 1, n do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, expired)
    if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""


class RedisChannelLayer(ProcessInbox, StockRedisChannelLayer):
    """channels-redis' layer; ``send``, ``group_send`` and ``receive`` in fewer
    round trips (receiving: `domino_site.inbox.ProcessInbox`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inbox_init()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        here = self._deliver_here(channel, message)
        if here is not None:
            if not here:
                raise ChannelFull()
            return
        if off("lua_send"):
            await StockRedisChannelLayer.send(self, channel, message)
            return
        index, call = self._send_call(channel, message, time.time())
        if await self.connection(index).eval(*call):
            raise ChannelFull()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.ring_size != 1 or off("lua_send"):
            await super().group_send(group, message)
            return
        await self.send_in_order([("group", group, message)])

    async def send_in_order(self, messages: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
        """Each ``("send", channel, message)``, ``("group", group, message)`` and
        ``("group_others", group, message)`` (to the group's members that no
        message before it went to) in this order, in two round trips (the
        groups' members, then every message in one pipeline: Redis runs them in
        order), or one when there is no group. A full inbox drops its message,
        as a full member of a group does. (With more than one Redis host,
        ``"group_others"`` goes to the whole group.)"""
        if self.ring_size != 1 or off("lua_send"):
            for how, target, message in messages:
                if how == "send":
                    await self.send(target, message)
                else:
                    await super().group_send(target, message)
            return
        connection = self.connection(0)
        now = time.time()
        groups = list(dict.fromkeys(target for how, target, _ in messages if how != "send"))
        members: dict[str, list[str]] = {}
        if groups:
            pipe = connection.pipeline(transaction=False)
            for group in groups:
                assert self.require_valid_group_name(group), "Group name not valid"
                key = self._group_key(group)
                pipe.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
                pipe.zrange(key, 0, -1)
            listed = await pipe.execute()
            for i, group in enumerate(groups):
                members[group] = [m.decode("utf8") for m in listed[2 * i + 1]]
        pipe = connection.pipeline(transaction=False)
        told: list[str] = []
        channels_told: set[str] = set()
        for how, target, message in messages:
            # An inbox is a sorted set by time: each message a later score than
            # the one before it, or two with the same score would come in the
            # order of their random prefixes.
            at = now + len(told) * 1e-5
            to = [target] if how == "send" else recipients(how, members[target], channels_told)
            channels_told.update(to)
            to = self._the_others(to, message, target)
            if not to:
                continue
            if how == "send":
                pipe.eval(*self._send_call(target, message, at)[1])
            else:
                pipe.eval(*self._group_call(to, message, at))
            told.append(target)
        if not told:
            return
        for target, full in zip(told, await pipe.execute(), strict=True):
            if full:
                log.info("channel layer: %s inbox(es) full for %s", full, target)

    def _the_others(self, to: list[str], message: dict[str, Any], target: str) -> list[str]:
        """Deliver ``message`` to those of ``to`` that are this process' own sockets;
        the channels left, for Redis."""
        left = []
        for channel in to:
            here = self._deliver_here(channel, message)
            if here is None:
                left.append(channel)
            elif not here:
                log.info("channel layer: the queue of %s is full for %s", channel, target)
        return left

    def _send_call(
        self, channel: str, message: dict[str, Any], now: float
    ) -> tuple[int, tuple[Any, ...]]:
        """The connection index and the `_SEND` call of one message."""
        assert isinstance(message, dict), "message is not a dict"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        assert "__asgi_channel__" not in message
        inbox = channel
        if "!" in channel:  # a process-local channel: its process's inbox
            message = {**message, "__asgi_channel__": channel}
            inbox = self.non_local_name(channel)
            index = self.consistent_hash(channel)
        else:
            index = next(self._send_index_generator)
        expired = int(now) - int(self.expiry)
        capacity = self.get_capacity(channel)
        message_bytes = self.serialize(message)
        key = self.prefix + inbox
        return index, (_SEND, 1, key, message_bytes, now, expired, capacity, int(self.expiry))

    def _group_call(
        self, members: list[str], message: dict[str, Any], now: float
    ) -> tuple[Any, ...]:
        """The `_GROUP_SEND` call of one message to ``members`` (one Redis host)."""
        by_connection, messages, capacities = self._map_channel_keys_to_connection(members, message)
        inboxes = by_connection[0]
        return (
            _GROUP_SEND,
            len(inboxes),
            *inboxes,
            *[messages[inbox] for inbox in inboxes],
            *[capacities[inbox] for inbox in inboxes],
            now,
            int(now) - int(self.expiry),
            int(self.expiry),
        )
