"""The one job registry (timers/jobs.py): the Celery tasks and the in-process
ticker both run their jobs through it."""

from datetime import UTC, datetime

import pytest

from timers import jobs, tasks
from timers import ticker as ticker_module

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


@pytest.fixture
def calls(monkeypatch):
    seen = []

    def fake(name, result=None):
        def job(**kwargs):
            seen.append((name, kwargs))
            return result

        return job

    monkeypatch.setitem(jobs.JOBS, "round_due", fake("round_due", True))
    monkeypatch.setitem(jobs.JOBS, "arena_tick", fake("arena_tick", True))
    monkeypatch.setitem(jobs.JOBS, "quick_pair", fake("quick_pair"))
    monkeypatch.setitem(jobs.JOBS, "sweep", fake("sweep", None))
    monkeypatch.setitem(jobs.JOBS, "mail_due", fake("mail_due", []))
    return seen


def test_the_celery_tasks_run_the_registrys_jobs(calls):
    assert tasks.round_due(round_id=1, version=2) is True
    assert tasks.bot_turn(round_id=3, version=4) is True
    assert tasks.tick_arena(arena_id=5) is True
    tasks.quick_pair()
    tasks.sweep()  # nothing waits for analysis: no wake-up
    tasks.job("arena_tick", arena_id=6)
    assert calls == [
        ("round_due", {"round_id": 1, "version": 2}),
        ("round_due", {"round_id": 3, "version": 4}),
        ("arena_tick", {"arena_id": 5}),
        ("quick_pair", {}),
        ("sweep", {}),
        ("mail_due", {}),
        ("quick_pair", {}),
        ("arena_tick", {"arena_id": 6}),
    ]


def test_the_ticker_runs_the_registrys_jobs(calls):
    assert ticker_module._fire_round(1, 2, NOW) is True
    assert ticker_module._tick_arena(5, NOW) is True
    assert ticker_module._pair(NOW) is None
    ticker_module._sweep(NOW)
    assert calls == [
        ("round_due", {"round_id": 1, "version": 2, "now": NOW}),
        ("arena_tick", {"arena_id": 5, "now": NOW}),
        ("quick_pair", {"now": NOW}),
        ("sweep", {"now": NOW}),
        ("mail_due", {}),
    ]


def test_the_celery_task_names_stay_the_ones_beat_and_the_workers_know():
    names = {t.name for t in (tasks.round_due, tasks.bot_turn, tasks.sweep, tasks.quick_pair)}
    assert names == {"games.round_due", "bots.bot_turn", "rooms.sweep", "rooms.quick_pair"}
    assert tasks.tick_arena.name == "arenas.tick"
    assert tasks.job.name == "timers.job"
