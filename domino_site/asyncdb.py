"""Calling the sync services from async code (consumers, the in-process ticker).

``database_sync_to_async(..., thread_sensitive=False)`` runs the call in a pool
thread, so tables do not wait for each other. Channels closes obsolete database
connections around the call, but outside the context the call runs in (asgiref
runs it in a copy of the caller's context, where Django keeps its
connections), so with ``CONN_MAX_AGE=0`` connections were left open in the
pool threads. Closing them at the end of the call, inside that context, keeps
the documented behaviour: per-call connections, or persistent ones when
``CONN_MAX_AGE`` asks for them.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.db import close_old_connections

P = ParamSpec("P")
R = TypeVar("R")


def db_async(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(func)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        finally:
            close_old_connections()

    return database_sync_to_async(call, thread_sensitive=False)
