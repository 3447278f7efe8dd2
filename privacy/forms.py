"""The deletion form (docs/site.md, "Your data (LGPD)"): the password, one
confirmation (a checkbox) and, for an account with two-step sign-in, a code
of it (`second_factor_error`: the app's or a recovery code, throttled as the
second step is)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from domino_site.validators import validate_encodable
from twofactor.selectors import has_two_factor
from twofactor.services import TwoFactorError, code_check

# Longer is refused with a clear error before the hasher sees it.
PASSWORD_MAX = 1024


def second_factor_needed(user: Any) -> bool:
    """Whether ``user`` signs in in two steps, so that the deletion asks for a
    code too (docs/site.md, "Two-step sign-in")."""
    return has_two_factor(user)


def second_factor_error(user: Any, code: str) -> str | None:
    """Why ``code`` is refused for ``user`` (None: accepted; a recovery code
    is used up by it)."""
    try:
        code_check(user=user, code=code)
    except TwoFactorError as error:
        return str(error.message)
    return None


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        max_length=PASSWORD_MAX,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        validators=[validate_encodable],
    )
    code = forms.CharField(label=_("A code of your second factor"), max_length=64, required=False)
    confirm = forms.BooleanField(
        label=_("I understand: my account is removed for good and cannot be recovered."),
        error_messages={"required": _("Tick the box to confirm the deletion.")},
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        if not second_factor_needed(user):
            del self.fields["code"]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."), code="wrong_password")
        return password

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "code" in self.fields:
            error = second_factor_error(self.user, cleaned.get("code") or "")
            if error:
                self.add_error("code", error)
        return cleaned
