"""Account forms: Django's, refusing text that is not valid Unicode
(``domino_site.validators``) before it reaches the database or the hasher."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy

from accounts.errors import AccountError
from accounts.selectors import email_in_use
from accounts.services import email_clean, taken_message

from .removed import validate_not_held
from .validators import (
    CONFUSABLE_NAME,
    confusable_with,
    validate_encodable,
    validate_not_reserved,
    validate_visible_text,
)


class SignupForm(UserCreationForm):
    #: Optional (docs/site.md, "Accounts: email"): confirmed by a link, it is the
    #: only way back into the account (accounts.services.email_add, after the save).
    email = forms.EmailField(
        label=gettext_lazy("Email (optional)"),
        max_length=254,
        required=False,
        help_text=gettext_lazy(
            "The only way to get your account back if you forget your password."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].validators += [validate_visible_text, validate_not_reserved]
        for name in ("password1", "password2", "email"):
            self.fields[name].validators.append(validate_encodable)

    def clean_email(self) -> str:
        """Another account's address (whatever its case) is refused here; the
        service refuses it again if it was taken meanwhile."""
        email = self.cleaned_data.get("email") or ""
        if not email:
            return ""
        try:
            email = email_clean(email)
        except AccountError as exc:
            raise ValidationError(exc.message, code=exc.code) from None
        if email_in_use(email) is not None:
            raise ValidationError(taken_message(), code="email_taken")
        return email

    def clean_username(self) -> str:
        """Refuse a name confusable with an existing account's (TR39 skeletons)."""
        username = super().clean_username()
        if not username:  # refused already (Django's own case-insensitive check)
            return username
        # Fetched whole: an iterator() is a server-side cursor on PostgreSQL, and
        # one left half-read (the first confusable name ends the search) is
        # closed whenever it is collected, on whatever transaction is open then.
        names = list(get_user_model().objects.values_list("username", flat=True))
        if confusable_with(username, names):
            raise ValidationError(CONFUSABLE_NAME, code="confusable")
        # A removed account's name (or one confusable with it) for 90 days
        # (docs/site.md, "Your data (LGPD)").
        validate_not_held(username)
        return username


class LoginForm(AuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("username", "password"):
            self.fields[name].validators.append(validate_encodable)


class AdminLoginForm(AdminAuthenticationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("username", "password"):
            self.fields[name].validators.append(validate_encodable)
