"""What the arenas add to the pages below them: the receivers of
`rooms.signals.page_parts` and `records.signals.profile_parts` (connected in
``arenas.apps``). The rooms' and the records' templates load no tag of the
arenas; their views show the HTML rendered here.

* the rooms' ``"table"`` and ``"closed"``: the way back to the arena a table
  belongs to (templates/arenas/_table_link.html), even once the table is closed;
* the profile's ``"end"``: the arenas its account played, with its rank
  (templates/arenas/_profile.html); a private arena only to whoever may see
  it (`arenas.selectors.arena_visible`), as the profile's private tables.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from arenas.models import ArenaMatch
from arenas.selectors import arena_visible, arenas_of, current_rank


def on_page_parts(sender: Any, *, page: str, room: Any = None, **_: Any) -> str:
    if page in ("table", "closed") and room is not None:
        return arena_link(room)
    return ""


def on_profile_parts(
    sender: Any, *, place: str, person: Any = None, request: Any = None, **_: Any
) -> str:
    if place == "end" and person is not None:
        return arenas_played(person, viewer=getattr(request, "user", None))
    return ""


def arena_link(room: Any) -> str:
    """On a table page: the way back to the arena this table belongs to (if any)."""
    am = ArenaMatch.objects.filter(room_id=room.pk).select_related("arena").first()
    context = {"arena": am.arena if am is not None else None, "code": room.code}
    return render_to_string("arenas/_table_link.html", context)


def arenas_played(person: Any, *, viewer: Any = None) -> str:
    """On a profile: the arenas its account played, with its rank; a private
    one only where ``viewer`` may see it (`arena_visible`: its creator, its
    players, admins), else not at all, neither its rank nor its score."""
    rows = [
        {"arena": p.arena, "rank": current_rank(p), "score": p.score, "matches": p.matches}
        for p in arenas_of(person)
        if arena_visible(p.arena, viewer)
    ]
    return render_to_string("arenas/_profile.html", {"rows": rows})
