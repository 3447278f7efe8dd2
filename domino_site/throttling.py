"""Failed-login throttling with django-axes (settings: AXES_*, LOGIN_FAILURES_*):
the limits, and what a person sees when a login is refused.

axes counts the failures of each lockout parameter (one account from one
address; one address, whatever the accounts) and locks when the largest count
reaches one limit. `failure_limit` gives the two their own: the address-wide
count is always the larger, so the limit is the per-account one once that
account's failures from this address reach it, and the address-wide one
otherwise."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext


def _account_failures(request: HttpRequest, credentials: Any) -> int:
    """This account's failures from this address (the first lockout parameter)."""
    from axes.handlers.database import AxesDatabaseHandler

    attempts = AxesDatabaseHandler().get_user_attempts(request, credentials)
    if not attempts:
        return 0
    return attempts[0].aggregate(total=Sum("failures_since_start"))["total"] or 0


def failure_limit(request: HttpRequest, credentials: Any = None) -> int:
    """``AXES_FAILURE_LIMIT``: the per-account limit when this account has reached
    it from this address, else the address-wide one."""
    per_account = settings.LOGIN_FAILURES_PER_ACCOUNT
    if _account_failures(request, credentials) >= per_account:
        return per_account
    return settings.LOGIN_FAILURES_PER_ADDRESS


def address_locked(request: HttpRequest, credentials: Any = None) -> bool:
    """Whether the refusal is the address-wide one (not this account's)."""
    return _account_failures(request, credentials) < settings.LOGIN_FAILURES_PER_ACCOUNT


def forget_account_failures(
    sender: Any, request: HttpRequest | None = None, user: Any = None, **kwargs: Any
) -> None:
    """``user_logged_in``: a successful login clears that account's failures from
    that address only (``AXES_RESET_ON_SUCCESS`` would clear every failure of the
    address too, so one valid account would reset a sprayer's count)."""
    from axes.models import AccessAttempt

    address = getattr(request, "axes_ip_address", None)
    if user is None or address is None:
        return
    AccessAttempt.objects.filter(username=user.get_username(), ip_address=address).delete()


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
    if address_locked(request, credentials):
        minutes = cooloff_minutes()
        message = ngettext(
            "Too many failed logins from your address. Try again in %(minutes)s minute.",
            "Too many failed logins from your address. Try again in %(minutes)s minutes.",
            minutes,
        ) % {"minutes": minutes}
    else:
        message = lockout_message()
    return render(request, "registration/locked_out.html", {"message": message}, status=429)


def client_str(
    username: str | None,
    ip_address: str | None,
    user_agent: str | None,
    path_info: Any,
    request: Any,
) -> str:
    """``AXES_CLIENT_STR_CALLABLE``: who axes' log lines are about (a failure, a
    lockout): the path and a short keyed hash of the address. Not the username
    typed (people type their email address there, or their password in the
    wrong field), nor the address itself (docs/scaling.md, "Logs")."""
    from domino_site.client_ip import ip_hash

    path = path_info[0] if isinstance(path_info, tuple | list) and path_info else path_info
    return f"{{path: {path or '-'}, address: {ip_hash(ip_address)[:12] or '-'}}}"
