"""``{% two_factor_panel %}``: two-step sign-in's part of the account page
("Conta"): on or off, and the way to ``/accounts/2fa/``
(templates/twofactor/_panel.html); nothing for a visitor."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from twofactor import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def two_factor_panel(context: template.Context) -> SafeString:
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return mark_safe("")
    user = request.user
    html = render_to_string(
        "twofactor/_panel.html",
        {"on": selectors.has_two_factor(user), "codes_left": selectors.recovery_codes_left(user)},
        request=request,
    )
    return mark_safe(html)  # rendered from templates/twofactor/_panel.html
