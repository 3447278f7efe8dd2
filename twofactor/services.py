"""Writes: enrolling an authenticator app, checking a code, the recovery
codes, turning two-step sign-in off. Each is one transaction; one that raises
`TwoFactorError` has changed nothing (but a wrong code's count: django-otp's
throttle, which is the point)."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from .selectors import has_two_factor

RECOVERY_CODES = 10
APP_DEVICE_NAME = "app"
RECOVERY_DEVICE_NAME = "recovery"

WRONG_CODE = _("That code is not right. Check your app's clock, or use a recovery code.")
TOO_SOON = _("Too many wrong codes in a row: wait a few seconds and try again.")
ALREADY_ON = _("Two-step sign-in is already on for this account.")
NOT_ON = _("Two-step sign-in is not on for this account.")

_APP_CODE = re.compile(r"\d{6}")


class TwoFactorError(Exception):
    """A refused request: ``code`` for tests and logs, ``message`` for people."""

    def __init__(self, code: str, message: Any) -> None:
        super().__init__(code)
        self.code = code
        self.message = message


def normalise_code(code: str) -> str:
    """What a person typed, as stored: no spaces or dashes, lower case (the
    recovery codes are base32, lower case)."""
    return re.sub(r"[\s-]", "", code).lower()


@transaction.atomic
def app_pending(*, user: Any) -> TOTPDevice:
    """The authenticator app being enrolled: the account's unconfirmed device,
    made once, so that showing the page again shows the same secret."""
    if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        raise TwoFactorError("already_on", ALREADY_ON)
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=APP_DEVICE_NAME, confirmed=False)
    return device


def app_confirm(*, user: Any, code: str) -> tuple[TOTPDevice, list[str]]:
    """The first code from the app turns two-step sign-in on: the device is
    confirmed and the account gets new recovery codes, returned to be shown once."""
    with transaction.atomic():
        if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
            raise TwoFactorError("already_on", ALREADY_ON)
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
        if device is None:
            raise TwoFactorError("wrong_code", WRONG_CODE)
        refused = _refusal(device, normalise_code(code))  # a wrong code's count stays
        if refused is None:
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            return device, _new_recovery_codes(user)
    raise refused


def code_check(*, user: Any, code: str) -> Device:
    """The device of ``user`` that accepts ``code``: six digits are the app's
    code, anything else a recovery code (used up by this). Raises
    `TwoFactorError` (``wrong_code``, or ``too_soon`` while django-otp's
    back-off after wrong codes lasts; each wrong code lengthens it)."""
    code = normalise_code(code)
    model: type[Device] = TOTPDevice if _APP_CODE.fullmatch(code) else StaticDevice
    with transaction.atomic():
        device = model.objects.select_for_update().filter(user=user, confirmed=True).first()
        if device is None or not code:
            raise TwoFactorError("wrong_code", WRONG_CODE)
        refused = _refusal(device, code)  # a wrong code's count (the throttle) stays
        if refused is None:
            return device
    raise refused


@transaction.atomic
def recovery_codes_renew(*, user: Any) -> list[str]:
    """New recovery codes; the old ones no longer work."""
    if not has_two_factor(user):
        raise TwoFactorError("not_on", NOT_ON)
    return _new_recovery_codes(user)


@transaction.atomic
def two_factor_off(*, user: Any) -> None:
    """No more second step: the app and the recovery codes are forgotten (a
    session verified with them is no longer verified)."""
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


def _refusal(device: Any, code: str) -> TwoFactorError | None:
    """None when ``device`` accepts ``code``; else why not (the device counted it)."""
    allowed, _data = device.verify_is_allowed()
    if not allowed:
        return TwoFactorError("too_soon", TOO_SOON)
    if not device.verify_token(code):
        return TwoFactorError("wrong_code", WRONG_CODE)
    return None


def _new_recovery_codes(user: Any) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_DEVICE_NAME, confirmed=True)
    codes: list[str] = []
    while len(codes) < RECOVERY_CODES:
        token = StaticToken.random_token()
        if token not in codes:
            codes.append(token)
    StaticToken.objects.bulk_create(StaticToken(device=device, token=t) for t in codes)
    return codes
