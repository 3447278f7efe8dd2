"""The analysis queue (docs/site.md, "Round analysis: what is analysed and
when"): which finished rounds wait for the analysis worker, in what order, and
what is dropped. Writes only (services); its reads are `analysis.selectors`.

Every finished round gets a job as it ends (`analysis_enqueue_finished`): a
rated round at ``RATED``, any other at ``IDLE``. The worker always takes the
queued job of the lowest priority, oldest first (`analysis_claim_next`), so a
background job runs only when nobody waits for one. A person raises a round to
``ASKED`` (a player of the round asks) or ``OPENED`` (anyone who may see it
opens its replay) with `analysis_ask`; each person holds at most
``ANALYSIS_PERSON_LIMIT`` such jobs at a time, and a full queue of them
refuses more. The background is bounded: past ``ANALYSIS_QUEUE_BOUND`` queued
jobs, the oldest background ones are dropped (`hold_bound`, as each round is
queued; `analysis_trim`, by the worker and the sweeper); a dropped round is
analysed only if a person asks later.

After the commit of a change that queued something, `analysis.signals.analysis_queued`
tells whoever wakes the worker (``timers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from analysis.models import AnalysisJob, RoundAnalysis
from analysis.signals import analysis_queued
from games.errors import ServiceError
from games.models import Round
from games.world import now_or
from records.models import MatchLineup

Priority = AnalysisJob.Priority
State = AnalysisJob.State

#: Queued jobs at most; past it, background jobs are dropped (oldest first)
#: and a person's request is refused.
DEFAULT_BOUND = 200
#: Jobs a person may have asked for (or opened) and not yet seen done.
DEFAULT_PERSON_LIMIT = 3
#: A job running this long lost its worker (killed): queued again.
STUCK_AFTER = timedelta(minutes=5)
PERSONAL = (Priority.ASKED, Priority.OPENED)


def queue_bound() -> int:
    return int(getattr(settings, "ANALYSIS_QUEUE_BOUND", DEFAULT_BOUND))


def person_limit() -> int:
    return int(getattr(settings, "ANALYSIS_PERSON_LIMIT", DEFAULT_PERSON_LIMIT))


@dataclass(frozen=True)
class Queued:
    """What a change did to a round's job: its state and priority after it, and
    whether it changed anything."""

    round_id: int
    state: str
    priority: int | None
    changed: bool


def _tell_after_commit() -> None:
    transaction.on_commit(lambda: analysis_queued.send(sender=AnalysisJob), robust=True)


def analysis_enqueue_finished(*, round_id: int, now: datetime | None = None) -> Queued | None:
    """The job of a round that just ended (after its commit): ``RATED`` when its
    match counts for ratings, else ``IDLE``. Nothing for a round without a
    result (a walkover stopped it) or that has a job already."""
    finished = Round.objects.filter(pk=round_id, finished_at__isnull=False, result__isnull=False)
    match_id = finished.values_list("match_id", flat=True).first()
    if match_id is None:
        return None
    rated = MatchLineup.objects.filter(match_id=match_id, rated=True).exists()
    priority = Priority.RATED if rated else Priority.IDLE
    try:
        with transaction.atomic():
            AnalysisJob.objects.create(
                round_id=round_id, priority=priority, state=State.QUEUED, queued_at=now_or(now)
            )
            hold_bound(now=now)  # in the same commit: the queue is never seen past it
            _tell_after_commit()
    except IntegrityError:  # already queued (the sweeper, or a person, came first)
        return None
    return Queued(round_id, State.QUEUED, priority, True)


@transaction.atomic
def analysis_ask(
    *, round_id: int, person: str, opened: bool = False, now: datetime | None = None
) -> Queued:
    """``person`` (``user:<id>`` or ``guest:<key>``) asks for the analysis of the
    finished round ``round_id`` (``opened``: by opening its replay). The caller
    has checked that they may (a player of the round; a viewer of the replay).

    Raises `ServiceError` ``analysis_limit`` when the person already holds
    ``ANALYSIS_PERSON_LIMIT`` jobs, ``analysis_full`` when the queue is full of
    people's jobs (an opened replay is never refused: it just changes nothing).
    """
    now = now_or(now)
    wanted = Priority.OPENED if opened else Priority.ASKED
    list(Round.objects.select_for_update().filter(pk=round_id).values_list("pk"))  # one at a time
    job = AnalysisJob.objects.filter(round_id=round_id).first()
    if RoundAnalysis.objects.filter(round_id=round_id).exists():
        return Queued(round_id, State.DONE, job.priority if job else None, False)
    if job is not None and (
        job.state == State.RUNNING or (job.state == State.QUEUED and job.priority <= wanted)
    ):
        return Queued(round_id, job.state, job.priority, False)
    refusal = _refusal(person)
    if refusal is not None:
        if opened:
            return Queued(
                round_id, job.state if job else "none", job.priority if job else None, False
            )
        raise refusal
    if job is None:
        job = AnalysisJob(round_id=round_id)
    if job.state != State.QUEUED:
        job.queued_at = now  # a dropped (or failed) job joins at the back of its priority
    job.priority, job.state, job.person = wanted, State.QUEUED, person
    job.save()
    _tell_after_commit()
    return Queued(round_id, State.QUEUED, wanted, True)


def _refusal(person: str) -> ServiceError | None:
    pending = AnalysisJob.objects.filter(
        person=person, state__in=(State.QUEUED, State.RUNNING), priority__in=PERSONAL
    ).count()
    if pending >= person_limit():
        return ServiceError(
            "analysis_limit",
            _("You already have %(n)d analyses waiting: wait for one to finish.") % {"n": pending},
        )
    personal = AnalysisJob.objects.filter(state=State.QUEUED, priority__in=PERSONAL).count()
    if personal >= queue_bound():
        return ServiceError("analysis_full", _("The analysis queue is full: try again later."))
    return None


def analysis_claim_next(*, now: datetime | None = None) -> AnalysisJob | None:
    """Take the next job (lowest priority, oldest first) for this worker: it is
    ``RUNNING`` when this returns; None when nothing waits. Two workers never
    take the same one (the row is locked, and locked rows skipped)."""
    with transaction.atomic():
        job = (
            AnalysisJob.objects.select_for_update(skip_locked=True)
            .filter(state=State.QUEUED)
            .order_by("priority", "queued_at", "id")
            .first()
        )
        if job is None:
            return None
        job.state, job.started_at = State.RUNNING, now_or(now)
        job.save(update_fields=["state", "started_at"])
    return job


def analysis_finish(*, job: AnalysisJob, done: bool, now: datetime | None = None) -> None:
    """The worker is through with ``job``: analysed, or not (the round could not
    be: a walkover, a failure), and then dropped."""
    job.state = State.DONE if done else State.DROPPED
    job.finished_at = now_or(now)
    AnalysisJob.objects.filter(pk=job.pk, state=State.RUNNING).update(
        state=job.state, finished_at=job.finished_at
    )


def analysis_trim(*, now: datetime | None = None) -> int:
    """Hold the queue to its bound (`hold_bound`), and queue again the jobs
    whose worker was lost. Returns how many it dropped."""
    now = now_or(now)
    AnalysisJob.objects.filter(state=State.RUNNING, started_at__lt=now - STUCK_AFTER).update(
        state=State.QUEUED, started_at=None
    )
    return hold_bound(now=now)


def hold_bound(*, now: datetime | None = None) -> int:
    """Drop the oldest background jobs past the bound (*when idle* first, then
    *rated*); people's jobs are never dropped. Returns how many it dropped."""
    queued = AnalysisJob.objects.filter(state=State.QUEUED)
    excess = queued.count() - queue_bound()
    if excess <= 0:
        return 0
    oldest = (
        queued.exclude(priority__in=PERSONAL)
        .order_by("-priority", "queued_at", "id")
        .values_list("pk", flat=True)[:excess]
    )
    return AnalysisJob.objects.filter(pk__in=list(oldest), state=State.QUEUED).update(
        state=State.DROPPED, finished_at=now_or(now)
    )


def analysis_enqueue_missing(*, before: datetime, limit: int = 20) -> list[int]:
    """The sweeper's safety net: a job for each round that ended before
    ``before`` (and within a day) with a result, no job and no analysis (the
    wake-up at its end was lost). Returns their ids."""
    missing = list(
        Round.objects.filter(
            finished_at__lt=before,
            finished_at__gte=before - timedelta(days=1),
            result__isnull=False,
            analysis__isnull=True,
            analysis_job__isnull=True,
        )
        .order_by("finished_at")
        .values_list("pk", flat=True)[:limit]
    )
    for round_id in missing:
        analysis_enqueue_finished(round_id=round_id)
    return missing


def waiting_jobs() -> bool:
    return AnalysisJob.objects.filter(Q(state=State.QUEUED)).exists()
