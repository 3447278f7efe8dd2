"""The in-process scheduler (timers/ticker.py) and the scheduling seam."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.world import use_world
from tests.waiting import async_wait_for
from tests.worlds import TestWorld
from timers import scheduling
from timers import ticker as ticker_module
from timers.tasks import bot_turn, round_due
from timers.ticker import Ticker


async def _until(predicate, timeout=2.0, message="the ticker to get there"):
    await async_wait_for(predicate, timeout=timeout, message=message)


# The ticker's calls run on the database threads, which close their
# connections after each call: they need database access like the site's.
@pytest.mark.django_db(transaction=True)
async def test_ticker_fires_due_rounds_once_and_waits_for_the_others(monkeypatch):
    fired, sweeps = [], []
    monkeypatch.setattr(ticker_module, "_fire_round", lambda r, v, now: fired.append((r, v)))
    monkeypatch.setattr(ticker_module, "_sweep", lambda now: sweeps.append(now))
    monkeypatch.setattr(ticker_module, "_forget_dead_connections", lambda: 0)
    ticker = Ticker()
    world = TestWorld()
    previous = use_world(world)
    now = timezone.now()
    ticker.schedule(1, 5, now - timedelta(seconds=1))  # before start: kept
    ticker.ensure_started()
    ticker.schedule(1, 5, now - timedelta(seconds=1))  # a duplicate
    ticker.schedule(2, 1, now + timedelta(seconds=60))
    try:
        await _until(lambda: fired and sweeps, message="round 1 fired and a sweep")
        # Done with what was due: only round 2 waits, and nothing is firing.
        await _until(
            lambda: ticker.scheduled() == [(2, 1)] and not ticker.firing,
            message="the ticker idle, with round 2 left for later",
        )
        assert fired == [(1, 5)]
        world.advance(61)  # a minute later
        ticker.poke()
        await _until(lambda: len(fired) == 2)
        assert fired[1] == (2, 1)
    finally:
        await ticker.stop()
        use_world(previous)


@pytest.mark.django_db(transaction=True)  # as above
async def test_a_failing_task_does_not_stop_the_ticker(monkeypatch):
    fired = []

    def fire(round_id, version, now):
        fired.append(round_id)
        if round_id == 1:
            raise RuntimeError("boom")

    monkeypatch.setattr(ticker_module, "_fire_round", fire)
    monkeypatch.setattr(ticker_module, "_sweep", lambda now: None)
    monkeypatch.setattr(ticker_module, "_forget_dead_connections", lambda: 0)
    ticker = Ticker()
    ticker.ensure_started()
    try:
        ticker.schedule(1, 1, timezone.now())
        await _until(lambda: fired == [1])
        ticker.schedule(2, 1, timezone.now())
        await _until(lambda: fired == [1, 2])
    finally:
        await ticker.stop()


def test_schedule_due_goes_to_the_ticker_in_the_embedded_mode(settings, monkeypatch):
    settings.DOMINO_SCHEDULER = "inprocess"
    seen = []
    monkeypatch.setattr(ticker_module.ticker, "schedule", lambda *a: seen.append(a))
    due = timezone.now()
    scheduling.schedule_due(round_id=3, version=9, due_at=due)
    scheduling.schedule_due(round_id=3, version=9, due_at=None)
    assert seen == [(3, 9, due)]


def test_schedule_due_sends_a_celery_task_with_an_eta(settings, monkeypatch):
    settings.DOMINO_SCHEDULER = "celery"
    sent = []
    for task in (round_due, bot_turn):
        monkeypatch.setattr(task, "apply_async", lambda t=task, **kw: sent.append((t.name, kw)))
    due = timezone.now() + timedelta(seconds=3)
    scheduling.schedule_due(round_id=3, version=9, due_at=due)
    scheduling.schedule_due(round_id=4, version=2, due_at=due, kind="bot")
    scheduling.schedule_due(round_id=5, version=1, due_at=due + timedelta(hours=1))  # sweeper's
    assert sent == [
        ("games.round_due", {"kwargs": {"round_id": 3, "version": 9}, "eta": due}),
        ("bots.bot_turn", {"kwargs": {"round_id": 4, "version": 2}, "eta": due}),
    ]


def test_a_broker_that_does_not_answer_is_logged_not_raised(settings, monkeypatch, caplog):
    settings.DOMINO_SCHEDULER = "celery"

    def down(**kwargs):
        raise ConnectionError("no broker")

    monkeypatch.setattr(round_due, "apply_async", down)
    scheduling.schedule_due(round_id=1, version=1, due_at=timezone.now())
    assert "could not schedule" in caplog.text


@pytest.mark.django_db(transaction=True)  # as above
async def test_the_ticker_sweeps_every_domino_sweep_seconds(monkeypatch, settings):
    """The knob of docs/scaling.md: at 0.05 s the ticker sweeps again and again
    within a second (at the default 5 s it would sweep once, at start)."""
    settings.DOMINO_SWEEP_SECONDS = 0.05
    sweeps = []
    monkeypatch.setattr(ticker_module, "_sweep", lambda now: sweeps.append(now))
    monkeypatch.setattr(ticker_module, "_forget_dead_connections", lambda: 0)
    ticker = Ticker()
    ticker.ensure_started()
    try:
        await _until(lambda: len(sweeps) >= 4, timeout=1.0, message="four sweeps within a second")
    finally:
        await ticker.stop()


def test_beat_and_the_ticker_read_the_one_sweep_setting():
    import subprocess
    import sys

    code = (
        "import django; django.setup(); from django.conf import settings;"
        " from domino_site.celery import app;"
        " print(settings.DOMINO_SWEEP_SECONDS, app.conf.beat_schedule['rooms-sweep']['schedule'])"
    )
    env = {
        "DJANGO_SETTINGS_MODULE": "domino_site.settings",
        "DEBUG": "1",
        "DOMINO_SWEEP_SECONDS": "2.5",
    }
    import os

    env = {**{k: v for k, v in os.environ.items() if k != "REDIS_URL"}, **env}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["2.5", "2.5"]
