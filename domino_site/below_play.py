"""Running a process below play: the CPU that no player waits for (a round's
analysis) only ever takes what the play servers leave (docs/decisions.md,
"Background work below play").

Linux offers two documented knobs (sched(7)), and this process turns both:

* its scheduling policy becomes ``SCHED_IDLE`` (``sched_setscheduler(2)``):
  within its scheduling group it runs only when nothing else wants the CPU;
* its autogroup's nice value becomes 19 (``/proc/self/autogroup``, sched(7)
  "The autogroup feature"). With autogroup on (the default of most
  distributions), the CPU is first shared between *sessions*, each weighted
  as a whole by its autogroup's nice value, whatever the policies and nice
  values of the processes inside; a worker alone in a session of its own at
  nice 19 weighs 15 against the 1024 of a Daphne's session at nice 0. So the
  process first makes a session of its own (``setsid(2)``, which also makes a
  new autogroup): the nice value of a shared session would slow everything
  else in it too. A process that cannot make its own session (it already leads
  a process group) keeps its autogroup as it is.

With autogroup off (or a kernel without it) the CPU is shared between
processes, and ``SCHED_IDLE`` alone puts the process below every normal one.

It is called once, at the start of the process that does such work: the
analysis worker's pool process (``timers.apps``, for a worker that consumes
only ``settings.DOMINO_BELOW_PLAY_QUEUES``) and the embedded server's
analysis child and the what-if's child (`start_child`, their initializer: it
also ends the child with its server). tests/site/test_below_play.py holds the
kernel to it: a CPU-bound process below play, pinned to the same core as a
normal one started in a session of its own, gets almost nothing.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)

AUTOGROUP = Path("/proc/self/autogroup")
#: The weakest nice value: an autogroup at 19 weighs 15 against 1024 at 0.
LOWEST_NICE = 19


def go_below_play() -> list[str]:
    """Put this process below play (see the module's docstring); returns the
    steps taken, among ``setsid``, ``autogroup_nice`` and ``sched_idle``. Never
    raises: a step the system refuses is logged and skipped."""
    steps = []
    if _own_session():
        steps.append("setsid")
        if _set_autogroup_nice(LOWEST_NICE):
            steps.append("autogroup_nice")
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        steps.append("sched_idle")
    except (AttributeError, OSError) as exc:  # not Linux, or refused
        log.warning("SCHED_IDLE refused (%s): nice %d instead", exc, LOWEST_NICE)
        os.setpriority(os.PRIO_PROCESS, 0, LOWEST_NICE)
    return steps


def start_child() -> None:
    """A server's child process's initializer (the embedded analysis child,
    the what-if child): below play, and ending itself when the server that
    started it is gone (a killed server runs no clean-up, and its child would
    otherwise stay behind)."""
    go_below_play()
    parent = os.getppid()
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


class ChildPool:
    """A server's one child process below play (`start_child`), started on
    first use; after it broke, `forget` drops it and the next `get` starts a
    new one. Spawned, not forked: a fork of a threaded server may inherit
    held locks."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def get(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_child,
                )
            return self._pool

    def run(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``call(*args, **kwargs)`` in the child, waited for. A child that
        died raises ``BrokenProcessPool`` here, and the next call starts a new
        one (the caller's safety net retries the work)."""
        pool = self.get()
        try:
            return pool.submit(call, *args, **kwargs).result()
        except BrokenProcessPool:
            self.forget(pool)
            raise

    def forget(self, pool: ProcessPoolExecutor | None = None) -> None:
        """Drop ``pool`` (or whichever is current) if it is still the one."""
        with self._lock:
            if self._pool is not None and (pool is None or self._pool is pool):
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)


def _own_session() -> bool:
    """Whether this process now leads a session of its own (made here, or
    already: then alone in its autogroup only if nobody else joined it)."""
    pid = os.getpid()
    if os.getsid(0) == pid:
        return True
    try:
        os.setsid()
    except OSError:  # a process group leader cannot: keep the shared autogroup
        return False
    return True


def _set_autogroup_nice(nice: int) -> bool:
    try:
        AUTOGROUP.write_text(f"{nice}\n")
    except OSError:  # no autogroup (kernel or namespace), or refused
        return False
    return True


def autogroup_nice() -> int | None:
    """This process's autogroup nice value (None without autogroup).

    The file reads ``/autogroup-85 nice 19``."""
    try:
        text = AUTOGROUP.read_text()
    except OSError:
        return None
    return int(text.split()[-1])


def current_policy() -> str:
    """``"idle"``, ``"other"`` or another name of this thread's policy."""
    names = {os.SCHED_OTHER: "other", os.SCHED_IDLE: "idle", os.SCHED_BATCH: "batch"}
    return names.get(os.sched_getscheduler(0), "other")


# ------------------------------------------------------------------ the budget

#: Other processes busier than this share of the machine: play is busy, and
#: background work keeps to its budget.
BUSY_ABOVE = 0.35
#: The share of one core background work may take while play is busy: for the
#: work someone waits for (a person asked), and for the rest.
ASKED_SHARE = 0.5
BACKGROUND_SHARE = 0.1
#: Never sleep longer than this at once (a person's job may come meanwhile),
#: nor take less than this share (a job always ends).
LONGEST_SLEEP = 0.5
MIN_SHARE = 0.01


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine, from /proc/stat; (0, 0)
    where there is none (not Linux): the budget then never sleeps."""
    try:
        with open("/proc/stat") as stat:
            values = [int(v) for v in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return 0, 0
    return sum(values) - values[3] - values[4], sum(values)


class Budget:
    """Paces a background job between its steps (one decision of an analysis):
    while the other processes keep the machine busier than `BUSY_ABOVE`, the
    job sleeps after each step long enough that its own CPU stays under
    ``share`` of one core, less as the machine fills up (`share_at`); on an
    idle machine it runs at full speed.

    Below play the scheduler already hands play the CPU first; the budget also
    spares what the scheduler cannot: the caches, and the host's core behind a
    virtual CPU, which a busy background process shares with play
    (docs/decisions.md, "Background work below play").

    >>> budget = Budget(share=0.5, busy_above=2.0)  # never busy: never sleeps
    >>> budget.step() == 0.0
    True
    """

    def __init__(self, share: float = BACKGROUND_SHARE, busy_above: float = BUSY_ABOVE) -> None:
        self.share = share
        self.busy_above = busy_above
        self.slept = 0.0
        self._mark()

    def _mark(self) -> None:
        self._cpu = time.process_time()
        self._wall = time.monotonic()
        self._machine = machine_jiffies()

    def share_at(self, others: float) -> float:
        """The share of a core allowed while the others keep ``others`` of the
        machine busy: all of it below `busy_above`, then ``share``, shrinking
        in proportion to the machine's idle part as the others take it.

        >>> budget = Budget(share=0.5, busy_above=0.35)
        >>> [round(budget.share_at(x), 2) for x in (0.2, 0.35, 0.6, 1.0)]
        [1.0, 1.0, 0.31, 0.01]
        """
        if others <= self.busy_above:
            return 1.0
        idle = max(0.0, 1.0 - others) / (1.0 - self.busy_above)
        return max(MIN_SHARE, self.share * idle)

    def step(self) -> float:
        """After a step of work: sleep if the machine is busy; returns the sleep."""
        cpu = time.process_time() - self._cpu
        busy, total = machine_jiffies()
        spent_busy, spent_total = busy - self._machine[0], total - self._machine[1]
        sleep = 0.0
        if spent_total > 0:
            ticks = os.sysconf("SC_CLK_TCK")
            others = max(0.0, spent_busy / spent_total - cpu * ticks / spent_total)
            share = self.share_at(others)
            if share < 1.0:
                sleep = min(LONGEST_SLEEP, cpu * (1.0 / share - 1.0))
        if sleep > 0:
            time.sleep(sleep)
            self.slept += sleep
        self._mark()
        return sleep
