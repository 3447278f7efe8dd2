"""Celery tasks: thin wrappers around idempotent services (their names are the
ones the workers and beat know: ``games.round_due``, ``bots.bot_turn``,
``rooms.sweep``, ``rooms.quick_pair``, ``arenas.tick``).

A task carries ``(round_id, version)`` and does nothing if the round moved on,
so duplicates, retries and late deliveries are harmless (hence ``acks_late``:
a task lost with its worker is delivered again). ``bots.bot_turn`` is the same
service kept apart so that a deployment can route bot turns (the hard bot
thinks for a while) to their own queue and workers:
``CELERY_TASK_ROUTES={"bots.bot_turn": {"queue": "bots"}}``.
"""

from celery import shared_task

from analysis.queue import analysis_enqueue_missing, analysis_trim, waiting_jobs
from analysis.services import ANALYSIS_GRACE
from analysis.tasks import analysis_next
from arenas.services import arena_tick, arenas_sweep
from games.world import world
from quick.services import quick_pair as pair_queue
from rooms.services import rooms_sweep, round_due_fire

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="games.round_due", **TASK_OPTIONS)
def round_due(*, round_id: int, version: int) -> bool:
    """The round's due action: the clock's timeout move, a disconnected player's
    auto move, a walkover (and a bot's turn when it was not routed to bots)."""
    return round_due_fire(round_id=round_id, version=version)


@shared_task(name="bots.bot_turn", **TASK_OPTIONS)
def bot_turn(*, round_id: int, version: int) -> bool:
    """A bot's turn: the same service as any due action."""
    return round_due_fire(round_id=round_id, version=version)


@shared_task(name="rooms.sweep", **TASK_OPTIONS)
def sweep() -> None:
    """The periodic sweeper (Celery beat): room expiry, disconnect grace,
    walkovers, every due action whose wake-up was lost, the analysis queue
    (rounds never queued, its bound, a wake-up while anything waits); a quick-match pairing pass (the
    people still waiting: windows widen, bots come) and the arenas' ticks."""
    rooms_sweep()
    now = world().now()
    analysis_enqueue_missing(before=now - ANALYSIS_GRACE)
    analysis_trim(now=now)  # the bound holds even while the analysis worker is starved
    if waiting_jobs():
        analysis_next.apply_async()
    pair_queue()
    arenas_sweep()


@shared_task(name="rooms.quick_pair", **TASK_OPTIONS)
def quick_pair() -> None:
    """A quick-match pairing pass, soon after someone joined the queue."""
    pair_queue()


@shared_task(name="arenas.tick", **TASK_OPTIONS)
def tick_arena(*, arena_id: int) -> bool:
    """An arena's tick: start, score, pair, end (idempotent; the arena row's
    lock makes two at once run one after the other)."""
    return arena_tick(arena=arena_id)
