"""``{% people_panel %}``: the lobby's card of friends and requests
(templates/people/_panel.html) for a logged-in person, nothing for a visitor.
The lobby (above the people) shows it through this tag in its page.
``{% people_boot %}``: what every page (base.html) holds for static/js/people.js
to show a challenge (templates/people/_boot.html)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from people.pages import boot, panel

register = template.Library()


@register.simple_tag(takes_context=True)
def people_panel(context: template.Context) -> SafeString:
    request = context["request"]
    if not request.user.is_authenticated:
        return mark_safe("")
    return mark_safe(panel(request))  # rendered from templates/people/_panel.html


@register.simple_tag(takes_context=True)
def people_boot(context: template.Context) -> SafeString:
    """base.html's part for a logged-in person: the challenge toast's markup and words."""
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return mark_safe("")
    return mark_safe(boot(request))  # rendered from templates/people/_boot.html
