"""Guests: people without an account, known by a signed cookie (docs/contract.md, "Guests").

The cookie holds a random seat token, signed by Django (``set_signed_cookie``
with `GUEST_SALT`); the page and the socket read it with the same routine,
`guest_token_of`. The token itself never leaves the server: what the room group
and the records carry is `guest_key`, a keyed digest of it.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

GUEST_COOKIE = "domino_guest"
GUEST_SALT = "domino.guest"
GUEST_COOKIE_AGE = 60 * 60 * 24 * 30  # a month: private rooms live 7 days without activity


def guest_token_of(cookies: dict[str, Any]) -> str | None:
    """The guest seat token of the signed cookie in ``cookies``; None if absent or
    forged (Django's own routine, salts and fallbacks included)."""
    request = HttpRequest()
    request.COOKIES = cookies
    return request.get_signed_cookie(GUEST_COOKIE, default=None, salt=GUEST_SALT)


def guest_key(token: str | None) -> str | None:
    """A keyed digest of a guest seat token: what the room group carries instead
    of the token itself, so the layer never holds a usable seat credential."""
    if not token:
        return None
    digest = hmac.new(settings.SECRET_KEY.encode(), token.encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def remember_guest(response: HttpResponse, request: HttpRequest, token: str) -> HttpResponse:
    """Set the signed guest cookie holding ``token`` on ``response`` (the pages
    that seat a guest: the create-room form, an invitation). The socket reads it
    back with the same routine (`guest_token_of`)."""
    response.set_signed_cookie(
        GUEST_COOKIE,
        token,
        salt=GUEST_SALT,
        max_age=GUEST_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response
