"""``{% arenas_played person %}``: the arenas a profile's account played, with
its rank (the profile page is the rooms' and cannot import the arenas above
them; a template tag joins the two in the page)."""

from __future__ import annotations

from typing import Any

from django import template

from arenas.selectors import arenas_of, current_rank

register = template.Library()


@register.inclusion_tag("arenas/_profile.html")
def arenas_played(person: Any) -> dict[str, Any]:
    rows = [
        {"arena": p.arena, "rank": current_rank(p), "score": p.score, "matches": p.matches}
        for p in arenas_of(person)
    ]
    return {"rows": rows}
