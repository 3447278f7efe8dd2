"""The site's own Prometheus metrics: every ``domino_*`` family that a process
counts as it works (docs/scaling.md, "Metrics"). The readings taken at scrape
time (tables playing, clocks late, queue depths...) are not here: they are
`operations.selectors`' and `operations.metrics` turns them into gauges.

Shared plumbing: it imports no app, and the apps (the table socket, the move
service, the clock) count through the helpers below, each a counter increment
or a histogram observation (a lock and a float, or an ``mmap`` write in
multiprocess mode: a microsecond or two).

Multiprocess mode (prometheus-client's): when ``PROMETHEUS_MULTIPROC_DIR`` is
set (``domino_site.settings`` sets a default with the Celery scheduler), every
process of a host writes its values to files there, and any web process's
``/metrics`` adds them up. It must be set before ``prometheus_client`` is
imported, which is why this module reads the settings first: the settings
module sets the variable.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from django.conf import settings

#: The multiprocess folder, or "" (one process: its own registry). Read the
#: settings before prometheus_client is imported: they set the variable.
MULTIPROCESS_DIR: str = getattr(settings, "METRICS_DIR", "") or ""

from prometheus_client import (  # noqa: E402 - after the settings (above)
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as _multiprocess  # noqa: E402
from prometheus_client.core import GaugeMetricFamily  # noqa: E402

__all__ = [
    "CONTENT_TYPE_LATEST",
    "GaugeMetricFamily",
    "exposition",
]

# ------------------------------------------------------------------ the families

MOVES_APPLIED = Counter(
    "domino_moves_applied",
    "Moves applied and committed, by who made them (person, bot, timeout, auto, "
    "substitute) and the table's preset.",
    ["by", "preset"],
)

#: Seconds: mostly a few milliseconds, a slow move a second or more.
MOVE_BUCKETS = (
    0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.075,
    0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0, 5.0, 10.0,
)  # fmt: skip

MOVE_SECONDS = Histogram(
    "domino_move_seconds",
    "A person's move on a table socket: from its frame's arrival to the frame of "
    "the change it made sent back on that socket (the move applied, committed, "
    "built and sent through the channel layer).",
    buckets=MOVE_BUCKETS,
)

SOCKETS_OPEN = Gauge(
    "domino_sockets_open",
    "WebSockets open, by kind (table, lobby, arena, quick, people).",
    ["kind"],
    multiprocess_mode="livesum",
)

CLOCK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0)

CLOCK_LATENESS = Histogram(
    "domino_clock_lateness_seconds",
    "A round's due action (a bot's turn, a move clock, a disconnected player's "
    "automatic move, a walkover...) fired this long after its due time, by kind.",
    ["kind"],
    buckets=CLOCK_BUCKETS,
)

FRAMES_DROPPED = Counter(
    "domino_frames_dropped",
    "Messages to sockets dropped: an inbox full in the channel layer "
    "(inbox_full), a socket's queue full in its process (socket_queue_full), "
    "a frame for a socket its client was closing (socket_closing).",
    ["reason"],
)

ERRORS = Counter(
    "domino_errors",
    "The protocol's error frames sent to sockets, by code (docs/protocol.md).",
    ["code"],
)

TASKS = Counter(
    "domino_tasks",
    "Celery tasks run by the workers, by task and final state.",
    ["task", "state"],
)

PROCESSES = Gauge(
    "domino_processes",
    "Processes alive on this host, by kind (web, worker, analysis, beat; a "
    "worker's pool processes count as its kind).",
    ["kind"],
    multiprocess_mode="livesum",
)

DB_POOL = Gauge(
    "domino_db_pool_connections",
    "PostgreSQL connections of the processes' psycopg pools: in use (lent to a "
    "thread), idle, and the pools' maximum; sampled every few seconds.",
    ["state"],
    multiprocess_mode="livesum",
)

DB_POOL_WAITING = Gauge(
    "domino_db_pool_waiting",
    "Threads waiting for a connection of the processes' psycopg pools (sampled).",
    multiprocess_mode="livesum",
)

# ------------------------------------------------------------------ counting

_dropped = {
    reason: FRAMES_DROPPED.labels(reason=reason)
    for reason in ("inbox_full", "socket_queue_full", "socket_closing")
}


def frames_dropped(reason: str, count: int = 1) -> None:
    if count > 0:
        _dropped[reason].inc(count)


#: Labelled children, looked up once each (``labels()`` checks its arguments
#: under a lock: several microseconds a call).
_children: dict[tuple[Any, ...], Any] = {}


def _child(family: Any, *values: str) -> Any:
    key = (family, *values)
    child = _children.get(key)
    if child is None:
        child = _children[key] = family.labels(*values)
    return child


def error_sent(code: str) -> None:
    _child(ERRORS, code).inc()


def move_applied(by: str, preset: str) -> None:
    _child(MOVES_APPLIED, by, preset).inc()


def move_answered(seconds: float) -> None:
    MOVE_SECONDS.observe(seconds)


def clock_fired(kind: str, late_seconds: float) -> None:
    _child(CLOCK_LATENESS, kind).observe(max(0.0, late_seconds))


def socket_opened(kind: str) -> None:
    _child(SOCKETS_OPEN, kind).inc()


def socket_closed(kind: str) -> None:
    _child(SOCKETS_OPEN, kind).dec()


def task_done(task: str, state: str) -> None:
    _child(TASKS, task, state).inc()


def process_alive(kind: str) -> None:
    PROCESSES.labels(kind=kind).set(1)


def pool_sampled(in_use: int, idle: int, maximum: int, waiting: int) -> None:
    DB_POOL.labels(state="in_use").set(in_use)
    DB_POOL.labels(state="idle").set(idle)
    DB_POOL.labels(state="max").set(maximum)
    DB_POOL_WAITING.set(waiting)


# ------------------------------------------------------------------ the processes


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's: alive
        return True
    return True


def forget_dead_processes(folder: str = "") -> list[int]:
    """Remove the live gauges (sockets open, processes, pools) of the processes
    of this host that died without saying so (SIGKILL, a crash): the pids of
    their files that no longer run. Returns those pids."""
    folder = folder or MULTIPROCESS_DIR
    if not folder or not os.path.isdir(folder):
        return []
    dead = []
    for name in os.listdir(folder):
        if not (name.startswith("gauge_live") and name.endswith(".db")):
            continue
        try:
            pid = int(name[:-3].rsplit("_", 1)[1])
        except ValueError:
            continue
        if pid not in dead and not _alive(pid):
            dead.append(pid)
    for pid in dead:
        _multiprocess.mark_process_dead(pid, folder)
    return dead


def process_exits(pid: int | None = None) -> None:
    """This process (or ``pid``, a pool process) ends: its live gauges go."""
    if MULTIPROCESS_DIR:
        _multiprocess.mark_process_dead(pid or os.getpid(), MULTIPROCESS_DIR)


# ------------------------------------------------------------------ exposition


def exposition(collectors: Iterable[object] = ()) -> bytes:
    """The text format of every process's metrics (multiprocess mode: the
    folder's files, added up; else this process's registry) and of
    ``collectors`` (read now, in this process)."""
    registry = CollectorRegistry(auto_describe=True)
    if MULTIPROCESS_DIR:
        forget_dead_processes()
        _multiprocess.MultiProcessCollector(registry, path=MULTIPROCESS_DIR)
    else:
        registry.register(_Own())
    for collector in collectors:
        registry.register(collector)  # type: ignore[arg-type]
    return generate_latest(registry)


class _Own:
    """This process's default registry (one process: no folder)."""

    def collect(self):  # type: ignore[no-untyped-def]
        return REGISTRY.collect()
