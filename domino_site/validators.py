"""Validators for text that people type (room names, user names, passwords).

A JSON body may carry a lone surrogate (``"\\ud800"``): a valid Python string
that no UTF-8 encoder accepts, so the database, the password hasher or the
response would fail on it with a 500. Form posts cannot carry one (Django
decodes their bytes with replacement characters, U+FFFD), but the replacement
character itself says the same thing: the browser sent bytes that were not
text. Forms refuse both before anything is written.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

REPLACEMENT_CHARACTER = "\ufffd"

INVALID_TEXT = _("This text contains characters that are not valid. Type it again.")
CONTROL_CHARACTERS = _("Use letters, digits, spaces and punctuation only.")


def _has_surrogate(value: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in value)


def validate_encodable(value: object) -> None:
    """Refuse a lone surrogate or a replacement character (text that was not
    valid Unicode when it arrived). For passwords, which may hold anything else."""
    if not isinstance(value, str):
        return
    if _has_surrogate(value) or REPLACEMENT_CHARACTER in value:
        raise ValidationError(INVALID_TEXT, code="invalid_text")


def validate_plain_text(value: object) -> None:
    """``validate_encodable``, and no control characters (tabs, new lines,
    escapes): for names shown to other people on one line."""
    validate_encodable(value)
    if isinstance(value, str) and any(unicodedata.category(ch) == "Cc" for ch in value):
        raise ValidationError(CONTROL_CHARACTERS, code="control_characters")
