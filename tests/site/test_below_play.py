"""Background work runs below play (docs/decisions.md, "Background work below
play"): the analysis worker's pool process and the embedded analysis child put
themselves under SCHED_IDLE in an autogroup of their own at nice 19, and the
kernel then gives them almost nothing while a normal process wants the CPU,
autogroup on or off."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from domino_site import below_play
from tests.waiting import holds_for, wait_for

SPAWN = multiprocessing.get_context("spawn")
AUTOGROUP_ON = (
    Path("/proc/sys/kernel/sched_autogroup_enabled").exists()
    and Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
)
ROOT = Path(__file__).resolve().parents[2]


def _report(queue) -> None:
    steps = below_play.go_below_play()
    queue.put((steps, below_play.current_policy(), below_play.autogroup_nice(), os.getsid(0)))


def _burn(cpu: int, below: bool, ready, started, results, seconds: float) -> None:
    """Spin on ``cpu`` for ``seconds`` of wall time; report the CPU time we got.
    A normal burner makes a session of its own, as a server started apart has.
    Says so on ``ready`` once pinned and set, then waits for ``started``."""
    os.sched_setaffinity(0, {cpu})
    if below:
        below_play.go_below_play()
    else:
        os.setsid()
    ready.put(below)
    started.wait()
    begin, cpu_before = time.monotonic(), time.process_time()
    while time.monotonic() - begin < seconds:
        pass
    results.put((below, time.process_time() - cpu_before))


def test_a_process_below_play_is_sched_idle_in_an_autogroup_of_its_own_at_nice_19():
    queue = SPAWN.Queue()
    child = SPAWN.Process(target=_report, args=(queue,))
    child.start()
    steps, policy, nice, sid = queue.get(timeout=30)
    child.join(10)
    assert policy == "idle" and "sched_idle" in steps
    assert sid == child.pid and "setsid" in steps  # its own session...
    if below_play.AUTOGROUP.exists():  # ...and so its own autogroup, at nice 19
        assert nice == below_play.LOWEST_NICE and "autogroup_nice" in steps
    assert below_play.current_policy() == "other"  # the caller is untouched


def test_the_kernel_gives_a_process_below_play_almost_nothing_beside_a_busy_one():
    cpu = min(os.sched_getaffinity(0))
    ready, started, results = SPAWN.Queue(), SPAWN.Event(), SPAWN.Queue()
    burners = [
        SPAWN.Process(target=_burn, args=(cpu, below, ready, started, results, 1.5))
        for below in (False, True)
    ]
    for burner in burners:
        burner.start()
    # Both pinned and set before either spins.
    assert {ready.get(timeout=30) for _ in burners} == {False, True}
    started.set()
    got = dict(results.get(timeout=30) for _ in burners)
    for burner in burners:
        burner.join(10)
    # Nice 19 alone in a shared group would get about 1.5 %, SCHED_IDLE alone
    # (autogroup off) about 0.3 %; an untouched process would get half.
    assert got[True] < 0.1 * got[False], got


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def _pool_process(worker: subprocess.Popen, timeout: float = 60) -> int:
    def started() -> list[int]:
        assert worker.poll() is None, "the worker exited"
        return _children(worker.pid)

    return wait_for(started, timeout=timeout, message="the worker's pool process")[0]


def _policy_of(worker: subprocess.Popen, below: bool) -> tuple[int, str]:
    """The pool process's policy, once its start-up (worker_process_init) ran:
    below play, it turns SCHED_IDLE; otherwise nothing marks the end of its
    start-up, so it has to stay SCHED_OTHER through the time one that goes
    below play takes (well under a second here)."""
    pid = _pool_process(worker)
    if below:
        # Read anew each time: a first pool process may be replaced before its
        # start-up ends (CI once found it gone), and the one after counts.
        pid = wait_for(
            lambda: _idle_pool_process(worker),
            timeout=30,
            message="the pool process below play",
        )
    else:
        holds_for(
            lambda: _not_idle(pid),
            seconds=3,
            message="the pool process stays where play is",
        )
        pid = _pool_process(worker)  # the one of now, should the first have been replaced
    return os.sched_getscheduler(pid), Path(f"/proc/{pid}/autogroup").read_text()


def _idle_pool_process(worker: subprocess.Popen) -> int | None:
    """A pool process of ``worker`` that is SCHED_IDLE now, if any."""
    assert worker.poll() is None, "the worker exited"
    for pid in _children(worker.pid):
        try:
            if os.sched_getscheduler(pid) == os.SCHED_IDLE:
                return pid
        except ProcessLookupError:  # replaced while we looked
            continue
    return None


def _not_idle(pid: int) -> bool:
    """``pid`` is not SCHED_IDLE, or is gone: once, on a machine at load 11,
    the worker's first pool process was gone within the 3 s while the worker
    lived on; a gone process proves nothing either way, and the policy
    returned is read from the pool process of the moment after."""
    try:
        return os.sched_getscheduler(pid) != os.SCHED_IDLE
    except ProcessLookupError:
        return True


@pytest.mark.redis
@pytest.mark.parametrize("queues, below", [(["-Q", "analysis"], True), ([], False)])
def test_the_procfiles_analysis_worker_runs_below_play_and_the_clock_worker_does_not(queues, below):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "domino_site.settings", "DEBUG": "1"}
    env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "domino_site", "worker", *queues,
         "--concurrency=1", "--without-gossip", "--without-mingle", "-l", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )  # fmt: skip
    try:
        policy, autogroup = _policy_of(worker, below)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(20)
    if below:
        assert policy == os.SCHED_IDLE
        assert autogroup.split()[-1] == "19" or not AUTOGROUP_ON
    else:
        assert policy == os.SCHED_OTHER and autogroup.split()[-1] == "0"


def test_the_budget_sleeps_only_while_the_machine_is_busy():
    """docs/decisions.md, "Background work below play": on a quiet machine the
    analysis runs at full speed; while others keep it busy, it keeps its share."""

    def work(seconds: float) -> None:
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    quiet = below_play.Budget(share=0.2, busy_above=1.5)  # the machine is never that busy
    work(0.05)
    assert quiet.step() == 0.0
    busy = below_play.Budget(share=0.2, busy_above=-1.0)  # always busy
    work(0.05)
    slept = busy.step()
    assert 0.15 <= slept <= below_play.LONGEST_SLEEP  # 4 times its 50 ms of CPU


def test_without_proc_stat_the_budget_never_sleeps(monkeypatch):
    """Not Linux (``make run`` on another system): the analysis runs unpaced."""
    monkeypatch.setattr(below_play, "machine_jiffies", lambda: (0, 0))
    budget = below_play.Budget(share=0.1, busy_above=-1.0)
    end = time.process_time() + 0.02
    while time.process_time() < end:
        pass
    assert budget.step() == 0.0
