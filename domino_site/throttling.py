"""What a person sees when django-axes refuses a login (settings: AXES_*)."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext


def cooloff_minutes() -> int:
    return max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


def lockout_message() -> str:
    minutes = cooloff_minutes()
    return ngettext(
        "Too many failed logins for this account from your address. "
        "Try again in %(minutes)s minute.",
        "Too many failed logins for this account from your address. "
        "Try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the site's page with the reason, 429, for the
    site's login and the admin's alike (the right password does not help)."""
    return render(
        request, "registration/locked_out.html", {"message": lockout_message()}, status=429
    )
