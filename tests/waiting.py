"""Waiting for what a test expects, never for a fixed time.

``wait_for(predicate, timeout=..., message=...)`` asks ``predicate`` again and
again until it returns something true (which it returns), and fails with
``message`` (what never came) once ``timeout`` seconds have passed.
``async_wait_for`` is the same for async tests; its predicate may be a
coroutine function.

``holds_for(predicate, seconds=..., message=...)`` is the other side: what
must not happen, for a check that has no event to wait for (nothing marks
"it is too late now to change"); it fails with ``message`` the first time
``predicate`` is false within ``seconds``. The window is the check's own
claim (say why in the test), not a guess at how long something takes.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


class NeverCame(AssertionError):
    """What a test waited for did not happen in time."""


def _failed(message: str, timeout: float, last: Any) -> NeverCame:
    return NeverCame(f"{message} (not within {timeout:g} s; last seen: {last!r})")


def wait_for(predicate: Callable[[], T], *, timeout: float, message: str, every: float = 0.02) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _failed(message, timeout, value)
        time.sleep(every)


def holds_for(
    predicate: Callable[[], Any], *, seconds: float, message: str, every: float = 0.02
) -> None:
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if not value:
            raise AssertionError(
                f"{message} (stopped holding within {seconds:g} s; seen: {value!r})"
            )
        if time.monotonic() >= deadline:
            return
        time.sleep(every)


async def async_wait_for(
    predicate: Callable[[], T | Awaitable[T]],
    *,
    timeout: float,
    message: str,
    every: float = 0.01,
) -> T:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if loop.time() >= deadline:
            raise _failed(message, timeout, value)
        await asyncio.sleep(every)
