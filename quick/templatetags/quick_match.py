"""``{% quick_match %}``: the lobby's "Jogar agora com pessoas" card
(templates/quick/_quick.html). The lobby (its own app, beside the quick
match: neither imports the other) shows it through this tag in its page."""

from __future__ import annotations

from typing import Any

from django import template

from quick.views import quick_context

register = template.Library()


@register.inclusion_tag("quick/_quick.html", takes_context=True)
def quick_match(context: template.Context) -> dict[str, Any]:
    return quick_context(context["request"])
