"""The forms of the two-step pages: a code (the app's or a recovery code),
and the password where a change asks for it."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from domino_site.validators import validate_encodable

from .services import normalise_code

CODE_SHAPE = re.compile(r"[0-9a-z]{6,16}")
BAD_SHAPE = _("Type the six digits your app shows, or one of your recovery codes.")
WRONG_PASSWORD = _("That is not your password.")


class CodeForm(forms.Form):
    code = forms.CharField(
        label=_("Code from your app, or a recovery code"),
        max_length=64,
        strip=True,
        validators=[validate_encodable],
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autocapitalize": "off", "spellcheck": "false"}
        ),
    )

    def clean_code(self) -> str:
        code = normalise_code(self.cleaned_data["code"])
        if not CODE_SHAPE.fullmatch(code):
            raise forms.ValidationError(BAD_SHAPE, code="bad_shape")
        return code


class PasswordForm(forms.Form):
    """The account's own password, checked through the authentication backends
    (django-axes counts a wrong one as a failed login)."""

    password = forms.CharField(
        label=_("Your password"),
        max_length=4096,
        strip=False,
        validators=[validate_encodable],
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        user = self.request.user
        found = authenticate(self.request, username=user.get_username(), password=password)
        if found is None or found.pk != user.pk:
            raise forms.ValidationError(WRONG_PASSWORD, code="wrong_password")
        return password


class PasswordCodeForm(PasswordForm, CodeForm):
    """Both: turning two-step sign-in off."""

    field_order = ["password", "code"]


class EnrolForm(PasswordCodeForm):
    """Turning it on: the password, and the first code the app shows."""

    code = forms.CharField(
        label=_("The six-digit code your app shows"),
        max_length=64,
        strip=True,
        validators=[validate_encodable],
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "spellcheck": "false"}
        ),
    )
