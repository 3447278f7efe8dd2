"""What a process says about itself, for the metrics and the admin's "Saúde do
site" (docs/scaling.md, "Metrics"; `operations.selectors` reads it).

* `start` (once per process and kind): the process counts itself in
  ``domino_processes``, forgets its live gauges when it exits, and runs one
  daemon thread that every `SAMPLE_SECONDS` samples its database pool
  (``domino_db_pool_*``) and, for the Celery processes (``announce``), sets its
  heartbeat key in Redis, ``domino:proc:<kind>:<host>:<pid>``, which lives
  `BEAT_TTL_SECONDS`: one small command per process every few seconds, nothing
  per task. (A Daphne's heartbeat is `domino_site.realtime.liveness`', which the
  sweeper already reads.)
* `sweep_done` / `last_sweep`: the sweeper's last pass (wall clock), in
  Django's cache (Redis in production, the process's memory embedded, where
  the in-process ticker sweeps in the web process itself).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import socket
import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache

from domino_site import metrics

log = logging.getLogger(__name__)

SAMPLE_SECONDS = 5.0
BEAT_TTL_SECONDS = 30.0
PROC_KEY = "domino:proc:{kind}:{host}:{pid}"
PROC_PATTERN = "domino:proc:*"
SWEEP_KEY = "domino:ops:last_sweep"

_lock = threading.Lock()
_state: dict[str, Any] = {"pid": None, "kinds": set(), "announce": set(), "thread": None}


def start(kind: str, *, announce: bool = False) -> None:
    """This process is a ``kind`` (web, worker, analysis, beat); ``announce``:
    beat in Redis too (the Celery processes). Cheap when already started."""
    pid = os.getpid()
    if (
        _state["pid"] == pid
        and kind in _state["kinds"]
        and (not announce or kind in _state["announce"])
    ):
        return
    with _lock:
        if _state["pid"] != pid:  # a new process (or a fork): start afresh
            _state.update(pid=pid, kinds=set(), announce=set(), thread=None)
            atexit.register(_exit)
        _state["kinds"].add(kind)
        if announce:
            _state["announce"].add(kind)
        metrics.process_alive(kind)
        if _state["thread"] is None:
            thread = threading.Thread(target=_run, name="domino-heartbeat", daemon=True)
            _state["thread"] = thread
            thread.start()
    if announce:
        beat_now()


def _exit() -> None:
    if _state["pid"] != os.getpid():
        return
    metrics.process_exits()
    client = redis_client()
    if client is None:
        return
    try:
        for kind in _state["announce"]:
            client.delete(_key(kind))
    except Exception:  # noqa: BLE001 - leaving anyway: the key expires
        pass


def _key(kind: str) -> str:
    return PROC_KEY.format(kind=kind, host=socket.gethostname(), pid=os.getpid())


def _run() -> None:
    pid = os.getpid()
    while _state["pid"] == pid:
        time.sleep(SAMPLE_SECONDS)
        sample_pools()
        beat_now()


def sample_pools() -> None:
    """``domino_db_pool_*`` from this process's psycopg pools' statistics."""
    from domino_site.infra.psycopg_pool import pools_in_use

    pools = pools_in_use()
    if not pools:
        return
    in_use = idle = maximum = waiting = 0
    for pool in pools:
        stats = pool.get_stats()
        size, available = stats.get("pool_size", 0), stats.get("pool_available", 0)
        in_use += max(0, size - available)
        idle += available
        maximum += stats.get("pool_max", 0)
        waiting += stats.get("requests_waiting", 0)
    metrics.pool_sampled(in_use, idle, maximum, waiting)


def beat_now() -> None:
    """Set this process's heartbeat keys (its announced kinds)."""
    kinds = set(_state["announce"])
    if not kinds:
        return
    client = redis_client()
    if client is None:
        return
    value = json.dumps(
        {"host": socket.gethostname(), "pid": os.getpid(), "at": time.time()}, sort_keys=True
    )
    try:
        pipe = client.pipeline(transaction=False)
        for kind in kinds:
            pipe.set(_key(kind), value, px=int(BEAT_TTL_SECONDS * 1000))
        pipe.execute()
    except Exception:  # noqa: BLE001 - the next beat tries again
        log.warning("process heartbeat failed", exc_info=True)


_client: tuple[int, str, Any] | None = None


def redis_client() -> Any:
    """A synchronous client of ``REDIS_URL`` (the broker and the layer), one per
    process; None without Redis."""
    global _client
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    if _client is None or _client[0] != os.getpid() or _client[1] != url:
        import redis

        client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        _client = (os.getpid(), url, client)
    return _client[2]


# ------------------------------------------------------------------ the sweeper


def sweep_done() -> None:
    """The sweeper finished a pass (called by `timers.jobs.sweep`)."""
    try:
        cache.set(SWEEP_KEY, time.time(), timeout=None)
    except Exception:  # noqa: BLE001 - a mark for people, never a reason to fail a sweep
        log.warning("could not mark the sweep", exc_info=True)


def last_sweep() -> float | None:
    """When the sweeper last finished a pass (seconds since the epoch), if known."""
    value = cache.get(SWEEP_KEY)
    return float(value) if value is not None else None
