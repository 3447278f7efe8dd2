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
import threading
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


def drain_db_executor() -> None:
    """Wait until every call on the database threads has ended, then let the
    next call start a fresh pool. For the end of a test (its sockets' last
    queries must not outlive it: the next flush would meet them) and of a
    process."""
    global _executor
    executor, _executor = _executor, None
    if executor is not None:
        executor.shutdown(wait=True)


class _Caller(threading.local):
    loop: asyncio.AbstractEventLoop | None = None


_caller = _Caller()


def calling_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose `db_async` call this thread is running, if any: where
    the call's after-commit messages can be sent without waiting for them
    (`domino_site.realtime.fanout.deliver`)."""
    return _caller.loop


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
        return await on_a_db_thread(asyncio.get_running_loop(), *args, **kwargs)

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
