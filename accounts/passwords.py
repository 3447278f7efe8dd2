"""A password's upper bound (``AUTH_PASSWORD_VALIDATORS``): Django's
validators set none, and a 5,000-character password is bad input to refuse
with a reason (docs/site.md, "Accounts: recovery"), not text to hash."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import ngettext


class MaximumLengthValidator:
    def __init__(self, max_length: int = 128) -> None:
        self.max_length = max_length

    def validate(self, password: str, user: Any = None) -> None:
        if len(password) > self.max_length:
            raise ValidationError(
                ngettext(
                    "This password is too long: use at most %(max_length)d character.",
                    "This password is too long: use at most %(max_length)d characters.",
                    self.max_length,
                ),
                code="password_too_long",
                params={"max_length": self.max_length},
            )

    def get_help_text(self) -> str:
        return ngettext(
            "Your password must contain at most %(max_length)d character.",
            "Your password must contain at most %(max_length)d characters.",
            self.max_length,
        ) % {"max_length": self.max_length}
