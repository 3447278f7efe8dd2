"""Sockets when the Redis channel layer fails (Redis restarted, flushed, unreachable).

A restarted Redis without persistence has lost every group: a socket that
survived the restart would still be open but deaf (nothing sent to its room's
group reaches it), and a socket whose layer call failed would crash with a
traceback (Daphne closes it with 1011). Neither is acceptable, so:

* a consumer whose channel-layer call fails (``LAYER_ERRORS``) closes its socket
  with 4012 ("reconnect": the page reconnects with its backoff; RFC 6455's 1012
  is not a code a server may send through Daphne) instead of crashing, and frees
  its seat through the usual service;
* and every other socket of the process is closed the same way, because their
  group memberships may be gone too (``reconnect_everyone``), unless the error
  was this process's own pool running out (``LOCAL_ERRORS``, a burst of
  connects): then only that socket goes;
* the process's heartbeat (``domino_site.realtime.liveness``) notices a Redis
  that lost its keys without any call failing (a restart between two reads, a flush):
  its own key was missing when it beat again, and it calls
  ``reconnect_everyone`` as well (``liveness.on_redis_lost``).

Reconnecting re-runs everything a socket needs (group, seat, snapshot), so the
table goes on with the state the database holds.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from domino_site import metrics
from domino_site.realtime import liveness

log = logging.getLogger(__name__)

CLOSE_RECONNECT = 4012  # come back (the page reconnects on any code but 4001/4003/4004)
#: The server is restarting (a deploy): come back at once, the proxy gives another
#: process (`come_back_elsewhere`; docs/protocol.md, "Close codes").
CLOSE_RESTARTING = 4013

try:  # the Redis layer's errors (redis-py is there whenever channels-redis is)
    from redis.exceptions import ConnectionError as _RedisConnectionError
    from redis.exceptions import MaxConnectionsError as _PoolExhausted
    from redis.exceptions import TimeoutError as _RedisTimeoutError

    LAYER_ERRORS: tuple[type[BaseException], ...] = (_RedisConnectionError, _RedisTimeoutError)
    #: This process's own pool ran out (a burst): Redis and its groups are fine.
    LOCAL_ERRORS: tuple[type[BaseException], ...] = (_PoolExhausted,)
except ImportError:  # pragma: no cover - the in-memory layer does not fail this way
    LAYER_ERRORS = LOCAL_ERRORS = ()

try:  # Daphne's WebSocket protocol (autobahn) after the client's close frame
    from autobahn.exception import Disconnected as _Disconnected

    SOCKET_CLOSING: tuple[type[BaseException], ...] = (_Disconnected,)
except ImportError:  # pragma: no cover - another server
    SOCKET_CLOSING = ()

#: The open sockets of this process (table and lobby consumers).
_live: weakref.WeakSet[Any] = weakref.WeakSet()


def track(consumer: Any) -> None:
    _live.add(consumer)


def untrack(consumer: Any) -> None:
    _live.discard(consumer)


def live_sockets() -> int:
    return len(_live)


async def reconnect_everyone(reason: str) -> int:
    """Close every open socket of this process with 4012 so that each comes back
    (and joins its groups again); returns how many were told."""
    told = 0
    for consumer in list(_live):
        if getattr(consumer, "closing_for_layer", False):
            continue
        consumer.closing_for_layer = True
        untrack(consumer)
        try:
            await consumer.close(code=CLOSE_RECONNECT)
            told += 1
        except Exception:  # noqa: BLE001 - already gone: nothing to tell
            pass
    if told:
        log.warning("channel layer %s: %d sockets asked to reconnect", reason, told)
    return told


async def come_back_elsewhere() -> int:
    """A deploy stops this process (domino_site/infra/daphne.py): close every open
    socket with 4013 ("server restarting, reconnect now"), each once the message
    it is handling is handled (a move in hand is applied and answered first;
    `LayerGuard.dispatch`). The frames a client sent before it got the close
    still reach its consumer, before its disconnect, and are applied: nothing
    it sent is lost. Returns how many were told."""
    consumers = [
        c for c in list(_live) if not c.closing_for_layer and not getattr(c, "restarting", False)
    ]
    for consumer in consumers:
        consumer.restarting = True
    told = await asyncio.gather(*(_come_back(consumer) for consumer in consumers))
    return sum(told)


async def _come_back(consumer: Any) -> int:
    if getattr(consumer, "waiting_for_slot", False):
        # Accepted, its connect queued behind a reconnect storm, nothing bound
        # yet: closed at once (the connect then binds nothing, see
        # rooms.consumers.TableConsumer.connect).
        return await _close_restarting(consumer)
    async with consumer.in_hand():
        return await _close_restarting(consumer)


async def _close_restarting(consumer: Any) -> int:
    untrack(consumer)
    try:
        await consumer.close(code=CLOSE_RESTARTING)
    except Exception:  # noqa: BLE001 - already gone: nothing to tell
        return 0
    return 1


class LayerGuard:
    """Mixin for the consumers (before ``AsyncJsonWebsocketConsumer``): a failing
    channel layer closes the socket with 4012 instead of crashing the consumer,
    runs ``layer_failed()`` (the consumer's own clean-up, e.g. its seat) and asks
    every other socket of the process to reconnect. What it sends while the
    client is closing the socket is dropped (`unless_closing`).

    Each message (a frame from the client, a change from the channel layer) is
    handled under the consumer's `in_hand` lock, which a deploy's
    `come_back_elsewhere` takes before closing the socket: it closes between
    two messages, never in the middle of one. It comes first among the bases
    (``class C(LayerGuard, NoDatabaseInTheLoop, ...)``): `NoDatabaseInTheLoop`'s
    ``dispatch`` does not call the next one (tests/realtime/test_layer_failures.py
    holds the order)."""

    closing_for_layer = False
    #: The ``kind`` label of ``domino_sockets_open`` (table, lobby, arena, quick, people).
    socket_kind = "other"
    restarting = False
    _in_hand: asyncio.Lock | None = None

    def in_hand(self) -> asyncio.Lock:
        """The lock held while a message is handled."""
        if self._in_hand is None:
            self._in_hand = asyncio.Lock()
        return self._in_hand

    async def dispatch(self, message: dict) -> None:
        async with self.in_hand():
            # A mixin: the consumer class after it in the MRO has ``dispatch``.
            await super().dispatch(message)  # type: ignore[misc]

    async def __call__(self, scope, receive, send):
        kind = self.socket_kind
        metrics.socket_opened(kind)  # from the handshake to the end of the connection
        try:
            return await self._guarded(scope, receive, send)
        finally:
            metrics.socket_closed(kind)

    async def _guarded(self, scope, receive, send):
        try:
            # A mixin: the consumer class after it in the MRO has ``__call__``.
            return await super().__call__(scope, receive, unless_closing(send))  # type: ignore[misc]
        except LAYER_ERRORS as exc:
            first = not self.closing_for_layer
            self.closing_for_layer = True
            untrack(self)
            if first:
                log.warning("channel layer failed (%s: %s): socket closed", type(exc).__name__, exc)
            try:
                await send({"type": "websocket.close", "code": CLOSE_RECONNECT})
            except Exception:  # noqa: BLE001 - the client is gone already
                pass
            try:
                await self.layer_failed()
            except Exception:  # noqa: BLE001 - the sweeper repairs what is left
                log.warning("clean-up after a channel-layer failure failed", exc_info=True)
            if isinstance(exc, LOCAL_ERRORS):
                return  # only this socket: the others and their groups are fine
            liveness.heartbeat.layer_failed()  # the key it may find gone: this failure
            await reconnect_everyone("failed")

    async def layer_failed(self) -> None:
        """What this socket leaves behind when the layer fails (nothing by default)."""


def unless_closing(send: Any) -> Any:
    """The ASGI ``send`` of a socket, dropping what is sent while the client is
    closing it. Between the client's close frame and the end of the connection
    Daphne still passes sends on, and autobahn raises ``Disconnected``: a
    frame for the table arriving then would end the consumer with that error,
    before it handled its ``websocket.disconnect`` (its seat would stay
    "connected"). Dropped instead, the disconnect comes next as usual."""

    async def send_unless_closing(message: dict) -> None:
        try:
            await send(message)
        except SOCKET_CLOSING:
            metrics.frames_dropped("socket_closing")
            log.debug("a %s to a closing socket was dropped", message.get("type"))

    return send_unless_closing


async def _on_redis_lost() -> None:
    await reconnect_everyone("lost its keys (Redis restarted or flushed)")


liveness.on_redis_lost.append(_on_redis_lost)
