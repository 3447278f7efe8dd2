"""What the site uses of channels-redis beyond its documented settings: a
faster channel layer on the same storage, and which process a socket is on.

The layer (`RedisChannelLayer`). channels-redis' own class makes four round
trips to Redis for one ``send`` (drop expired messages, count them against
the capacity, add, set the expiry) and as many for a ``group_send``, and it
receives a message in three more (a clean-up script, a blocking pop, the
backup copy, then dropping it), inside whichever socket's receive holds the
process' lock. Here a ``send`` is one script call, a change's messages one
pipeline after listing the groups' members, and one task a process
(`ProcessInbox`) moves the process' inbox into its sockets' queues, up to a
hundred messages a ``BZMPOP``. The messages, keys, expiries, capacities and
groups are channels-redis' own: either class reads what the other sends.
With more than one Redis host the group sends and receives are channels-redis'
own.

The process of a socket (`domino_site.realtime.liveness`: a process that died never
closes its sockets) comes from the channel name's layout.

It uses, all undocumented:

* the storage layout: a channel's inbox is a sorted set of serialised
  messages scored by time at ``prefix + name``; a process' sockets'
  channels are ``specific.<client_prefix>!<random>`` and share the inbox
  ``specific.<client_prefix>!``, each message carrying its channel in
  ``__asgi_channel__``; a group is a sorted set of its channels at
  `_group_key` (the `_SEND` and `_GROUP_SEND` scripts write the same layout);
* ``RedisChannelLayer.client_prefix``, ``ring_size``, ``prefix``,
  ``brpop_timeout``, ``receive_buffer`` (the per-channel queues its
  ``receive`` reads), ``connection(index)``, ``consistent_hash``,
  ``non_local_name``, ``get_capacity``, ``serialize``/``deserialize``;
* ``RedisChannelLayer._group_key`` (a group's key),
  ``_send_index_generator`` (the host a plain channel's message goes to)
  and ``_map_channel_keys_to_connection`` (the inboxes, messages and
  capacities of a group's channels);
* ``channels_redis.utils.decode_hosts``, how the ``hosts`` setting becomes
  connection arguments (`first_host`): an undocumented module.

tests/infra/test_channels_redis.py (without a server) and
tests/infra/test_channels_redis_layer.py and tests/infra/test_channels_redis_inbox.py
(with Redis) fail when any of these changes.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Sequence
from typing import Any

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer as StockRedisChannelLayer
from redis.exceptions import ResponseError

from domino_site.infra.layer_messages import recipients
from domino_site.infra.versions import require
from domino_site.metrics import frames_dropped

VERSION = require("channels-redis", ("4.3",), module=__name__)

log = logging.getLogger(__name__)


# ------------------------------------------------------------------ which process
def process_of(channel_name: str) -> str | None:
    """The process part (the layer's ``client_prefix``) of a socket's channel
    name ``specific.<client_prefix>!<random>``, or None for another name.

        >>> process_of("specific.3f2a…!b81c…")
        '3f2a…'
    """
    head, bang, _ = (channel_name or "").partition("!")
    if not bang:
        return None
    return head.rpartition(".")[2] or None


def process_prefix(layer: Any) -> str | None:
    """This process' part of its sockets' channel names, or None when the layer
    is not channels-redis' `RedisChannelLayer` (or a subclass)."""
    prefix = getattr(layer, "client_prefix", None)
    return prefix if isinstance(prefix, str) and prefix else None


def layer_client(layer: Any) -> Any:
    """The layer's own asyncio Redis client of its first host."""
    return layer.connection(0)


def first_host(config: dict[str, Any]) -> dict[str, Any]:
    """The connection arguments of the first of a layer ``CONFIG``'s ``hosts``."""
    from channels_redis.utils import decode_hosts

    return dict(decode_hosts(config.get("hosts"))[0])


# ------------------------------------------------------------------ sending

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


# ------------------------------------------------------------------ receiving


class ProcessInbox(StockRedisChannelLayer):
    """The receiving side: one reader a process (`_read_inbox`); call
    `inbox_init` after the layer's own ``__init__``."""

    POP_AT_ONCE = 100
    use_bzmpop = True  # Redis 7 and later; before it, one message a BZPOPMIN

    def inbox_init(self) -> None:
        self._reader: asyncio.Task | None = None  # `_read_inbox`, on the sockets' loop
        self._read_at: dict[str, float] = {}  # when each local channel was last read
        # The receives waiting on each local channel's queue: while there are
        # any the reader goes on, and a failure reaches them.
        self._waiting: collections.Counter[str] = collections.Counter()
        self._swept_at = time.monotonic()
        # The non-local part of this process' sockets' channels: their shared inbox.
        self._own_inbox = f"specific.{self.client_prefix}!"

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message of ``channel``. A process-local channel (one of this
        process' sockets) reads its queue, which the process' one `_read_inbox`
        task fills from Redis, many messages a round trip."""
        if self.ring_size != 1 or "!" not in channel or not channel.startswith(self._own_inbox):
            return await super().receive(channel)  # e.g. /healthz's own channel
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        self._start_reader()
        queue = self.receive_buffer[channel]
        self._read_at[channel] = time.monotonic()
        self._waiting[channel] += 1
        try:
            item = await queue.get()
        finally:
            self._waiting[channel] -= 1
            if not self._waiting[channel]:
                del self._waiting[channel]
                if queue.empty():
                    self.receive_buffer.pop(channel, None)
        if isinstance(item, _Failed):
            raise item.error
        return item

    def receiving(self, channel: str) -> bool:
        """Whether a receive of this process waits on ``channel`` now."""
        return channel in self._waiting

    def _start_reader(self) -> None:
        loop = asyncio.get_running_loop()
        reader = self._reader
        if reader is not None and not reader.done() and reader.get_loop() is loop:
            return
        self._reader = loop.create_task(self._read_inbox())

    async def _read_inbox(self) -> None:
        """Move this process' inbox into its sockets' queues until nobody has
        been waiting for a whole blocking pop. One ``BZMPOP`` takes everything
        waiting (up to `POP_AT_ONCE`), or waits for the next message. Nothing is
        cancelled here when a socket closes (the task belongs to no socket), so
        a popped message needs no backup copy: it is in its queue the moment the
        answer is read. If Redis fails, every waiting receive raises the error
        (the sockets close with 4012 and come back, domino_site.realtime.socket_guard)."""
        key = self.prefix + self._own_inbox
        connection = self.connection(0)
        while True:
            try:
                popped = await self._pop(connection, key)
            except Exception as exc:  # noqa: BLE001 - handed to every waiting receive
                self._reader = None
                self._fail_waiting(exc)
                return
            if not popped:
                self._forget_idle_queues()
                if not self._anyone_waiting():
                    return
                continue
            for member in popped:
                self._put_popped(member)
            if time.monotonic() - self._swept_at > self.expiry / 4:
                self._forget_idle_queues()

    async def _pop(self, connection: Any, key: str) -> list[bytes]:
        """The messages waiting in ``key`` (up to `POP_AT_ONCE`), or the next
        one to arrive within the blocking pop; none after it."""
        if self.use_bzmpop:
            try:
                popped = await connection.bzmpop(
                    self.brpop_timeout, 1, [key], min=True, count=self.POP_AT_ONCE
                )
            except ResponseError as exc:
                if "unknown command" not in str(exc).lower():
                    raise
                self.use_bzmpop = False
                log.info("channel layer: Redis before 7 (no BZMPOP): one message a pop")
            else:
                return [member for member, _score in popped[1]] if popped else []
        popped = await connection.bzpopmin(key, timeout=self.brpop_timeout)
        return [popped[1]] if popped else []

    def _put_popped(self, member: bytes) -> None:
        try:
            message = self.deserialize(member)
            to = message.pop("__asgi_channel__")
        except Exception:  # noqa: BLE001 - one bad message must not stop the process' reader
            log.exception("channel layer: a message in this process' inbox could not be read")
            return
        if isinstance(to, list):  # channels-redis' own group_send: one message, many sockets
            for channel in to:
                self._put(channel, dict(message))
        else:
            self._put(to, message)

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        queue = self.receive_buffer[channel]
        self._read_at.setdefault(channel, time.monotonic())
        if queue.full():
            frames_dropped("socket_queue_full")
        queue.put_nowait(message)  # a BoundedQueue: a full one drops its oldest

    def _anyone_waiting(self) -> bool:
        return bool(self._waiting)

    def _fail_waiting(self, error: BaseException) -> None:
        for channel, waiting in list(self._waiting.items()):
            for _ in range(waiting):
                self.receive_buffer[channel].put_nowait(_Failed(error))

    def _forget_idle_queues(self) -> None:
        """Drop the queues of sockets that closed with messages still coming
        (nobody has read them for the layer's expiry)."""
        self._swept_at = time.monotonic()
        stale = self._swept_at - self.expiry
        for channel, read_at in list(self._read_at.items()):
            if channel in self._waiting:
                continue
            if read_at < stale:
                del self._read_at[channel]
                self.receive_buffer.pop(channel, None)


class _Failed:
    """Put in the queue of a waiting receive when the process' reader failed."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


# ------------------------------------------------------------------ the layer


class RedisChannelLayer(ProcessInbox):
    """channels-redis' layer; ``send``, ``group_send`` and ``receive`` in fewer
    round trips (receiving: `ProcessInbox`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inbox_init()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        index, call = self._send_call(channel, message, time.time())
        if await self.connection(index).eval(*call):
            frames_dropped("inbox_full")
            raise ChannelFull()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.ring_size != 1:
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
        if self.ring_size != 1:
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
                frames_dropped("inbox_full", int(full))
                log.info("channel layer: %s inbox(es) full for %s", full, target)

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
