"""The one scheduling seam (docs/architecture.md, "Principles").

After the commit of a change, ``rooms.events`` sends `games.signals.round_due`
for the current round's ``due_at`` (a bot's turn, the move clock, a disconnected
player's auto move, a walkover), and ``schedule_due`` receives it.
Depending on ``settings.DOMINO_SCHEDULER`` the wake-up is a Celery task with an
ETA (production) or an entry in the in-process ticker on the ASGI server's
event loop (the embedded default). Either way the same idempotent function runs,
``rooms.services.round_due_fire(round_id=, version=)``, which does nothing unless
the round is still at ``version`` and due. Nothing else knows which is running.

Losing a wake-up is harmless: the periodic sweeper (Celery beat, or the ticker)
fires every due action that was missed. So a broker that does not answer is
logged, never raised into the request that made the move.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from accounts.tasks import mail_send_task
from analysis.queue import analysis_enqueue_finished
from analysis.tasks import analysis_next
from domino_site import wakeups
from games.world import world
from timers import jobs, offload
from timers.tasks import bot_turn, quick_pair, round_due, tick_arena
from timers.ticker import ANALYSIS_JOB, MAIL_JOB, ticker

log = logging.getLogger(__name__)

# Celery on Redis redelivers ETA tasks that wait longer than the broker's
# visibility timeout: anything further away than this is left to the sweeper.
MAX_ETA = timedelta(minutes=10)


def on_round_due(
    sender: Any, *, round_id: int, version: int, due_at: datetime | None, kind: str | None, **_: Any
) -> None:
    """The receiver of `games.signals.round_due` (connected by ``timers.apps``)."""
    schedule_due(round_id=round_id, version=version, due_at=due_at, kind=kind)


def schedule_due(
    *, round_id: int, version: int, due_at: datetime | None, kind: str | None = None
) -> None:
    """Wake ``round_due_fire(round_id=, version=)`` at ``due_at``.

    ``kind`` (optional, the round's ``due_kind``) only routes bot turns to the
    bots' task so that a deployment may give them their own queue.
    """
    if due_at is None:
        return
    if scheduler_name() == "celery":
        _schedule_celery(round_id, version, due_at, kind)
    else:
        ticker.schedule(round_id, version, due_at)


def on_round_finished(sender: Any, *, round_id: int, **_: Any) -> None:
    """The receiver of `games.signals.round_finished` (after the round's commit):
    the round joins the analysis queue (`analysis.queue`), which then wakes
    the worker. A failure is logged: the sweeper queues what was missed."""
    try:
        analysis_enqueue_finished(round_id=round_id)
    except Exception:  # noqa: BLE001 - the sweeper is the safety net
        log.exception("could not queue the analysis of round %s", round_id)


def on_analysis_queued(sender: Any, **_: Any) -> None:
    """The receiver of `analysis.signals.analysis_queued`: wake the analysis worker."""
    wake_analysis()


def wake_analysis() -> None:
    """Have the analysis queue drained: the Celery task ``analysis.next`` on its
    own queue in production (unless one already waits to start:
    `domino_site.wakeups`), a job of the ticker when embedded (one at a time,
    apart from the due actions). A lost wake-up is made up by the sweeper."""
    if scheduler_name() == "celery":
        try:
            wakeups.wake_once("analysis", analysis_next.apply_async)
        except Exception:  # noqa: BLE001 - the sweeper is the safety net
            log.exception("could not wake the analysis worker")
    else:
        ticker.submit(ANALYSIS_JOB, offload.drain_analyses)


def on_mail_queued(sender: Any, *, mail_id: int, **_: Any) -> None:
    """The receiver of `accounts.signals.mail_queued` (after the commit that
    wrote the message): have it sent."""
    wake_mail(mail_id=mail_id)


def wake_mail(*, mail_id: int) -> None:
    """Send the outbox's message ``mail_id``: the Celery task
    ``accounts.mail_send`` in production (retried with a growing delay), the
    ticker's mail job when embedded (its own thread, never the database
    threads of play). A lost wake-up is made up by the sweeper."""
    if scheduler_name() == "celery":
        try:
            mail_send_task.apply_async(kwargs={"mail_id": mail_id})
        except Exception:  # noqa: BLE001 - the sweeper is the safety net
            log.exception("could not queue mail %s", mail_id)
    else:
        ticker.submit(MAIL_JOB, _send_mail)


def _send_mail() -> object:
    return jobs.run("mail")


def on_arena_due(sender: Any, *, arena_id: int, at: datetime, **_: Any) -> None:
    """The receiver of `arenas.signals.arena_due`: the arena's tick at ``at``."""
    schedule_arena(arena_id=arena_id, at=at)


def schedule_arena(*, arena_id: int, at: datetime) -> None:
    if scheduler_name() != "celery":
        ticker.schedule_arena(arena_id, at)
        return
    if at - world().now() > MAX_ETA:
        return  # the sweeper ticks it
    try:
        tick_arena.apply_async(kwargs={"arena_id": arena_id}, eta=at)
    except Exception:  # noqa: BLE001 - the sweeper is the safety net
        log.exception("could not schedule arena %s at %s", arena_id, at)


def on_quick_due(sender: Any, *, at: datetime, **_: Any) -> None:
    """The receiver of `quick.signals.quick_due` (connected by ``timers.apps``)."""
    schedule_quick(at=at)


def schedule_quick(*, at: datetime) -> None:
    """Run a quick-match pairing pass (`quick.services.quick_pair`) at ``at``: the
    ticker's next pass (in process), or a Celery task. A Celery pass does not
    chain the next one: the sweeper's beat runs a pass too, so the people still
    waiting are looked at again within a sweep."""
    if scheduler_name() == "celery":
        try:
            quick_pair.apply_async(eta=at if at > world().now() else None)
        except Exception:  # noqa: BLE001 - the sweeper is the safety net
            log.exception("could not schedule a quick-match pass at %s", at)
    else:
        ticker.schedule_quick(at)


def scheduler_name() -> str:
    return getattr(settings, "DOMINO_SCHEDULER", "inprocess")


async def start_inprocess_scheduler() -> None:
    """Start the ticker on the running event loop (embedded mode only).

    Called by the ASGI wrapper on every connection (Daphne has no lifespan
    hook); cheap once running. The first connection waits until the start-up
    work is done, so that it is not mistaken for a socket of a dead process.
    """
    if scheduler_name() != "inprocess":
        return
    ticker.ensure_started()
    await ticker.ready()


def _schedule_celery(round_id: int, version: int, due_at: datetime, kind: str | None) -> None:
    if due_at - world().now() > MAX_ETA:
        return  # the sweeper fires it
    task = bot_turn if kind == "bot" else round_due
    try:
        task.apply_async(kwargs={"round_id": round_id, "version": version}, eta=due_at)
    except Exception:  # noqa: BLE001 - the sweeper is the safety net
        log.exception("could not schedule round %s v%s at %s", round_id, version, due_at)
