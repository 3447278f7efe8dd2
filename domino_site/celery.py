"""Celery application: ``celery -A domino_site worker`` / ``celery -A domino_site beat``.

Configured from Django settings whose names start with ``CELERY_``; tasks are
discovered in each installed app's ``tasks.py`` (games.round_due, bots.bot_turn,
rooms.sweep). Beat runs the sweeper every ``DOMINO_SWEEP_SECONDS`` (5 s).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")

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
