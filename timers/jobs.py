"""The timers' jobs, in one registry (docs/architecture.md, "The processes of a deployment").

A job is a name and an idempotent function of plain arguments (ids, versions,
``now``): running it twice, late, or after the work was done by somebody else
does nothing wrong, so a lost or duplicated wake-up is harmless. Both runners
call through this registry: the in-process ticker of the embedded mode
(`timers.ticker`) and the Celery tasks of production (`timers.tasks`, whose
generic ``timers.job`` task runs any job by its name). Adding a job is one line
in ``JOBS``.

>>> sorted(JOBS)
['arena_tick', 'mail', 'mail_due', 'quick_pair', 'round_due', 'sweep']
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from accounts.mail import mail_send_due, mail_tidy
from accounts.selectors import mail_due_ids
from accounts.services import recovery_tidy
from accounts.sessions import sessions_tidy
from analysis.queue import analysis_enqueue_missing, analysis_trim, waiting_jobs
from analysis.services import ANALYSIS_GRACE
from arenas.services import arena_tick, arenas_sweep
from domino_site.heartbeats import sweep_done
from domino_site.logs import bound
from games.world import world
from people.services import presence_sweep
from privacy.services import retention_sweep
from puzzles.services import puzzles_waiting
from quick.services import quick_pair
from rooms.services import rooms_sweep, round_due_fire


def round_due(*, round_id: int, version: int, now: datetime | None = None) -> bool:
    """A round's due action (a bot's turn, the clock's timeout move, a
    disconnected player's auto move, a walkover): nothing unless the round is
    still at ``version`` and due."""
    return round_due_fire(round_id=round_id, version=version, now=now)


def arena_tick_job(*, arena_id: int, now: datetime | None = None) -> bool:
    """An arena's tick: start, score, pair, end (the arena row's lock makes two
    at once run one after the other)."""
    return arena_tick(arena=arena_id, now=now)


def quick_pair_job(*, now: datetime | None = None) -> datetime | None:
    """A quick-match pairing pass; when the next is due (people still wait) or None."""
    return quick_pair(now=now)


def mail() -> int:
    """Send the outbox's messages that are due (accounts.mail): after their
    commit, and again after a failure, each time later. How many were sent."""
    return mail_send_due()


def mail_due() -> list[int]:
    """The outbox's messages whose time has come (unsent after a failure, or
    their wake-up lost): the runners wake the mail sender for them after a sweep."""
    return mail_due_ids()


def sweep(*, now: datetime | None = None) -> str | None:
    """The safety net: room expiry, disconnect grace, walkovers, every due action
    whose wake-up was lost, the arenas' ticks, the analysis queue (rounds never
    queued, its bound), the presences of dead server processes' sockets, the
    retention of people's data (`privacy.services.retention_sweep`: at most
    once an hour, in small batches), the accounts' housekeeping (sent mail,
    recovery requests and session rows past their time; the runners then wake
    the mail sender while mail waits). Says
    what background work waits, for the runner to wake its analysis worker (a
    Celery task, or a side job of the ticker) with: ``"analysis"`` while
    analysis jobs wait, else ``"puzzles"`` while the puzzles have rounds to cut
    or candidates to check (analyses first), else None."""
    now = now or world().now()
    rooms_sweep(now=now)
    arenas_sweep(now=now)
    presence_sweep(now=now)
    retention_sweep(now=now)
    analysis_enqueue_missing(before=now - ANALYSIS_GRACE)
    analysis_trim(now=now)  # the bound holds even while the analysis worker is starved
    mail_tidy()  # the accounts' rows: on the wall clock (mail is not a game's time)
    recovery_tidy()
    sessions_tidy()
    sweep_done()  # the admin's "Saúde do site" shows when (domino_site.heartbeats)
    if waiting_jobs():
        return "analysis"
    return "puzzles" if puzzles_waiting() else None


#: Every job by name: an idempotent function of keyword arguments.
JOBS: dict[str, Callable[..., Any]] = {
    "round_due": round_due,
    "mail": mail,
    "mail_due": mail_due,
    "arena_tick": arena_tick_job,
    "quick_pair": quick_pair_job,
    "sweep": sweep,
}


def run(name: str, **kwargs: Any) -> Any:
    """Run the job ``name`` with ``kwargs`` (a `KeyError` for an unknown name);
    what it logs carries its round or arena (domino_site.logs)."""
    with bound(round_id=kwargs.get("round_id"), arena_id=kwargs.get("arena_id")):
        return JOBS[name](**kwargs)
