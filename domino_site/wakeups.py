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
``cache.add`` is atomic), and the task removes it when it starts (`started`).
Jobs queued while the task is running therefore send one new wake-up. A mark
whose wake-up never started (a lost message, workers down) expires after
`PENDING_SECONDS`, and the next job or sweep sends another wake-up.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache

#: A wake-up marked as waiting is sent again after this long even if it never
#: started (longer than a drain, so that a busy worker is not sent a second one).
PENDING_SECONDS = 120


def _key(name: str) -> str:
    return f"wakeup-pending:{name}"


def wake_once(name: str, send: Callable[[], object]) -> bool:
    """Call ``send`` (e.g. a task's ``apply_async``) unless a wake-up called
    ``name`` waits to start; returns whether it was sent. If ``send`` raises, the
    mark is removed and the error raised (the caller logs it; the sweeper
    tries again)."""
    if not cache.add(_key(name), 1, timeout=PENDING_SECONDS):
        return False
    try:
        send()
    except BaseException:
        cache.delete(_key(name))
        raise
    return True


def started(name: str) -> None:
    """The task of the wake-up ``name`` starts: the next job sends a new one."""
    cache.delete(_key(name))


def forget(name: str) -> None:
    """Drop the mark (what its expiry does), e.g. between tests."""
    cache.delete(_key(name))
