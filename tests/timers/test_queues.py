"""A round's analysis goes to a queue of its own (domino_site/settings.py), so
that it never holds up the clocks and bot turns of the live tables."""

from domino_site.celery import app


def _queue(task: str) -> str:
    return app.amqp.router.route({}, task)["queue"].name


def test_the_analysis_has_its_own_queue():
    assert _queue("analysis.next") == "analysis"


def test_the_live_timers_stay_on_the_default_queue():
    default = app.conf.task_default_queue
    for task in ("games.round_due", "bots.bot_turn", "rooms.sweep", "arenas.tick"):
        assert _queue(task) == default, task
