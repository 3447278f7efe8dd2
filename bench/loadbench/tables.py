"""The benchmark's rooms, players and sessions, created in the database."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass
class TableSpec:
    code: str
    cookies: list[str]  # players of seats 0 and 1, then two watchers


_batch = 0


def create_tables(count: int, move_seconds: int | None = None) -> list[TableSpec]:
    """``count`` public duelo rooms, two seated players each, and two watchers,
    all logged in (sessions created directly in the session store); a move clock
    of ``move_seconds`` if given (bench/restore.py), else none."""
    global _batch
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import connections, transaction
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from rooms import services  # (after django_setup(): the settings are chosen at run time)

    _batch += 1
    prefix = f"b{os.getpid()}x{_batch}u"
    user_model = get_user_model()
    password = make_password(None)  # unusable: nobody logs in with a password
    with transaction.atomic():
        user_model.objects.bulk_create(
            [user_model(username=f"{prefix}{i}", password=password) for i in range(4 * count)]
        )
    users = {u.username: u for u in user_model.objects.filter(username__startswith=prefix)}
    store = SessionStore()
    expire = timezone.now() + timedelta(days=1)
    sessions, cookies = [], {}
    backend = "django.contrib.auth.backends.ModelBackend"
    for name, user in users.items():
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        sessions.append(
            Session(session_key=key, session_data=store.encode(data), expire_date=expire)
        )
        cookies[name] = f"{settings.SESSION_COOKIE_NAME}={key}"
    with transaction.atomic():
        Session.objects.bulk_create(sessions)
    specs = []
    for t in range(count):
        names = [f"{prefix}{4 * t + j}" for j in range(4)]
        room = services.room_create(
            user=users[names[0]],
            name=f"Bench {_batch}.{t}",
            preset="duelo",
            visibility="public",
            move_seconds=move_seconds,
        )
        services.seat_take(room=room, index=1, user=users[names[1]])
        specs.append(TableSpec(code=room.code, cookies=[cookies[n] for n in names]))
    connections.close_all()
    return specs
