"""Reads of round analyses for the replay page, the round's JSON and the profile.

Only finished rounds have one (`analysis.services`); who may read it is the
caller's check, the replay's own (`rooms.selectors.may_see_rounds`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import F, FloatField, Q, Sum
from django.db.models.functions import Cast

from analysis.models import AnalysisJob, RoundAnalysis, SeatAccuracy
from analysis.scoring import ACCURACY_SCALE, THRESHOLDS, point_scale
from games.engine import RuleSet
from games.models import Match


def round_analysis(*, rnd: Any) -> dict[str, Any] | None:
    """The analysis of the finished round ``rnd`` (None until it is written):
    every scored decision, and each analysed seat's round and match accuracy."""
    if rnd.finished_at is None:
        return None
    analysis = RoundAnalysis.objects.filter(round=rnd).first()
    if analysis is None:
        return None
    seats = {row.seat: row for row in analysis.seats.all()}
    scale = point_scale(RuleSet.from_dict(rnd.state["rules"]))
    match_rows = SeatAccuracy.objects.filter(match_id=rnd.match_id, seat__in=seats)
    players = []
    for seat, row in sorted(seats.items()):
        same_person = match_rows.filter(seat=seat)
        if row.user_id is None:  # a guest: the seat's guests of the match
            same_person = same_person.filter(user__isnull=True)
        else:
            same_person = same_person.filter(user_id=row.user_id)
        players.append(
            {
                "seat": seat,
                "decisions": row.decisions,
                "accuracy": round(row.accuracy, 1),
                "match_accuracy": _weighted(same_person),
            }
        )
    return {
        "decisions": analysis.decisions,
        "players": players,
        # In the round's points (the partida's and the game of points' scaled).
        "thresholds": {label: value * scale for label, value in THRESHOLDS},
        "accuracy_scale": ACCURACY_SCALE * scale,
    }


def accuracy_by_preset(*, user: Any, may_see_rounds: Callable[[Any], bool]) -> list[dict[str, Any]]:
    """A person's average accuracy per preset over the analysed rounds they
    played (weighted by their decisions), most decisions first: only the rooms
    whose rounds the viewer may see (``may_see_rounds(room)``), as the replays."""
    mine = SeatAccuracy.objects.filter(user=user)
    match_ids = mine.values_list("match_id", flat=True).distinct()
    rooms = {m.room for m in Match.objects.filter(pk__in=match_ids).select_related("room")}
    hidden = [room.pk for room in rooms if not may_see_rounds(room)]
    rows = (
        mine.exclude(match__room_id__in=hidden)
        .values("preset")
        .annotate(
            weighted=Sum(F("accuracy") * Cast("decisions", FloatField())),
            count=Sum("decisions"),
        )
        .order_by("-count", "preset")
    )
    return [
        {
            "preset": row["preset"],
            "decisions": row["count"],
            "accuracy": round(row["weighted"] / row["count"], 1),
        }
        for row in rows
        if row["count"]
    ]


def _weighted(rows: Any) -> float | None:
    total = rows.aggregate(
        weighted=Sum(F("accuracy") * Cast("decisions", FloatField())), count=Sum("decisions")
    )
    if not total["count"]:
        return None
    return round(total["weighted"] / total["count"], 1)


def analysis_status(*, round_id: int) -> dict[str, Any]:
    """Where a finished round's analysis stands (docs/protocol.md, "The round's
    analysis: asking for it"): ``state`` ``done``, ``running``, ``queued`` (with
    ``position``, 1 for the next to run), ``dropped`` (left out: a player may
    ask for it) or ``none`` (never queued); ``asked``: a player asked for it
    (the first priority: asking again changes nothing)."""
    if RoundAnalysis.objects.filter(round_id=round_id).exists():
        return {"state": "done", "position": None, "asked": False}
    job = AnalysisJob.objects.filter(round_id=round_id).first()
    if job is None:
        return {"state": "none", "position": None, "asked": False}
    asked = job.priority == AnalysisJob.Priority.ASKED
    if job.state == AnalysisJob.State.DONE:  # done, yet no analysis: it could not be made
        return {"state": "dropped", "position": None, "asked": asked}
    if job.state != AnalysisJob.State.QUEUED:
        return {"state": job.state, "position": None, "asked": asked}
    ahead = AnalysisJob.objects.filter(state=AnalysisJob.State.QUEUED).filter(
        Q(priority__lt=job.priority)
        | Q(priority=job.priority, queued_at__lt=job.queued_at)
        | Q(priority=job.priority, queued_at=job.queued_at, pk__lt=job.pk)
    )
    return {"state": "queued", "position": ahead.count() + 1, "asked": asked}
