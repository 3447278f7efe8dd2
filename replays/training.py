"""Part of the replay page: "Train this position" on one's own blunders
(docs/site.md, "Puzzles": a puzzle from your own round). For a signed-in
viewer who held a seat of the round, the analysed decisions of that seat
labelled capivarada (the worst label, `analysis.scoring.THRESHOLDS`), each
with the address that opens it as a puzzle for them (the puzzles' page, by
URL name only: the replays do not import the puzzles)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from analysis.scoring import THRESHOLDS
from records.models import RoundPlayer
from rooms.page_strings import translated

from .page_strings import TRAIN

#: The label offered for training: the worst one.
WORST = THRESHOLDS[-1][0]


def train_boot(rnd: Any, user: Any, analysis: dict[str, Any] | None) -> dict[str, Any] | None:
    """The viewer's own blunders in ``rnd`` (move number -> the address of the
    training puzzle), or None when there are none (or the viewer is a guest)."""
    if user is None or analysis is None:
        return None
    seats = set(
        RoundPlayer.objects.filter(round=rnd, user_id=user.pk).values_list("index", flat=True)
    )
    steps = {
        str(d["seq"]): reverse("puzzles:train", args=[rnd.pk, d["seq"]])
        for d in analysis["decisions"]
        if d["seat"] in seats and d["label"] == WORST
    }
    if not steps:
        return None
    return {"steps": steps, "strings": translated(TRAIN)}
