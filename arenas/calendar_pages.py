"""The tournaments' calendar on the pages (docs/site.md, "Tournaments on a
calendar"): the list's schedules and join-ahead buttons, the ranking page's
season (`records.signals.ranking_parts`), the profile's season and badges
(`records.signals.profile_parts`, place ``"people"``). Connected in
``arenas.apps``; the records' templates load no tag of the arenas.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import pgettext_lazy

from arenas import schedule_selectors as calendar
from arenas import selectors
from arenas.models import Arena
from arenas.schedules import schedules_ensure
from games.world import world

SEASON_ROWS = 10
# The games' short names, for the season's headings and badges (the presets'
# own labels explain the game, too long for a badge).
SHORT_LABELS: dict[str, Any] = {
    "duelo": pgettext_lazy("an arena game", "Duel"),
    "parceria": pgettext_lazy("an arena game", "Parceria"),
}


def _short(preset: str) -> str:
    return str(SHORT_LABELS.get(preset, preset))


def list_context(request: HttpRequest) -> dict[str, Any]:
    """/torneios/: the public arenas by status, the schedules with their next
    start, and which upcoming ones the viewer joined ahead."""
    now = world().now()
    schedules_ensure(now=now)  # a fresh site: its calendar before the first sweep
    arenas = selectors.public_arenas()
    shown = [*arenas["running"], *arenas["upcoming"]]
    return {
        "arenas": arenas,
        "schedules": calendar.schedule_rows(now),
        "joined": calendar.joined_ids(request.user, shown),
    }


def _season_tables(first_day: Any, limit: int | None) -> list[dict[str, Any]]:
    return [
        {
            "preset": preset,
            "label": _short(preset),
            "rows": calendar.season_standings(preset=preset, first_day=first_day, limit=limit),
        }
        for preset in Arena.Preset.values
    ]


def on_ranking_parts(sender: Any, *, request: Any = None, **_: Any) -> str:
    """The ranking page's season: the current season's standings per preset."""
    first_day = calendar.current_season(world().now())
    _start, end = calendar.season_range(first_day)
    viewer = getattr(request, "user", None)
    context = {
        "season": first_day,
        "last_day": (end - timedelta(days=1)).date(),
        "tables": _season_tables(first_day, SEASON_ROWS),
        "viewer_id": getattr(viewer, "pk", None)
        if getattr(viewer, "is_authenticated", False)
        else None,
    }
    return render_to_string("arenas/_season_ranking.html", context)


def on_profile_season(sender: Any, *, place: str, person: Any = None, **_: Any) -> str:
    """The profile's season: the account's place this season per preset, and
    the badges of the seasons it finished on the podium (kept for good)."""
    if place != "people" or person is None:
        return ""
    first_day = calendar.current_season(world().now())
    places = [
        {
            "label": label,
            "row": calendar.season_place(user=person, preset=preset, first_day=first_day),
        }
        for preset, label in Arena.Preset.choices
    ]
    context = {
        "season": first_day,
        "places": [p for p in places if p["row"] is not None],
        "badges": [{"badge": b, "label": _short(b.preset)} for b in calendar.badges_of(person)],
    }
    return render_to_string("arenas/_profile_season.html", context)
