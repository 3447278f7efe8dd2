"""Writing a finished round's analysis (docs/site.md, "Round analysis").

`round_analyse` is idempotent: a round that is not over, has no result (a
walkover stopped it) or is already analysed is left as it is. The scoring runs
outside any transaction and holds no lock (it takes a second or two of CPU);
the rows are then written in one transaction, and a second worker that raced
it finds the first one's rows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction

from analysis import scoring
from analysis.models import RoundAnalysis, SeatAccuracy
from analysis.pacing import paced_score_round, share_of
from analysis.queue import analysis_claim_next, analysis_finish, analysis_trim, waiting_jobs
from games import engine
from games.models import Move, Round

#: How long after its end a round without a job is left to its own enqueueing
#: before the sweeper queues it (`analysis.queue.analysis_enqueue_missing`).
ANALYSIS_GRACE = timedelta(seconds=60)
HUMAN = "human"
PERSON = "person"

#: What scores a round: `analysis.pacing.paced_score_round`'s signature. The
#: embedded server passes one that runs it in a child process (timers.offload).
Scorer = Callable[..., tuple[list[scoring.Decision], int]]


def round_analyse(
    *,
    round_id: int,
    work: int | None = None,
    scorer: Scorer = paced_score_round,
    share: float = 1.0,
) -> RoundAnalysis | None:
    """Score every human decision with a choice of the finished round ``round_id``
    (with ``scorer``, by default in this process), within ``share`` of a core
    while the machine is busy (`analysis.pacing`)."""
    rnd = Round.objects.select_related("match", "room").filter(pk=round_id).first()
    if rnd is None or rnd.finished_at is None or rnd.result is None:
        return None
    existing = RoundAnalysis.objects.filter(round=rnd).first()
    if existing is not None:
        return existing
    humans = {p["index"]: p for p in rnd.players or () if p.get("kind") == HUMAN}
    rules = engine.RuleSet.from_dict(rnd.state["rules"])
    moves = [
        (m.seat, m.action, m.by)
        for m in Move.objects.filter(round=rnd).order_by("seq").only("seat", "action", "by")
    ]
    seed = scoring.round_seed(rnd.room.code, rnd.match.number, rnd.number, rnd.started_at)
    decisions, cpu_ms = scorer(
        rules, rnd.deal, moves, seed=seed, work=work, scored_seats=humans, share=share
    )
    budget = work if work is not None else int(scoring.LIVE_WORK * scoring.WORK_FACTOR)
    try:
        return _store(rnd, humans, decisions, seed, budget, cpu_ms)
    except IntegrityError:  # another worker stored it first
        return RoundAnalysis.objects.filter(round=rnd).first()


@transaction.atomic
def _store(
    rnd: Round,
    humans: dict[int, dict],
    decisions: list[scoring.Decision],
    seed: int,
    work: int,
    cpu_ms: int,
) -> RoundAnalysis:
    analysis = RoundAnalysis.objects.create(
        round=rnd,
        seed=str(seed),
        work=work,
        decisions=[d.to_dict() for d in decisions],
        cpu_ms=cpu_ms,
    )
    rows = []
    for seat, player in sorted(humans.items()):
        mine = [d for d in decisions if d.seat == seat]
        if not mine:
            continue
        rows.append(
            SeatAccuracy(
                analysis=analysis,
                match=rnd.match,
                seat=seat,
                user_id=player.get("user"),
                preset=rnd.room.preset,
                decisions=len(mine),
                accuracy=scoring.accuracy(mine) or 0.0,
                loss=sum(d.loss for d in mine),
            )
        )
    SeatAccuracy.objects.bulk_create(rows)
    return analysis


#: A worker's drain runs jobs one after the other for this long at most, then
#: leaves the rest to the next wake-up (so a worker restart loses little).
DRAIN_SECONDS = 30.0


def analysis_run_next(
    *, work: int | None = None, scorer: Scorer = paced_score_round
) -> RoundAnalysis | None:
    """The analysis worker's step: hold the queue to its bound, take the next
    job (`analysis.queue`) and analyse its round. None when nothing waited (or
    the round could not be analysed)."""
    analysis_trim()
    job = analysis_claim_next()
    if job is None:
        return None
    done = None
    try:
        done = round_analyse(
            round_id=job.round_id, work=work, scorer=scorer, share=share_of(job.priority)
        )
    finally:  # a failure drops the job (a person may ask again): never a loop on it
        analysis_finish(job=job, done=done is not None)
    return done


def analysis_drain(
    *,
    work: int | None = None,
    scorer: Scorer = paced_score_round,
    seconds: float = DRAIN_SECONDS,
) -> int:
    """`analysis_run_next` until nothing waits or ``seconds`` have passed;
    returns how many rounds it analysed."""
    started, count = time.monotonic(), 0
    while time.monotonic() - started < seconds:
        if analysis_run_next(work=work, scorer=scorer) is not None:
            count += 1
        elif not waiting_jobs():
            break
    return count
