"""The analysis worker's wake-ups do not pile up in the broker (issue 52's soak).

Every round that ends queues its analysis and wakes the analysis worker
(``analysis.next``); the sweeper wakes it again every few seconds while
anything waits. One wake-up drains the queue for up to 30 s, so under load
(a round ending every half second, one analysis worker) the soak found the
broker's ``analysis`` list growing by about 150 messages a minute, without
end: 800 after five minutes. A wake-up that is already waiting to start is
enough: another is sent only once it has started (or after
`domino_site.wakeups.PENDING_SECONDS`, if it was lost)."""

from __future__ import annotations

import pytest

from analysis.tasks import analysis_next
from puzzles.tasks import puzzles_next
from timers import scheduling, tasks


@pytest.fixture
def woken(settings, monkeypatch):
    settings.DOMINO_SCHEDULER = "celery"
    sent: list[str] = []
    monkeypatch.setattr(analysis_next, "apply_async", lambda *a, **k: sent.append("analysis"))
    monkeypatch.setattr(puzzles_next, "apply_async", lambda *a, **k: sent.append("puzzles"))
    return sent


@pytest.mark.django_db
def test_rounds_ending_while_a_wake_up_waits_send_no_other(woken):
    for _ in range(50):  # fifty rounds end before the worker takes the first wake-up
        scheduling.wake_analysis()
    assert woken == ["analysis"]


@pytest.mark.django_db
def test_once_the_wake_up_has_started_the_next_round_wakes_the_worker_again(woken):
    scheduling.wake_analysis()
    analysis_next()  # the worker takes it (nothing waits: it drains nothing)
    scheduling.wake_analysis()
    scheduling.wake_analysis()
    assert woken == ["analysis", "analysis"]


@pytest.mark.django_db
def test_the_sweeper_does_not_add_a_wake_up_while_one_waits(woken, monkeypatch):
    monkeypatch.setattr(tasks.jobs, "run", lambda name, **kw: "analysis" if name == "sweep" else [])
    for _ in range(12):  # a minute of sweeps while the worker drains for 30 s
        tasks.sweep()
    assert woken == ["analysis"]
    monkeypatch.setattr(tasks.jobs, "run", lambda name, **kw: "puzzles" if name == "sweep" else [])
    tasks.sweep()
    tasks.sweep()
    assert woken == ["analysis", "puzzles"]
    puzzles_next()
    tasks.sweep()
    assert woken == ["analysis", "puzzles", "puzzles"]


@pytest.mark.django_db
def test_a_wake_up_that_never_started_is_sent_again_after_a_while(woken, monkeypatch):
    from domino_site import wakeups

    scheduling.wake_analysis()
    scheduling.wake_analysis()
    assert woken == ["analysis"]
    wakeups.forget("analysis")  # what PENDING_SECONDS' expiry does (the broker lost it)
    scheduling.wake_analysis()
    assert woken == ["analysis", "analysis"]


@pytest.mark.django_db
def test_a_broker_that_refuses_leaves_no_wake_up_marked_as_waiting(woken, monkeypatch):
    def refuse(*a, **k):
        raise ConnectionError("broker down")

    monkeypatch.setattr(analysis_next, "apply_async", refuse)
    scheduling.wake_analysis()  # logged, not raised
    monkeypatch.setattr(analysis_next, "apply_async", lambda *a, **k: woken.append("analysis"))
    scheduling.wake_analysis()
    assert woken == ["analysis"]


@pytest.mark.redis
def test_waking_from_many_sockets_holds_no_redis_connection_for_each(settings, monkeypatch):
    """A round ends in a socket's database call (`domino_site.realtime.asyncdb`),
    which runs in a copy of the socket's context and hands its context back to it.
    Django's ``cache`` is one object per context, each with its own pool. So the
    soak's first run of the wake-up check left one Redis connection per socket that
    had ended a round: 14 to 170 a Daphne in seven minutes. The check uses one
    cache object per process: one pool, a connection per thread at most."""
    import asyncio
    import os

    from bench.loadbench.sampling import fd_figures
    from domino_site.realtime.asyncdb import db_async

    settings.DOMINO_SCHEDULER = "celery"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": f"wakeups-test-{os.getpid()}",
        }
    }
    monkeypatch.setattr(analysis_next, "apply_async", lambda *a, **k: None)
    sockets = 30

    async def play() -> int:
        release = asyncio.Event()
        done: list[int] = []

        async def socket() -> None:  # a socket whose player's move ends a round, then stays
            await db_async(scheduling.wake_analysis)()
            done.append(1)
            await release.wait()

        tasks = [asyncio.create_task(socket()) for _ in range(sockets)]
        while len(done) < sockets:
            await asyncio.sleep(0.01)
        held = fd_figures(os.getpid())["redis"]
        release.set()
        await asyncio.gather(*tasks)
        return held

    before = fd_figures(os.getpid())["redis"]
    held = asyncio.run(play())
    # At most one a database thread that called at the same time (one pool).
    assert sockets > 3 * settings.DB_THREADS
    assert held - before <= settings.DB_THREADS, f"{held - before} connections, {sockets} sockets"
