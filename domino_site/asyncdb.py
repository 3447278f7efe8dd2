"""Calling the sync services from async code (consumers, the in-process ticker).

``database_sync_to_async(..., thread_sensitive=False)`` runs the call in a thread
of the process's database pool (`db_executor`, ``settings.DB_THREADS``), so
tables do not wait for each other. Channels closes obsolete database
connections around the call, but outside the context the call runs in (asgiref
runs it in a copy of the caller's context, where Django keeps its
connections), so with ``CONN_MAX_AGE=0`` connections were left open in the
pool threads. Closing them at the end of the call, inside that context, keeps
the documented behaviour: per-call connections, or persistent ones when
``CONN_MAX_AGE`` asks for them.
"""

from __future__ import annotations

import asyncio
import functools
import math
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

P = ParamSpec("P")
R = TypeVar("R")


_executor: ThreadPoolExecutor | None = None


def db_executor() -> ThreadPoolExecutor:
    """The process's database threads: ``settings.DB_THREADS`` of them."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=settings.DB_THREADS, thread_name_prefix="db")
    return _executor


class _Caller(threading.local):
    loop: asyncio.AbstractEventLoop | None = None


_caller = _Caller()


def calling_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose `db_async` call this thread is running, if any: where
    the call's after-commit messages can be sent without waiting for them
    (`rooms.events.deliver`)."""
    return _caller.loop


#: Seconds over which `db_load` averages (an exponentially decaying mean).
LOAD_WINDOW = 1.0


class _Load:
    """The seconds of database calls a second this process made lately: each
    `db_async` call adds its length as its caller waited for it (a wait for a
    free thread included: that is load too) when it ends, and the sum decays
    with time constant `LOAD_WINDOW`. Updated from the event loops' threads
    without a lock: a race only blurs a figure that is an estimate anyway."""

    def __init__(self) -> None:
        self.level = 0.0
        self.at = time.monotonic()

    def _decayed(self, now: float) -> None:
        elapsed = now - self.at
        if elapsed > 0:
            self.level *= math.exp(-elapsed / LOAD_WINDOW)
            self.at = now

    def add(self, seconds: float) -> None:
        now = time.monotonic()
        self._decayed(now)
        self.level += seconds / LOAD_WINDOW

    def current(self) -> float:
        self._decayed(time.monotonic())
        return self.level


_load = _Load()


def db_load() -> float:
    """How busy this process' database calls kept it lately, in seconds a
    second (0.3: the calls, summed over the threads, took 0.3 s of the last
    second or so). Work that is only a saving (`rooms.consumers`' read ahead) runs
    while this is low: under load, the CPU it costs is worth more elsewhere."""
    return _load.current()


def db_async(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(func)
    def call(loop: asyncio.AbstractEventLoop, *args: P.args, **kwargs: P.kwargs) -> R:
        _caller.loop = loop
        try:
            return func(*args, **kwargs)
        finally:
            _caller.loop = None
            close_old_connections()

    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        on_a_db_thread = database_sync_to_async(
            call, thread_sensitive=False, executor=db_executor()
        )
        start = time.monotonic()
        try:
            return await on_a_db_thread(asyncio.get_running_loop(), *args, **kwargs)
        finally:
            _load.add(time.monotonic() - start)

    return run


class NoDatabaseInTheLoop:
    """For async consumers that never touch the database on the event loop: all
    their database work goes through `db_async`, whose worker threads close
    their own connections.

    channels' ``AsyncConsumer.dispatch`` runs ``close_old_connections`` before
    every message of every socket, through ``sync_to_async`` on the single
    thread-sensitive executor. A move reaches seven socket handlers (the
    mover's frame, two seat frames, four room frames), so that was seven hops
    to one shared thread and back. It closed nothing here, because the loop's
    thread never holds a connection. This dispatch skips it.
    """

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
