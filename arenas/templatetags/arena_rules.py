"""``{% arena_rules %}``: the arena's rules as its page states them, with the
numbers the services play by (the rematch wait, the time a match may run past
the end), so that the text and the pairing never disagree."""

from __future__ import annotations

from typing import Any

from django import template

from arenas.services import overtime, rematch_seconds

register = template.Library()


@register.inclusion_tag("arenas/_rules.html")
def arena_rules() -> dict[str, Any]:
    return {
        "rematch_seconds": round(rematch_seconds()),
        "overtime_minutes": round(overtime().total_seconds() / 60),
    }
