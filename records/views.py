"""The records' pages (docs/site.md, "Accounts, records, ranking"): ``/ranking/``
and the profile, ``/players/<username>/``. Who may see a room's rounds is the
rooms' rule and the accuracy the analysis', both above the records: the
profile asks for them through `records.signals` (``rounds_visible``,
``profile_parts``), never by an import."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from domino_site.removed import is_tombstone
from games.presets import PRESET_LABELS
from records import selectors
from records.models import ALL_PRESETS, Rating
from records.signals import PROFILE_PLACES, profile_parts, rounds_visible


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


# ------------------------------------------------------------------ profile


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/``: record, rating and its history, the same per
    preset (with the carroças, lá-e-lôs and cruzadas made at a partida table),
    recent matches (a private room's only for whoever may see that room:
    `records.selectors.shown_matches`), and the parts of the apps above (`records.signals.profile_parts`)."""
    person = get_user_model().objects.filter(username=username).first()
    if person is None or is_tombstone(person.username):  # a removed account has no page
        raise Http404(_("There is no player with this name."))
    may_see_rounds = viewer_may_see_rounds(request)
    stats = selectors.player_stats(person, may_see_rounds=may_see_rounds)
    for line in stats["recent"]:
        line.preset_label = PRESET_LABELS.get(line.match.room.preset, line.match.room.preset)
    for row in stats["by_preset"]:
        row.label = PRESET_LABELS.get(row.preset, row.preset)
        row.ranked = row.preset in PRESET_LABELS  # the ranking's filter knows it
    favourite = stats["favourite_preset"]
    context = {
        "person": person,
        "stats": stats,
        "favourite_label": PRESET_LABELS.get(favourite, favourite) if favourite else None,
        "parts": {
            place: _profile_parts(
                place, person=person, request=request, may_see_rounds=may_see_rounds
            )
            for place in PROFILE_PLACES
        },
    }
    return render(request, "records/player.html", context)


def viewer_may_see_rounds(request: HttpRequest) -> Callable[[Any], bool]:
    """This viewer's right to see a room's finished rounds, asked of the apps
    above once per room (`records.signals.rounds_visible`): hidden unless one
    of them answers ``True``."""
    seen: dict[Any, bool] = {}

    def may_see_rounds(room: Any) -> bool:
        if room.pk not in seen:
            answers = rounds_visible.send(sender=Rating, room=room, request=request)
            seen[room.pk] = any(answer is True for _receiver, answer in answers)
        return seen[room.pk]

    return may_see_rounds


def _profile_parts(place: str, **about: Any) -> SafeString:
    """What the apps above the records add to the profile at ``place``: their
    receivers' HTML, rendered from their own templates, in their order."""
    answers = profile_parts.send(sender=Rating, place=place, **about)
    return mark_safe("".join(str(html) for _receiver, html in answers if html))  # their templates'
