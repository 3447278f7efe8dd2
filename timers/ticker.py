"""The in-process scheduler of the embedded mode (docs/architecture.md, "The processes of a deployment").

An asyncio task on the ASGI server's own event loop (the in-memory channel
layer only works from that loop) that runs the same jobs as the Celery tasks
of production, through the one registry (`timers.jobs`): ``round_due`` when a
round's ``due_at`` comes, ``arena_tick`` and ``quick_pair`` when asked for, and
``sweep`` every few seconds (the safety net that also fires whatever was
missed, e.g. across a restart).

``schedule()`` may be called from any thread (services call it from
``transaction.on_commit`` in worker threads); the heap is guarded by a lock and
the loop is woken with ``call_soon_threadsafe``.

Its clock is the world's (`games.world`): a test that installs a movable world
moves the ticker's time with it, and wakes the loop with ``poke()``.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import close_old_connections

from domino_site.realtime.asyncdb import db_async
from games.world import world
from people.services import presence_forget_all
from rooms.models import Seat
from rooms.services import seat_disconnected
from rooms.watchers import forget_all
from timers import jobs, offload

log = logging.getLogger(__name__)

# At most this many task functions run at once (each holds a database connection
# and a worker thread; a hard bot may think for a while).
MAX_RUNNING = 4


def _fire_round(round_id: int, version: int, now: datetime) -> bool:
    return bool(jobs.run("round_due", round_id=round_id, version=version, now=now))


def _sweep(now: datetime) -> None:
    waiting = jobs.run("sweep", now=now)
    if waiting == "analysis":  # analysis jobs wait: drain them
        ticker.submit(ANALYSIS_JOB, offload.drain_analyses)
    elif waiting == "puzzles":  # then the puzzles: cut and check, in the same side job's slot
        ticker.submit(ANALYSIS_JOB, offload.drain_puzzles)
    if jobs.run("mail_due"):  # the outbox: unsent after a failure, or its wake-up lost
        ticker.submit(MAIL_JOB, _send_mail)


def _send_mail() -> int:
    sent: int = jobs.run("mail")
    return sent


#: The ticker's side job that drains the analysis queue (one at a time).
ANALYSIS_JOB = "analysis"
#: The side job that sends the outbox (accounts.mail): one at a time, in a thread
#: of its own (a mail server may take seconds: never the database threads of play).
MAIL_JOB = "mail"
_mail_executor: ThreadPoolExecutor | None = None


def _mail_thread() -> ThreadPoolExecutor:
    global _mail_executor
    if _mail_executor is None:
        _mail_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mail")
    return _mail_executor


def _in_mail_thread(func: Callable[[], object]) -> object:
    try:
        return func()
    finally:
        close_old_connections()


def _tick_arena(arena_id: int, now: datetime) -> bool:
    return bool(jobs.run("arena_tick", arena_id=arena_id, now=now))


def _pair(now: datetime) -> datetime | None:
    again: datetime | None = jobs.run("quick_pair", now=now)
    return again


def _forget_dead_connections() -> int:
    """At the embedded server's start no socket is open yet, so a seat still
    marked connected belongs to a process that died (killed, crashed): mark it
    disconnected through the service, so that the usual rules (pause, auto
    move, takeover, expiry) apply to it. Returns how many seats it touched."""
    forget_all()  # nobody watches yet either (rooms.watchers)
    presence_forget_all()  # nor has a page open (people: who is online)
    stale = Seat.objects.filter(connected=True).exclude(room__status="closed")
    count = 0
    for seat in stale.select_related("room"):
        try:
            seat_disconnected(room=seat.room, index=seat.index, channel_name=seat.channel_name)
            count += 1
        except Exception:  # noqa: BLE001 - one bad room must not stop the start
            log.exception("could not disconnect stale seat %s", seat.pk)
    return count


def _single_process_layer() -> bool:
    """The in-memory channel layer cannot be shared: every socket is in this process."""
    return isinstance(get_channel_layer(), InMemoryChannelLayer)


class Ticker:
    def __init__(self) -> None:
        self._heap: list[tuple[datetime, int, int]] = []
        # Arena ticks (arenas.services.arena_tick): (when, arena id).
        self._arenas: list[tuple[datetime, int]] = []
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task | None = None
        self._ready: asyncio.Task | None = None
        self._wake: asyncio.Event | None = None
        self._running: set[tuple[int, int]] = set()
        self._jobs: set[asyncio.Task] = set()
        self._slots: asyncio.Semaphore | None = None
        # Jobs that are not a round's due action (a finished round's analysis):
        # run one at a time, apart from the due actions' slots.
        self._submitted: list[tuple[str, Callable[[], object]]] = []
        self._side_running: set[str] = set()
        self._side_slot: asyncio.Semaphore | None = None
        self._mail_slot: asyncio.Semaphore | None = None
        self._mail_again = False
        # The next quick-match pairing pass (one at a time: a pass sees the whole queue).
        self._quick_at: datetime | None = None

    # -------------------------------------------------------------- any thread
    def now(self) -> datetime:
        return world().now()

    def schedule(self, round_id: int, version: int, due_at: datetime) -> None:
        with self._lock:
            heapq.heappush(self._heap, (due_at, round_id, version))
        self.poke()

    def submit(self, key: str, func: Callable[[], object]) -> None:
        """Run ``func`` soon in a database thread (from any thread), one such job
        at a time; a key already waiting or running is not run twice. A ticker
        that is not running drops it: the sweeper's safety net finds it later."""
        with self._lock:
            if self._loop is None:
                return
            self._submitted.append((key, func))
        self.poke()

    def schedule_arena(self, arena_id: int, at: datetime) -> None:
        with self._lock:
            heapq.heappush(self._arenas, (at, arena_id))
        self.poke()

    def schedule_quick(self, at: datetime) -> None:
        """A quick-match pairing pass at ``at`` (or sooner, if one is due sooner)."""
        self._quick_soon(at)
        self.poke()

    def _quick_soon(self, at: datetime) -> None:
        """`schedule_quick` from the loop itself: no wake-up needed."""
        with self._lock:
            if self._quick_at is None or at < self._quick_at:
                self._quick_at = at

    def poke(self) -> None:
        """Wake the loop to look at the heap (and the clock) again."""
        loop, wake = self._loop, self._wake
        if loop is None or wake is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(wake.set)
        except RuntimeError:  # the loop closed meanwhile (end of a test)
            pass

    @property
    def started(self) -> bool:
        return self._task is not None and not self._task.done()

    def scheduled(self) -> list[tuple[int, int]]:
        """The ``(round id, version)`` wake-ups still waiting for their time, soonest first."""
        with self._lock:
            return [(round_id, version) for _, round_id, version in sorted(self._heap)]

    @property
    def firing(self) -> int:
        """Wake-ups being fired right now."""
        return len(self._jobs)

    # -------------------------------------------------------------- the loop
    def ensure_started(self) -> None:
        """Start on the running loop, unless already running there (a new loop,
        as in tests where each test has its own, gets a new task)."""
        loop = asyncio.get_running_loop()
        if self.started and self._loop is loop:
            return
        self._loop = loop
        self._wake = asyncio.Event()
        self._slots = asyncio.Semaphore(MAX_RUNNING)
        self._side_slot = asyncio.Semaphore(1)
        self._mail_slot = asyncio.Semaphore(1)
        self._side_running = set()
        self._running = set()
        self._jobs = set()
        self._ready = loop.create_task(self._boot(), name="domino-ticker-boot")
        self._task = loop.create_task(self._run(), name="domino-ticker")

    async def ready(self) -> None:
        """Wait for the start-up work (connections left by a dead process)."""
        if self._ready is not None:
            await asyncio.shield(self._ready)

    async def _boot(self) -> None:
        try:
            if _single_process_layer():
                await db_async(_forget_dead_connections)()
        except Exception:  # noqa: BLE001 - the ticker starts anyway
            log.exception("ticker start-up failed")

    async def stop(self) -> None:
        task, self._task = self._task, None
        jobs = [*self._jobs, *([self._ready] if self._ready else [])]
        self._ready = None
        if task is not None:
            task.cancel()
        for job in [*jobs, task]:
            if job is None:
                continue
            try:
                await job
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopping
                pass
        self._loop = None
        self._wake = None
        with self._lock:
            self._submitted.clear()
        # A stopped ticker forgets its schedule: the database keeps every due
        # time, and the first sweep after a start fires whatever was missed.
        with self._lock:
            self._heap.clear()
            self._arenas.clear()
            self._quick_at = None

    async def _run(self) -> None:
        await self.ready()
        sweep_every = settings.DOMINO_SWEEP_SECONDS
        loop = asyncio.get_running_loop()
        next_sweep = loop.time()  # sweep at once: fires what a restart missed
        while True:
            try:
                now = self.now()
                for round_id, version in self._pop_due(now):
                    self._start(round_id, version, now)
                for key, func in self._pop_submitted():
                    self._start_side(key, func)
                for arena_id in self._pop_arenas(now):
                    self._start_arena(arena_id, now)
                if loop.time() >= next_sweep:
                    next_sweep = loop.time() + sweep_every
                    await self._guarded(_sweep, now)
                    self._quick_soon(now)  # the safety net looks at the queue too
                if self._pop_quick(now):
                    await self._pair(now)
                timeout = max(0.0, min(self._seconds_to_next(), next_sweep - loop.time()))
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the ticker must never die
                log.exception("ticker iteration failed")
                timeout = sweep_every
            wake = self._wake
            assert wake is not None, "started: ensure_started made it"
            try:
                await asyncio.wait_for(wake.wait(), timeout)
            except TimeoutError:
                pass
            # Python 3.11's wait_for loses a cancellation that arrives as the event
            # is set (the ticker would then run on, and stop() wait for ever).
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise asyncio.CancelledError
            wake.clear()

    def _pop_due(self, now: datetime) -> list[tuple[int, int]]:
        due = []
        with self._lock:
            while self._heap and self._heap[0][0] <= now:
                _, round_id, version = heapq.heappop(self._heap)
                due.append((round_id, version))
        return due

    def _pop_submitted(self) -> list[tuple[str, Callable[[], object]]]:
        with self._lock:
            jobs, self._submitted = self._submitted, []
        return jobs

    def _start_side(self, key: str, func: Callable[[], object]) -> None:
        if key in self._side_running:
            if key == MAIL_JOB:  # mail written while the outbox is being sent: once more after
                self._mail_again = True
            return
        self._side_running.add(key)
        job = asyncio.get_running_loop().create_task(self._side(key, func))
        self._jobs.add(job)
        job.add_done_callback(self._jobs.discard)

    async def _side(self, key: str, func: Callable[[], object]) -> None:
        slot = self._mail_slot if key == MAIL_JOB else self._side_slot
        assert slot is not None, "started: ensure_started made it"
        try:
            async with slot:
                if key == MAIL_JOB:
                    self._mail_again = False
                    await self._mail(func)
                else:
                    await self._guarded(func)
        finally:
            self._side_running.discard(key)
            if key == MAIL_JOB and self._mail_again:
                self.submit(MAIL_JOB, func)

    async def _mail(self, func: Callable[[], object]) -> None:
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(_mail_thread(), _in_mail_thread, func)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the next sweep tries again
            log.exception("sending the outbox failed")

    def _pop_arenas(self, now: datetime) -> list[int]:
        due = set()
        with self._lock:
            while self._arenas and self._arenas[0][0] <= now:
                due.add(heapq.heappop(self._arenas)[1])
        return sorted(due)

    def _pop_quick(self, now: datetime) -> bool:
        with self._lock:
            if self._quick_at is None or self._quick_at > now:
                return False
            self._quick_at = None
            return True

    async def _pair(self, now: datetime) -> None:
        """One pairing pass; the next one when people still wait."""
        try:
            again = await db_async(_pair)(now)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the next sweep tries again
            log.exception("quick-match pass failed")
            return
        if again is not None:
            self._quick_soon(again)

    def _seconds_to_next(self) -> float:
        with self._lock:
            heads = [heap[0][0] for heap in (self._heap, self._arenas) if heap]
            times = [t for t in (*heads, self._quick_at) if t]
        if not times:
            return float("inf")
        return (min(times) - self.now()).total_seconds()

    def _start(self, round_id: int, version: int, now: datetime) -> None:
        key = (round_id, version)
        if key in self._running:  # a duplicate: the running one does it
            return
        self._running.add(key)
        job = asyncio.get_running_loop().create_task(self._fire(key, now))
        self._jobs.add(job)
        job.add_done_callback(self._jobs.discard)

    def _start_arena(self, arena_id: int, now: datetime) -> None:
        """An arena's tick; one at a time per arena (a second would wait for
        the first's lock and then find nothing to do)."""
        key = (-arena_id, 0)  # apart from the rounds' keys
        if key in self._running:
            # Ticking now: tick once more after it, for what came meanwhile.
            self.schedule_arena(arena_id, now + timedelta(seconds=0.2))
            return
        self._running.add(key)
        job = asyncio.get_running_loop().create_task(self._fire_arena(key, arena_id, now))
        self._jobs.add(job)
        job.add_done_callback(self._jobs.discard)

    async def _fire_arena(self, key: tuple[int, int], arena_id: int, now: datetime) -> None:
        slots = self._slots
        assert slots is not None, "started: ensure_started made it"
        try:
            async with slots:
                await self._guarded(_tick_arena, arena_id, self.now())
        finally:
            self._running.discard(key)

    async def _fire(self, key: tuple[int, int], now: datetime) -> None:
        slots = self._slots
        assert slots is not None, "started: ensure_started made it"
        try:
            async with slots:
                await self._guarded(_fire_round, key[0], key[1], now)
        finally:
            self._running.discard(key)

    async def _guarded(self, func: Callable, *args) -> None:
        try:
            await db_async(func)(*args)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - one bad round must not stop the others
            log.exception("scheduled %s%r failed", getattr(func, "__name__", func), args)


#: The one ticker of this process.
ticker = Ticker()
