"""Reads: whether an account has a second factor, its recovery codes left,
whether a request was verified, whether the admin asks for it, and the
enrolment's secret as a person types it or scans it."""

from __future__ import annotations

from base64 import b32encode
from typing import Any

import segno
from django.conf import settings
from django.http import HttpRequest
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice


def admin_requires_second_factor() -> bool:
    """The one rule: staff enter the admin only after a second factor whenever
    ``DEBUG`` is off (docs/site.md, "Two-step sign-in")."""
    return not settings.DEBUG


def has_two_factor(user: Any) -> bool:
    """Whether the account signs in in two steps: a confirmed authenticator
    app, or recovery codes left (an operator may hand out one-time codes with
    django-otp's ``manage.py addstatictoken <username>``)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return has_app(user) or recovery_codes_left(user) > 0


def has_app(user: Any) -> bool:
    """Whether the account has a confirmed authenticator app."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def request_verified(request: HttpRequest) -> bool:
    """Whether this session gave the second factor (django-otp's
    ``OTPMiddleware`` sets ``user.is_verified``)."""
    is_verified = getattr(request.user, "is_verified", None)
    return bool(is_verified and is_verified())


def recovery_codes_left(user: Any) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()


def recovery_device(user: Any) -> StaticDevice | None:
    return StaticDevice.objects.filter(user=user, confirmed=True).first()


def app_device(user: Any) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=True).first()


def secret_text(device: TOTPDevice) -> str:
    """The secret in base32 as authenticator apps take it typed, in groups of four."""
    secret = b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def qr_data_url(device: TOTPDevice) -> str:
    """The ``otpauth://`` address as a QR code, an SVG ``data:`` URL: an image
    the Content-Security-Policy allows (``img-src data:``), drawn on the server."""
    return segno.make(device.config_url, error="m").svg_data_uri(scale=5, border=2)
