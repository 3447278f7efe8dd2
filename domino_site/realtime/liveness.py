"""Which server processes are alive, for the Redis channel layer (several Daphnes).

A Daphne process that dies (killed, crashed, its host gone) never closes its
sockets, so the seats bound to them would stay ``connected`` for ever and no
pause, automatic move or takeover would ever happen for them. With the
in-memory layer there is only one process, which repairs its seats at start-up
(``timers.ticker``); with the Redis layer the other processes must notice.

* Every process that holds sockets beats: ``SET domino:alive:<prefix> 1 PX
  <ttl>`` every ``DOMINO_ALIVE_BEAT_SECONDS`` (default a third of the TTL), where
  ``<prefix>`` is its channel layer's ``client_prefix`` (channels-redis names a
  socket's channel ``specific.<client_prefix>!<random>``). One small command per
  process per beat, on the layer's own connection pool: nothing per seat, nothing
  per ping. ``start_heartbeat()`` is awaited by the ASGI wrapper on every
  connection (the first one starts it and waits for the first beat).
* The sweeper (``rooms.services.rooms_sweep``) asks ``dead_processes()`` about
  the processes its connected seats belong to: a process whose key is gone has
  not beaten for ``DOMINO_ALIVE_TTL_SECONDS``. Liveness is judged by Redis' own
  clock (the key's expiry), never by the service clock that tests move.
* Redis that lost its keys (restarted, flushed) must not be read as "every
  process died": nobody is judged while Redis has been up for less than a TTL,
  nor less than a TTL after a permanent marker (``domino:alive:epoch``, the Redis
  time the sweeper first found it missing) was set; by then every live process
  has beaten again. When Redis does not answer, nobody is judged dead either.
* A process whose beat finds its own key gone (Redis restarted or flushed, or
  the process stalled for a TTL) calls the ``on_redis_lost`` hooks: its sockets'
  groups may be gone too, so ``domino_site.realtime.socket_guard`` asks them
  to reconnect.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from django.conf import settings

from domino_site.infra import channels_redis

log = logging.getLogger(__name__)

KEY = "domino:alive:{}"
EPOCH_KEY = "domino:alive:epoch"


def who() -> str:
    """The value of a process' key: its host and pid (the admin's health page shows them)."""
    return f"{socket.gethostname()} {os.getpid()}"


DEFAULT_TTL_SECONDS = 90.0
# The first beat holds the first connection back at most this long.
FIRST_BEAT_WAIT_SECONDS = 3.0


def ttl_seconds() -> float:
    return float(getattr(settings, "DOMINO_ALIVE_TTL_SECONDS", DEFAULT_TTL_SECONDS))


def beat_seconds() -> float:
    """A third of the TTL unless set; never more than half of it (a key must not
    expire between two beats of a live process)."""
    ttl = ttl_seconds()
    beat = getattr(settings, "DOMINO_ALIVE_BEAT_SECONDS", None)
    return min(float(beat), ttl / 2) if beat else ttl / 3


#: The Redis channel layers: channels-redis' own and the site's (domino_site.infra.channels_redis).
REDIS_LAYERS = (
    "channels_redis.core.RedisChannelLayer",
    "domino_site.infra.channels_redis.RedisChannelLayer",
)


def enabled() -> bool:
    """Only the Redis channel layer has other processes to watch (a TTL of 0 turns
    the rule off)."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    return backend in REDIS_LAYERS and ttl_seconds() > 0


def process_of(channel_name: str) -> str | None:
    """The process a socket's channel name belongs to (its layer's
    ``client_prefix``), or None for a name that is not a process' socket's."""
    return channels_redis.process_of(channel_name)


# ------------------------------------------------------------------ the sweeper side

_client: tuple[int, str, Any] | None = None  # (pid, its settings, redis.Redis)


def heartbeat_host() -> dict[str, Any]:
    """The channel layer's first host (its settings), where the heartbeats go."""
    config: Any = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    return channels_redis.first_host(config)


def heartbeat_client():
    """One synchronous client (and pool) per process, on the layer's first host
    (where the heartbeats go); made again after a fork (Celery's pool) or when the
    settings point elsewhere (tests)."""
    global _client
    import redis

    host = heartbeat_host()
    if "master_name" in host:
        raise RuntimeError("liveness does not support Redis Sentinel hosts")
    address = host.pop("address", None)
    host.pop("max_connections", None)  # a sweeper needs one or two
    host.update(socket_timeout=3, socket_connect_timeout=3)
    key = repr((address, sorted(host.items())))
    if _client is None or _client[0] != os.getpid() or _client[1] != key:
        client = redis.Redis.from_url(address, **host) if address else redis.Redis(**host)
        _client = (os.getpid(), key, client)
    return _client[2]


def dead_processes(prefixes: Iterable[str]) -> set[str]:
    """Those of ``prefixes`` whose process has not beaten for a TTL. Empty when
    Redis cannot tell (it does not answer, or it lost its keys less than a TTL
    ago)."""
    prefixes = sorted(set(prefixes))
    if not prefixes:
        return set()
    try:
        client = heartbeat_client()
        pipe = client.pipeline(transaction=False)
        pipe.time()
        pipe.info("server")
        pipe.get(EPOCH_KEY)
        pipe.mget([KEY.format(p) for p in prefixes])
        (seconds, micros), server, epoch, beats = pipe.execute()
        redis_now = seconds + micros / 1_000_000
        if epoch is None:  # a new (or emptied) Redis: wait a TTL for the beats
            client.set(EPOCH_KEY, repr(redis_now), nx=True)
            return set()
        ttl = ttl_seconds()
        # Restarted less than a TTL ago (even with persistence, whose snapshot
        # holds keys that expired meanwhile), or emptied less than a TTL ago.
        if int(server.get("uptime_in_seconds", ttl)) < ttl or redis_now - float(epoch) < ttl:
            return set()
    except Exception:  # noqa: BLE001 - no answer, no verdict; the next sweep asks again
        log.warning("could not ask Redis which server processes are alive", exc_info=True)
        return set()
    return {prefix for prefix, beat in zip(prefixes, beats, strict=True) if beat is None}


# ------------------------------------------------------------------ the server side


#: Coroutine functions called when a beat finds this process's own key gone
#: although an earlier beat set it: Redis lost its keys (restarted without
#: persistence, flushed) or the process stalled for a TTL. The groups of its
#: sockets may be gone with them (domino_site.realtime.socket_guard closes the
#: sockets so that they reconnect and join again).
on_redis_lost: list[Callable[[], Awaitable[None]]] = []


async def beat() -> str | None:
    """Say once that this process is alive; returns the prefix it beat for."""
    prefix, _had_key = await _beat()
    return prefix


async def _beat() -> tuple[str | None, bool]:
    """``(prefix, whether the key was still there)``; one ``SET ... GET``."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    prefix = channels_redis.process_prefix(layer)
    if prefix is None:
        return None, False
    ttl_ms = max(1, int(ttl_seconds() * 1000))
    client = channels_redis.layer_client(layer)
    previous = await client.set(KEY.format(prefix), who(), px=ttl_ms, get=True)
    return prefix, previous is not None


class Heartbeat:
    """An asyncio task on the server's event loop (one per loop: each test has its
    own) that calls ``beat()`` every ``beat_seconds()``."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task | None = None
        self._first: asyncio.Task | None = None
        self.beats = 0  # how many beats succeeded (tests look at it)
        self.losses = 0  # beats that found the key gone (Redis lost its keys)
        self._explained = False

    @property
    def started(self) -> bool:
        return self._task is not None and not self._task.done()

    def ensure_started(self) -> None:
        loop = asyncio.get_running_loop()
        if self.started and self._loop is loop:
            return
        self._loop = loop
        self._first = loop.create_task(self._beat(), name="domino-heartbeat-first")
        self._task = loop.create_task(self._run(), name="domino-heartbeat")

    async def ready(self) -> None:
        """Wait (briefly) for the first beat, so that no seat is bound to this
        process before Redis has heard of it."""
        first = self._first
        if first is None or first.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(first), FIRST_BEAT_WAIT_SECONDS)
        except TimeoutError:
            log.warning("the first heartbeat is late; serving anyway")

    def layer_failed(self) -> None:
        """A call to Redis failed and the sockets were already asked to reconnect:
        the next beat finding the key gone is that same failure, not news."""
        self._explained = True

    async def stop(self) -> None:
        tasks = [t for t in (self._first, self._task) if t is not None]
        self._first = self._task = None
        self._loop = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopping
                pass

    async def _beat(self) -> bool:
        try:
            prefix, had_key = await _beat()
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the next beat tries again
            log.warning("heartbeat failed", exc_info=True)
            return False
        if prefix is None:
            return False
        lost = self.beats > 0 and not had_key and not self._explained
        self._explained = False
        self.beats += 1
        if lost:
            self.losses += 1
            for hook in list(on_redis_lost):
                try:
                    await hook()
                except Exception:  # noqa: BLE001 - one hook must not stop the beat
                    log.exception("on_redis_lost hook %r failed", hook)
        return True

    async def _run(self) -> None:
        if self._first is not None:
            await asyncio.shield(self._first)
        while True:
            every = beat_seconds()
            await asyncio.sleep(every)
            if not await self._beat():
                # Retry sooner than a full period, while the key may still live.
                await asyncio.sleep(min(every, 1.0))
                await self._beat()


#: The one heartbeat of this process.
heartbeat = Heartbeat()


async def start_heartbeat() -> None:
    """Called by the ASGI wrapper on every connection, in both scheduler modes;
    does nothing unless the channel layer is Redis. Cheap once running."""
    if not enabled():
        return
    heartbeat.ensure_started()
    await heartbeat.ready()
