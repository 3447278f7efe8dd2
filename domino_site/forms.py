"""Account forms: Django's, refusing text that is not valid Unicode
(``domino_site.validators``) before it reaches the database or the hasher."""

from __future__ import annotations

from typing import Any

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from .validators import validate_encodable, validate_plain_text


class SignupForm(UserCreationForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].validators.append(validate_plain_text)
        for name in ("password1", "password2"):
            self.fields[name].validators.append(validate_encodable)


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
