"""Records a signed-in request's session for the Conta page (`accounts.sessions`),
and the request's own address for links in mail when ``SITE_URL`` is unset."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

from domino_site.client_ip import client_ip

from .mail import asking_site
from .sessions import recently_seen, session_seen


class SessionSeenMiddleware:
    """After `AuthenticationMiddleware`. Looks at the session only when the
    request has a session cookie, and writes at most once per
    ``SESSION_SEEN_EVERY`` per session (`accounts.sessions.session_seen`)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = asking_site.set(_address_of(request))
        try:
            response = self.get_response(request)
        finally:
            asking_site.reset(token)
        session = getattr(request, "session", None)
        key = getattr(session, "session_key", None)
        user = getattr(request, "user", None)
        if (
            key
            and len(key) <= 40  # Django's keys are 32 characters: a forged cookie is nobody's
            and not recently_seen(key)
            and user is not None
            and user.is_authenticated
        ):
            session_seen(
                session_key=key,
                user=user,
                user_agent=request.META.get("HTTP_USER_AGENT", ""),
                address=client_ip(request),
            )
        return response


def _address_of(request: HttpRequest) -> str:
    """``scheme://host`` of the request ("" for a Host that ALLOWED_HOSTS refuses)."""
    try:
        return f"{request.scheme}://{request.get_host()}"
    except DisallowedHost:
        return ""
