"""The puzzles' Celery task (``puzzles.next``, routed to the ``analysis``
queue: the analysis worker runs it, below play and within its budget). It
carries nothing: what to cut and check is the puzzles' rows to say; it stops
as soon as an analysis waits (analyses come first)."""

from celery import shared_task

from analysis.queue import waiting_jobs
from domino_site import wakeups
from puzzles.services import puzzles_drain

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="puzzles.next", **TASK_OPTIONS)
def puzzles_next() -> int:
    """Cut the analysed public rounds, check candidates; returns how many checked.
    The next sweep may send a new wake-up (`domino_site.wakeups`)."""
    wakeups.started("puzzles")
    return puzzles_drain(more_urgent=waiting_jobs)
