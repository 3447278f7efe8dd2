"""Account forms: Django's, refusing text that is not valid Unicode
(``domino_site.validators``) before it reaches the database or the hasher."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError

from .removed import validate_not_held
from .validators import (
    CONFUSABLE_NAME,
    confusable_with,
    validate_encodable,
    validate_not_reserved,
    validate_visible_text,
)


class SignupForm(UserCreationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].validators += [validate_visible_text, validate_not_reserved]
        for name in ("password1", "password2"):
            self.fields[name].validators.append(validate_encodable)

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
