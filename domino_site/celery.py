"""Celery application: ``celery -A domino_site worker`` / ``celery -A domino_site beat``.

Configured from Django settings whose names start with ``CELERY_``; tasks are
discovered in each installed app's ``tasks.py`` (games.round_due, bots.bot_turn,
rooms.sweep). Beat runs the sweeper every ``DOMINO_SWEEP_SECONDS`` (5 s).
"""

import logging
import os

from celery import Celery
from celery.signals import (
    beat_init,
    task_postrun,
    worker_process_init,
    worker_process_shutdown,
    worker_ready,
    worker_shutdown,
)

from domino_site.below_play import go_below_play

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")

log = logging.getLogger(__name__)

SWEEP_SECONDS = float(os.environ.get("DOMINO_SWEEP_SECONDS", "5"))

app = Celery("domino_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    # The sweeper: a beat tick that is not picked up before the next one is useless.
    beat_schedule={
        "rooms-sweep": {
            "task": "rooms.sweep",
            "schedule": SWEEP_SECONDS,
            "options": {"expires": SWEEP_SECONDS},
        }
    },
    # A move must never wait long on a broker that does not answer: scheduling
    # gives up quickly and the sweeper fires the due action later.
    task_publish_retry_policy={
        "max_retries": 2,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.5,
    },
    broker_connection_timeout=2,
    broker_connection_retry_on_startup=True,
    # ETA tasks are seconds away; a worker should not hoard more than it runs.
    worker_prefetch_multiplier=1,
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    task_ignore_result=True,
)
app.autodiscover_tasks()

#: Queues of work that no player waits for: a worker that consumes only these
#: runs its pool processes below play (domino_site.below_play).
BELOW_PLAY_QUEUES = frozenset({"analysis"})


@worker_process_init.connect
def _below_play_if_background(**_: object) -> None:
    """A pool process of a worker started with ``-Q analysis`` (the Procfile's
    ``analysis``) goes below play before its first task; the other workers'
    (clocks, bot turns, the sweeper) stay where play is."""
    consumed = set(app.amqp.queues.consume_from or ())
    if consumed and consumed <= BELOW_PLAY_QUEUES:
        steps = go_below_play()
        log.info("pool process %s below play: %s", os.getpid(), steps)


# ------------------------------------------------------------------ metrics and heartbeats
# (domino_site.heartbeats, domino_site.metrics: imported when a signal comes, after
# the settings, which choose the metrics' multiprocess folder.)


def process_kind() -> str:
    """``analysis`` for a worker that consumes only the background queues (the
    Procfile's ``analysis``), else ``worker``."""
    consumed = set(app.amqp.queues.consume_from or ())
    return "analysis" if consumed and consumed <= BELOW_PLAY_QUEUES else "worker"


@worker_ready.connect
def _worker_heartbeat(**_: object) -> None:
    from domino_site import heartbeats

    heartbeats.start(process_kind(), announce=True)


@worker_process_init.connect
def _pool_process_counts(**_: object) -> None:
    from domino_site import heartbeats

    heartbeats.start(process_kind())


@worker_process_shutdown.connect
def _pool_process_exits(pid: int | None = None, **_: object) -> None:
    from domino_site import metrics

    metrics.process_exits(pid)


@worker_shutdown.connect
def _worker_exits(**_: object) -> None:
    from domino_site import metrics

    metrics.process_exits()


@beat_init.connect
def _beat_heartbeat(**_: object) -> None:
    from domino_site import heartbeats

    heartbeats.start("beat", announce=True)


@task_postrun.connect
def _task_counted(task: object = None, state: str | None = None, **_: object) -> None:
    from domino_site import metrics

    metrics.task_done(getattr(task, "name", "?"), state or "?")
