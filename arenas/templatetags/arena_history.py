"""``{% arenas_played person %}``: the arenas a profile's account played, with
its rank (the profile page is the rooms' and cannot import the arenas above
them; a template tag joins the two in the page)."""

from __future__ import annotations

from typing import Any

from django import template

from arenas.models import ArenaMatch
from arenas.selectors import arenas_of, current_rank

register = template.Library()


@register.inclusion_tag("arenas/_profile.html")
def arenas_played(person: Any) -> dict[str, Any]:
    rows = [
        {"arena": p.arena, "rank": current_rank(p), "score": p.score, "matches": p.matches}
        for p in arenas_of(person)
    ]
    return {"rows": rows}


@register.inclusion_tag("arenas/_table_link.html")
def arena_link(code: str) -> dict[str, Any]:
    """On a table page: the way back to the arena this table belongs to (if any)."""
    am = ArenaMatch.objects.filter(room__code=code).select_related("arena").first()
    return {"arena": am.arena if am is not None else None, "code": code}
