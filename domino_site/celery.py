"""Celery application: ``celery -A domino_site worker`` / ``celery -A domino_site beat``.

Configured from Django settings whose names start with ``CELERY_``; tasks are
discovered in each installed app's ``tasks.py`` (games.round_due, bots.bot_turn,
rooms.sweep). Beat runs the sweeper every ``settings.DOMINO_SWEEP_SECONDS`` (5 s;
``CELERY_BEAT_SCHEDULE``).

Logging: Celery would replace the root logger's handlers with its own text
lines; its ``setup_logging`` signal, connected here, makes it use the site's
configuration instead (``settings.LOGGING``: JSON lines in production,
domino_site/logs.py), at the level of ``--loglevel``. Each task's lines carry
its name, its id and the round (or arena) it runs for (``task_prerun``).
"""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import (
    beat_init,
    setup_logging,
    task_postrun,
    task_prerun,
    worker_process_init,
    worker_process_shutdown,
    worker_ready,
    worker_shutdown,
)

from domino_site import logs
from domino_site.below_play import go_below_play

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")

log = logging.getLogger(__name__)

app = Celery("domino_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    # The sweeper's schedule is settings.CELERY_BEAT_SCHEDULE (DOMINO_SWEEP_SECONDS,
    # the knob the in-process ticker reads too).
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


@setup_logging.connect
def _site_logging(loglevel: Any = None, **_: object) -> None:
    """The worker's and beat's logging is the site's (``settings.LOGGING``),
    not Celery's: connecting this signal is Celery's documented way to keep
    it from configuring (and hijacking) the root logger."""
    from django.conf import settings

    logs.apply_config(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)


#: The ids a running task bound, by task id, until it ends.
_bound: dict[str, Any] = {}


@task_prerun.connect
def _bind_task_ids(
    task_id: str | None = None, task: Any = None, kwargs: Any = None, **_: object
) -> None:
    kwargs = kwargs if isinstance(kwargs, dict) else {}
    if task_id is None:
        return
    _bound[task_id] = logs.bind(
        task=getattr(task, "name", None),
        task_id=task_id,
        round_id=kwargs.get("round_id"),
        arena_id=kwargs.get("arena_id"),
    )


@task_postrun.connect
def _unbind_task_ids(task_id: str | None = None, **_: object) -> None:
    token = _bound.pop(task_id, None) if task_id is not None else None
    if token is not None:
        try:
            logs.unbind(token)
        except ValueError:  # bound in another context: it ends with that context
            pass


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
