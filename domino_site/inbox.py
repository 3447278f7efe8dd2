"""Receiving on the Redis channel layer: one reader a process, and a process'
own sockets' messages without Redis.

channels-redis receives a message in three round trips (a clean-up script,
a blocking pop, the backup copy) plus a fourth to drop the copy, inside
whichever socket's receive happens to hold the process' lock, with two tasks
and an ``asyncio.wait`` per message. Here one task a process
(`ProcessInbox._read_inbox`) moves the process' inbox into its sockets'
queues, up to a hundred messages a ``BZMPOP``. It belongs to no socket, so
no receive being cancelled (a socket closing) can lose a popped message, and
no backup copy is needed: a process that dies loses its inbox either way.

A message for one of the process' own sockets, sent from the loop the sockets
receive on, goes straight into that socket's queue (`ProcessInbox._deliver_here`);
with two Daphnes that is half of a table's frames. Every message from one
sender to one socket takes one path, so it keeps its order.

Channels that are not a socket's (``/healthz``'s, tests' plain names) and
layers with several Redis hosts receive as channels-redis does.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from redis.exceptions import ResponseError

from domino_site.ablation import off

if TYPE_CHECKING:
    from channels_redis.core import RedisChannelLayer as _Layer
else:
    _Layer = object

log = logging.getLogger(__name__)


class ProcessInbox(_Layer):
    """Mixin (before channels-redis' class) for the receiving side; call
    `inbox_init` after the layer's own ``__init__``."""

    POP_AT_ONCE = 100
    _bzmpop = True  # Redis 7 and later; before it, one message a BZPOPMIN

    def inbox_init(self) -> None:
        self._reader: asyncio.Task | None = None  # `_read_inbox`, on the sockets' loop
        self._read_at: dict[str, float] = {}  # when each local channel was last read
        self._swept_at = time.monotonic()
        # The non-local part of this process' sockets' channels: their shared inbox.
        self._own_inbox = f"specific.{self.client_prefix}!"

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message of ``channel``. A process-local channel (one of this
        process' sockets) reads its queue, which the process' one `_read_inbox`
        task fills from Redis, many messages a round trip; messages this process
        sends to its own sockets are put there directly (`_deliver_here`)."""
        if (
            off("inbox_reader")
            or self.ring_size != 1
            or "!" not in channel
            or not channel.startswith(self._own_inbox)
        ):
            return await super().receive(channel)  # e.g. /healthz's own channel
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        self._start_reader()
        queue = self.receive_buffer[channel]
        self._read_at[channel] = time.monotonic()
        try:
            item = await queue.get()
        finally:
            if queue.empty() and not getattr(queue, "_getters", True):
                self.receive_buffer.pop(channel, None)
        if isinstance(item, _Failed):
            raise item.error
        return item

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
        (the sockets close with 4012 and come back, rooms.socket_guard)."""
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
        if self._bzmpop:
            try:
                popped = await connection.bzmpop(
                    self.brpop_timeout, 1, [key], min=True, count=self.POP_AT_ONCE
                )
            except ResponseError as exc:
                if "unknown command" not in str(exc).lower():
                    raise
                self._bzmpop = False
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
        queue.put_nowait(message)  # a BoundedQueue: a full one drops its oldest

    def _anyone_waiting(self) -> bool:
        return any(getattr(q, "_getters", None) for q in self.receive_buffer.values())

    def _fail_waiting(self, error: BaseException) -> None:
        for queue in list(self.receive_buffer.values()):
            if getattr(queue, "_getters", None):
                queue.put_nowait(_Failed(error))

    def _forget_idle_queues(self) -> None:
        """Drop the queues of sockets that closed with messages still coming
        (nobody has read them for the layer's expiry)."""
        self._swept_at = time.monotonic()
        stale = self._swept_at - self.expiry
        for channel, read_at in list(self._read_at.items()):
            queue = self.receive_buffer.get(channel)
            if queue is not None and getattr(queue, "_getters", None):
                continue
            if read_at < stale:
                del self._read_at[channel]
                self.receive_buffer.pop(channel, None)

    def _deliver_here(self, channel: str, message: dict[str, Any]) -> bool | None:
        """Put a message for one of this process' own sockets in its queue,
        without Redis: True, False if its queue is full (the message is dropped,
        as a full inbox drops it), None when it must go through Redis (another
        process' channel, or a sender outside the loop the sockets receive on)."""
        reader = self._reader
        if (
            reader is None
            or off("local_delivery")
            or not channel.startswith(self._own_inbox)
            or reader.get_loop() is not _running_loop()
        ):
            return None
        queue = self.receive_buffer[channel]
        if queue.qsize() >= self.get_capacity(channel):
            return False
        self._put(channel, dict(message))
        return True


class _Failed:
    """Put in the queue of a waiting receive when the process' reader failed."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
