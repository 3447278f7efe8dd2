"""A person's signed-in sessions as the Conta page shows them (docs/site.md,
"Accounts: the Conta page").

`accounts.middleware.SessionSeenMiddleware` records a signed-in request's
session (`session_seen`): at most once per ``SESSION_SEEN_EVERY`` per session
(a cache key says it was written lately), so a page load writes nothing most
of the time, and the sockets (the play path) never do. `sessions_end_others`
signs out every other session of an account: their stored sessions are
deleted through the session engine (whichever it is: database, cache or
both), so they are gone at once; a password change or reset also changes the
account's session hash, which ends any session this list never saw.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime
from importlib import import_module
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from .devices import device_of, masked
from .models import SessionRecord


def _seen_key(session_key: str) -> str:
    return f"accounts.seen:{session_key}"


def recently_seen(session_key: str) -> bool:
    """Whether the session's row was written within ``SESSION_SEEN_EVERY`` (a
    cache read: the middleware asks before it loads the account)."""
    return cache.get(_seen_key(session_key)) is not None


def session_seen(
    *,
    session_key: str,
    user: Any,
    user_agent: str,
    address: str | None,
    now: datetime | None = None,
) -> bool:
    """Record that ``user``'s session was used now; True if a row was written
    (at most once per ``SESSION_SEEN_EVERY`` per session)."""
    every = settings.SESSION_SEEN_EVERY.total_seconds()
    if not cache.add(_seen_key(session_key), 1, timeout=every):
        return False
    now = now or timezone.now()
    updated = SessionRecord.objects.filter(session_key=session_key, user=user).update(
        last_seen=now, device=device_of(user_agent), address=masked(address)
    )
    if not updated:
        SessionRecord.objects.filter(session_key=session_key).delete()  # another account's: gone
        SessionRecord.objects.create(
            session_key=session_key,
            user=user,
            device=device_of(user_agent),
            address=masked(address),
            created_at=now,
            last_seen=now,
        )
    return True


def session_ref(session_key: str) -> str:
    """What the Conta page names a session by (a keyed hash): a session's key
    signs it in, so the page never shows one."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"accounts.session:{session_key}".encode(), hashlib.sha256
    )
    return digest.hexdigest()[:24]


def _store(session_key: str) -> Any:
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key=session_key)


def session_end(*, session_key: str) -> None:
    """Sign out one session (its stored session and its row)."""
    _store(session_key).delete()
    cache.delete(_seen_key(session_key))
    SessionRecord.objects.filter(session_key=session_key).delete()


def sessions_end_others(*, user: Any, keep: str | None) -> int:
    """Sign out every recorded session of ``user`` but ``keep`` (the current
    one); how many."""
    keys = list(
        SessionRecord.objects.filter(user=user)
        .exclude(session_key=keep or "")
        .values_list("session_key", flat=True)
    )
    for key in keys:
        session_end(session_key=key)
    return len(keys)


def on_logged_out(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_out``: the session's row goes with it."""
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        cache.delete(_seen_key(key))
        SessionRecord.objects.filter(session_key=key).delete()


def sessions_tidy(*, now: datetime | None = None) -> int:
    """The sweeper's: rows of sessions unseen for longer than a session lives."""
    from datetime import timedelta

    now = now or timezone.now()
    old = SessionRecord.objects.filter(
        last_seen__lt=now - timedelta(seconds=settings.SESSION_COOKIE_AGE)
    )
    if not old.exists():  # a read first: the sweep runs every few seconds, writes rarely
        return 0
    deleted, _ = old.delete()
    return deleted
