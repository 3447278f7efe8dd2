"""The records' pages: ``/ranking/`` (docs/site.md, "Accounts, records, ranking").
The profile (``/players/<username>/``) stays the rooms' (rooms/views.py): who
may see a room's rounds is the rooms' rule, and its accuracy is the analysis',
both above records."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.presets import PRESET_LABELS
from records import selectors
from records.models import ALL_PRESETS


@require_GET
def ranking(request: HttpRequest) -> HttpResponse:
    """``/ranking/[?by=rating|xp][&preset=key][&page=n]``: by rating (after a
    minimum of rated matches) or by experience points, over every preset or one."""
    by = "xp" if request.GET.get("by") == "xp" else "rating"
    preset = request.GET.get("preset") or ALL_PRESETS
    if preset not in PRESET_LABELS:
        preset = ALL_PRESETS
    page = selectors.ranking(by=by, preset=preset, page=request.GET.get("page") or 1)
    user = request.user if request.user.is_authenticated else None
    context = {
        "page": page,
        "rows": page.object_list,
        "by": by,
        "preset": preset,
        "presets": [(key, label) for key, label in PRESET_LABELS.items()],
        "min_matches": selectors.ranking_min_matches(),
        "my_position": selectors.ranking_position(user=user, by=by, preset=preset),
    }
    return render(request, "records/ranking.html", context)
