"""Signing in in two steps. A right password for an account with an
authenticator app does not sign in: it leaves, in the session, who gave it
(the account, its backend, its session hash: a password changed meanwhile
ends it), when, and where to go after; the person stays signed out until the
second step (`twofactor.views.verify`) gives a right code. Every sign-in
with a password goes through `sign_in` (docs/site.md, "Two-step sign-in")."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django_otp import login as otp_login
from django_otp.models import Device

from .selectors import has_two_factor

PENDING = "twofactor_pending"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def sign_in(
    request: HttpRequest, user: Any, *, next_url: str, backend: str | None = None
) -> HttpResponse:
    """After a right password: signed in, or (an account with two-step sign-in)
    on to the second step. ``next_url`` must be a safe address already."""
    backend = backend or getattr(user, "backend", None)
    if has_two_factor(user):
        request.session[PENDING] = {
            "user": user.pk,
            "backend": backend,
            "hash": user.get_session_auth_hash(),
            "at": time.time(),
            "next": next_url,
        }
        return HttpResponseRedirect(reverse("twofactor:verify"))
    auth_login(request, user, backend=backend)
    return HttpResponseRedirect(next_url)


def pending(request: HttpRequest) -> tuple[Any, str] | None:
    """The account waiting for its second step in this session, and where it
    goes after; None (and forgotten) when there is none, it is older than
    ``TWO_FACTOR_STEP_SECONDS`` or its password changed."""
    data = request.session.get(PENDING)
    if not isinstance(data, dict):
        return None
    fresh = time.time() - float(data.get("at", 0)) <= settings.TWO_FACTOR_STEP_SECONDS
    user = get_user_model().objects.filter(pk=data.get("user", 0), is_active=True).first()
    if (
        not fresh
        or user is None
        or not constant_time_compare(user.get_session_auth_hash(), str(data.get("hash")))
    ):
        forget(request)
        return None
    user.backend = str(data.get("backend") or "")
    return user, str(data.get("next") or "/")


def forget(request: HttpRequest) -> None:
    request.session.pop(PENDING, None)


def finish(request: HttpRequest, user: Any, device: Device) -> None:
    """The second step passed: signed in (a new session key), with this device."""
    forget(request)
    if request.user.is_authenticated and request.user.pk == user.pk:
        request.session.cycle_key()  # a session signed in before: now verified
    else:
        auth_login(request, user, backend=getattr(user, "backend", None) or MODEL_BACKEND)
    otp_login(request, device)
