"""Calls run at the same moment, each in its own thread and so with its own
database connection: how the tests on PostgreSQL race two requests, two
settlements or two sweeps against one another."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def at_once(calls: list[Callable[[], object]], *, timeout: float = 60) -> list[str]:
    """Each call's outcome, in the order they finished: ``"ok"``, the code of a
    refusal (an exception with a ``code``, as `ServiceError`), or ``"crash: …"``.
    The calls wait for one another at a barrier, then go together."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []
    lock = threading.Lock()

    def run(call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=10)
            call()
            result = "ok"
        except Exception as exc:  # noqa: BLE001 - reported to the test
            code = getattr(exc, "code", None)
            result = code if isinstance(code, str) else f"crash: {exc!r}"
        finally:
            connection.close()  # this thread's own connection
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return outcomes
