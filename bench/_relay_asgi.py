"""Bench-only ASGI module (``bench/load.py`` serves it; never used by the site).

    daphne bench._relay_asgi:application

It is the site's own ``domino_site.asgi.application``, unchanged, plus two things
that only the load benchmark mounts:

* ``ws/relay/<group>/``: a bare relay consumer. It joins the channel-layer group
  ``relay.<group>`` and ``group_send``s every text frame it receives to that
  group; each group message goes to the socket as it is. Same process, same
  channel layer as the table sockets: the floor the table sockets are compared
  with (a move has to be relayed to four sockets at least this fast).
* ``GET /bench/stats``: JSON counters of this process: every database query
  (Django's documented ``execute_wrapper`` hook, installed on each new
  connection, all threads alike), the
  process' CPU time and resident memory, and how late its event loop woke up
  (a task that sleeps 5 ms at a time counts the wake-ups more than 20, 50 and
  100 ms late). The bench takes differences.

With ``BENCH_STALL_LOG=<file>`` set, a thread writes the event loop thread's
stack to that file whenever the loop has not woken for 80 ms (a diagnostic:
what the loop was doing, or that it was only waiting for a core).
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sys
import threading
import time
import traceback

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")

import django  # noqa: E402

django.setup()  # before anything imports models (domino_site.asgi does it again: harmless)

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from django.db.backends.signals import connection_created  # noqa: E402
from django.urls import re_path  # noqa: E402

from bench.loadbench.common import rss_kb  # noqa: E402 (stdlib only: no second django set-up)
from domino_site.asgi import application as site_application  # noqa: E402
from domino_site.realtime.asyncdb import NoDatabaseInTheLoop  # noqa: E402


class Counters:
    """Process-wide counters, updated from any thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.queries = 0  # SQL statements
        self.trips = 0  # messages to the database (a message may hold several statements)
        self.query_seconds = 0.0
        self.connections = 0
        # The event loop's lateness (`watch_loop`): wake-ups later than asked by
        # more than 20, 50 and 100 ms, and the seconds lost beyond 5 ms in all.
        self.stalls = {"20": 0, "50": 0, "100": 0}
        self.stalled_seconds = 0.0

    def snapshot(self) -> dict:
        with self.lock:
            data = {
                "pid": os.getpid(),
                "queries": self.queries,
                "trips": self.trips,
                "query_seconds": self.query_seconds,
                "connections": self.connections,
                "stalls": dict(self.stalls),
                "stalled_seconds": self.stalled_seconds,
            }
        usage = resource.getrusage(resource.RUSAGE_SELF)
        data["cpu_seconds"] = usage.ru_utime + usage.ru_stime
        data["rss_kb"] = rss_kb("self")
        data["time"] = time.time()
        return data


counters = Counters()


# ------------------------------------------------------------------ the loop

LOOP_TICK = 0.005
_watching = False
_last_tick = [time.perf_counter()]  # the loop's last wake-up (perf_counter)


async def watch_loop() -> None:
    """Sleep a tick at a time and count how late each wake-up was: time the
    event loop spent on other work (or the process waited for a core)."""
    while True:
        asked = time.perf_counter() + LOOP_TICK
        await asyncio.sleep(LOOP_TICK)
        _last_tick[0] = time.perf_counter()
        late = _last_tick[0] - asked
        if late > 0.005:
            with counters.lock:
                counters.stalled_seconds += late - 0.005
                for ms in counters.stalls:
                    if late * 1000 > int(ms):
                        counters.stalls[ms] += 1


def _stall_dumper(path: str, loop_thread: int) -> None:
    dumped_for = 0.0
    while True:
        time.sleep(0.02)
        last = _last_tick[0]
        if time.perf_counter() - last > 0.08 and dumped_for != last:
            dumped_for = last
            frame = sys._current_frames().get(loop_thread)
            with open(path, "a") as out:
                out.write(
                    f"--- {os.getpid()} stalled {time.perf_counter() - last:.3f}s at {time.time():.3f}\n"
                )
                out.write("".join(traceback.format_stack(frame)))


def _watch_once() -> None:
    global _watching
    if not _watching:
        _watching = True
        asyncio.get_running_loop().create_task(watch_loop())
        if os.environ.get("BENCH_STALL_LOG"):
            threading.Thread(
                target=_stall_dumper,
                args=(os.environ["BENCH_STALL_LOG"], threading.get_ident()),
                daemon=True,
            ).start()


# ------------------------------------------------------------------ queries


def _statements(sql) -> int:
    """SQL statements in one message (domino_site.infra.django joins them with "; "),
    BEGIN and COMMIT not counted: they travel with a move's reads and writes."""
    if not isinstance(sql, str):
        return 1
    return sum(1 for part in sql.split("; ") if part not in ("BEGIN", "COMMIT"))


def _count_query(execute, sql, params, many, context):
    start = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        elapsed = time.perf_counter() - start
        with counters.lock:
            counters.queries += _statements(sql)
            counters.trips += 1
            counters.query_seconds += elapsed


def _on_connection_created(sender, connection, **kwargs) -> None:
    # Called on every (re)connection of a thread's DatabaseWrapper, pooled or not:
    # the wrapper list belongs to that DatabaseWrapper, so add ours once.
    with counters.lock:
        counters.connections += 1
    if _count_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(_count_query)


connection_created.connect(_on_connection_created, weak=False)


# ------------------------------------------------------------------ the relay


class RelayConsumer(NoDatabaseInTheLoop, AsyncWebsocketConsumer):
    """Every text frame received goes to the whole group, this socket included.
    (Without channels' per-message connection clean-up, as the table consumer:
    the floor must not pay for what the tables skip.)"""

    async def connect(self) -> None:
        self.group = "relay." + self.scope["url_route"]["kwargs"]["group"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if text_data is not None:
            await self.channel_layer.group_send(
                self.group, {"type": "relay.message", "text": text_data}
            )

    async def relay_message(self, event: dict) -> None:
        await self.send(text_data=event["text"])


relay_application = URLRouter(
    [re_path(r"^ws/relay/(?P<group>[A-Za-z0-9_-]{1,60})/$", RelayConsumer.as_asgi())]
)


async def _stats(send) -> None:
    body = json.dumps(counters.snapshot()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json"), (b"cache-control", b"no-store")],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def application(scope, receive, send):
    _watch_once()
    path = scope.get("path", "")
    if scope["type"] == "http" and path == "/bench/stats":
        return await _stats(send)
    if scope["type"] == "websocket" and path.startswith("/ws/relay/"):
        return await relay_application(scope, receive, send)
    return await site_application(scope, receive, send)
