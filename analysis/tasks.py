"""The analysis worker's Celery task (``analysis.next``, on the ``analysis``
queue): a wake-up that drains the analysis queue (`analysis.queue`), best job
first. It carries nothing: which round comes next is the queue's to say, so a
duplicate, a retry or a wake-up with nothing left to do is harmless."""

from celery import shared_task
from django.conf import settings

from analysis.services import analysis_drain
from domino_site import wakeups

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="analysis.next", **TASK_OPTIONS)
def analysis_next() -> int:
    """Analyse the queue's rounds, best first, for a while; returns how many.
    The rounds queued from now on send a new wake-up (`domino_site.wakeups`)."""
    wakeups.started("analysis")
    return analysis_drain(work=getattr(settings, "DOMINO_ANALYSIS_WORK", None))
