"""Production safety: which ``SECRET_KEY`` is good enough when ``DEBUG`` is off,
and the Content-Security-Policy middleware.

Pure where it can be: ``secret_key_problem`` is called by the settings module
itself, before Django is configured.
"""

from __future__ import annotations

import re

# The key `make run` and the tests use (DEBUG on only): it is published here.
DEV_SECRET_KEY = "django-insecure-dev-only-key-change-me-in-production"

# Django's own deploy check (security.W009) asks for as much.
MIN_LENGTH = 50
MIN_UNIQUE_CHARACTERS = 5

# Words of keys people copy from examples and forget to replace.
PLACEHOLDER_WORDS = (
    "changeme",
    "secret",
    "insecure",
    "placeholder",
    "example",
    "dummy",
    "password",
    "default",
)


def secret_key_problem(key: str | None) -> str | None:
    """Why ``key`` must not sign sessions in production, or None when it may."""
    if not key:
        return "is not set"
    if key == DEV_SECRET_KEY or key.strip().lower().startswith("django-insecure"):
        return "is a development key"
    letters = re.sub(r"[^a-z0-9]", "", key.lower())
    for word in PLACEHOLDER_WORDS:
        if word in letters:
            return f"looks like a placeholder (it contains {word!r})"
    if len(key) < MIN_LENGTH:
        return f"is too short ({len(key)} characters; use at least {MIN_LENGTH} random ones)"
    if len(set(key)) < MIN_UNIQUE_CHARACTERS:
        return "is not random"
    return None
