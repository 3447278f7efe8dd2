"""At most one wake-up of a draining worker waiting in the broker.

Some Celery tasks carry nothing and drain a queue kept in the database
(``analysis.next``: the analysis queue, for up to 30 s; ``puzzles.next``).
They are sent after each job is queued and by the sweeper every few seconds
while anything waits. When the worker is busy, these messages arrive much faster
than it takes them (a round ending every half second against one wake-up taken
every 30 s). The broker's list then grew without end (the soak, bench/soak.py:
800 messages after five minutes at 150 tables). One wake-up waiting to start is
enough, because it drains whatever has been queued by the time it runs.

`wake_once` sends the task only if no wake-up of that name is marked as waiting.
The mark is a key in the cache (Redis in production, shared by every process;
``add`` is atomic), and the task removes it when it starts (`started`).
Jobs queued while the task is running therefore send one new wake-up. A mark
whose wake-up never started (a lost message, workers down) expires after
`PENDING_SECONDS`, and the next job or sweep sends another wake-up.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.signals import setting_changed

#: A wake-up marked as waiting is sent again after this long even if it never
#: started (longer than a drain, so that a busy worker is not sent a second one).
PENDING_SECONDS = 120


_cache: tuple[int, Any] | None = None  # (pid, this process' cache object)


def _marks() -> Any:
    """One cache object for the whole process (made again after a fork).

    Django's ``cache`` is one object per context, each with its own connection
    pool. A round ends inside a socket's database call, which runs in a copy of
    the socket's context and hands the context back to it
    (`domino_site.realtime.asyncdb`). So with ``cache`` every socket that ended
    a round kept a Redis connection of its own: in the soak, 14 to 170 per
    Daphne in seven minutes."""
    global _cache
    if _cache is None or _cache[0] != os.getpid():
        _cache = (os.getpid(), caches.create_connection(DEFAULT_CACHE_ALIAS))
    return _cache[1]


def _forget_cache(*, setting: str, **kwargs: Any) -> None:
    global _cache
    if setting == "CACHES":  # (tests that point the cache elsewhere)
        _cache = None


setting_changed.connect(_forget_cache)


def _key(name: str) -> str:
    return f"wakeup-pending:{name}"


def wake_once(name: str, send: Callable[[], object]) -> bool:
    """Call ``send`` (e.g. a task's ``apply_async``) unless a wake-up called
    ``name`` waits to start; returns whether it was sent. If ``send`` raises, the
    mark is removed and the error raised (the caller logs it; the sweeper
    tries again)."""
    if not _marks().add(_key(name), 1, timeout=PENDING_SECONDS):
        return False
    try:
        send()
    except BaseException:
        _marks().delete(_key(name))
        raise
    return True


def started(name: str) -> None:
    """The task of the wake-up ``name`` starts: the next job sends a new one."""
    _marks().delete(_key(name))


def forget(name: str) -> None:
    """Drop the mark (what its expiry does), e.g. between tests."""
    _marks().delete(_key(name))
