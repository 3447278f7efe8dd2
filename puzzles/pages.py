"""What the puzzles add to the records' profile: the receiver of
`records.signals.profile_parts` (connected in ``puzzles.apps``), at
``"after_history"``: the puzzle rating, the best streak and the latest rated
tries (templates/puzzles/_profile.html). Nothing there names a puzzle's source."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from puzzles.selectors import player_summary, tries_of


def on_profile_parts(sender: Any, *, place: str, person: Any = None, **_: Any) -> str:
    if place == "after_history" and person is not None:
        return puzzles_part(person)
    return ""


def puzzles_part(person: Any) -> str:
    tries = tries_of(user=person)
    if not tries:
        return ""
    context = {"summary": player_summary(user=person), "tries": tries}
    return render_to_string("puzzles/_profile.html", context)
