"""``{% next_tournament %}``: the lobby's strip, "Próximo torneio: … às 21:00 —
Participar" (docs/site.md, "Tournaments on a calendar"). The lobby loads it as
it loads the quick match's tag; the lobby's code imports nothing of the arenas.

A fresh site has its schedules' arenas from the first sweep; the strip does
not wait for it: when a schedule has no arena to come yet, it has them created
(`arenas.schedules.schedules_ensure`, idempotent, one query otherwise).
"""

from __future__ import annotations

from typing import Any

from django import template

from arenas import schedule_selectors as calendar
from arenas.schedules import schedules_ensure
from games.world import world

register = template.Library()


@register.inclusion_tag("arenas/_next_strip.html", takes_context=True)
def next_tournament(context: template.Context) -> dict[str, Any]:
    now = world().now()
    schedules_ensure(now=now)
    arena = calendar.next_tournament(now)
    request = context.get("request")
    user = getattr(request, "user", None)
    joined = arena is not None and arena.pk in calendar.joined_ids(user, [arena])
    local = now.astimezone(calendar.site_zone()).date()
    return {
        "arena": arena,
        "joined": joined,
        "running": arena is not None and arena.status == arena.Status.RUNNING,
        "today": arena is not None
        and arena.starts_at.astimezone(calendar.site_zone()).date() == local,
        "logged_in": getattr(user, "is_authenticated", False),
    }
