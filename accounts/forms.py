"""The accounts' forms: Django's, refusing text that is not valid Unicode
(``domino_site.validators.validate_encodable``) before it reaches the database
or the hasher."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, SetPasswordForm
from django.utils.translation import gettext_lazy as _

from domino_site.validators import validate_encodable


def _encodable(form: forms.Form, *names: str) -> None:
    for name in names:
        form.fields[name].validators.append(validate_encodable)


class EmailForm(forms.Form):
    """The Conta page's address: a new one, or a change."""

    email = forms.EmailField(label=_("Email address"), max_length=254)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _encodable(self, "email")


class RecoveryForm(PasswordResetForm):
    """ "Esqueci minha senha": the address; what is sent is
    `accounts.services.recovery_request`'s (never `PasswordResetForm.save`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _encodable(self, "email")

    def save(self, *args: Any, **kwargs: Any) -> None:  # pragma: no cover - never called
        raise NotImplementedError("accounts.services.recovery_request sends recovery mail")


class RecoverySetPasswordForm(SetPasswordForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _encodable(self, "new_password1", "new_password2")


class AccountPasswordChangeForm(PasswordChangeForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _encodable(self, "old_password", "new_password1", "new_password2")
