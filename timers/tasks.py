"""Celery tasks: each runs a job of the one registry (`timers.jobs`), as the
in-process ticker does. Their names are the ones the workers and beat know:
``games.round_due``, ``bots.bot_turn``, ``rooms.sweep``, ``rooms.quick_pair``,
``arenas.tick``; ``timers.job`` runs any job by its name (a new job needs no
new task).

A task carries ``(round_id, version)`` and does nothing if the round moved on,
so duplicates, retries and late deliveries are harmless (hence ``acks_late``:
a task lost with its worker is delivered again). ``bots.bot_turn`` is the same
job kept apart so that a deployment can route bot turns (the hard bot
thinks for a while) to their own queue and workers:
``CELERY_TASK_ROUTES={"bots.bot_turn": {"queue": "bots"}}``.
"""

from typing import Any

from celery import shared_task

from accounts.tasks import mail_send_task
from analysis.tasks import analysis_next
from domino_site import wakeups
from puzzles.tasks import puzzles_next
from timers import jobs

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="timers.job", **TASK_OPTIONS)
def job(name: str, **kwargs: Any) -> Any:
    """Any job of `timers.jobs` by its name."""
    return jobs.run(name, **kwargs)


@shared_task(name="games.round_due", **TASK_OPTIONS)
def round_due(*, round_id: int, version: int) -> bool:
    """The round's due action: the clock's timeout move, a disconnected player's
    auto move, a walkover (and a bot's turn when it was not routed to bots)."""
    return jobs.run("round_due", round_id=round_id, version=version)


@shared_task(name="bots.bot_turn", **TASK_OPTIONS)
def bot_turn(*, round_id: int, version: int) -> bool:
    """A bot's turn: the same job as any due action."""
    return jobs.run("round_due", round_id=round_id, version=version)


@shared_task(name="rooms.sweep", **TASK_OPTIONS)
def sweep() -> None:
    """The periodic sweeper (Celery beat): the ``sweep`` job (room expiry,
    disconnect grace, walkovers, every due action whose wake-up was lost, the
    arenas' ticks, the analysis queue), a wake-up of the analysis worker while
    anything waits (else, while the puzzles have rounds to cut or candidates to
    check, its ``puzzles.next``: analyses first), and a quick-match pairing pass
    (the people still waiting: windows widen, bots come), and a
    ``accounts.mail_send`` for each message of the outbox that is due (unsent
    after its first try, or never tried: its wake-up was lost). A wake-up of
    the analysis worker that still waits to start is not sent again
    (`domino_site.wakeups`)."""
    waiting = jobs.run("sweep")
    if waiting == "analysis":
        wakeups.wake_once("analysis", analysis_next.apply_async)
    elif waiting == "puzzles":
        wakeups.wake_once("puzzles", puzzles_next.apply_async)
    for mail_id in jobs.run("mail_due"):
        mail_send_task.apply_async(kwargs={"mail_id": mail_id})
    jobs.run("quick_pair")


@shared_task(name="rooms.quick_pair", **TASK_OPTIONS)
def quick_pair() -> None:
    """A quick-match pairing pass, soon after someone joined the queue."""
    jobs.run("quick_pair")


@shared_task(name="arenas.tick", **TASK_OPTIONS)
def tick_arena(*, arena_id: int) -> bool:
    """An arena's tick: start, score, pair, end (idempotent; the arena row's
    lock makes two at once run one after the other)."""
    return jobs.run("arena_tick", arena_id=arena_id)
