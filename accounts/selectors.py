"""Reads of the accounts app (docs/contract.md, "accounts"): public, for the
apps above (a person's data export reads them too)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from .models import EmailAddress, OutgoingMail, SessionRecord


def confirmed_email(user: Any) -> str | None:
    """The account's confirmed address (where recovery mail goes), or None."""
    return (
        EmailAddress.objects.filter(user=user, state=EmailAddress.State.CONFIRMED)
        .values_list("email", flat=True)
        .first()
    )


def pending_email(user: Any) -> EmailAddress | None:
    """The address waiting for its confirmation, if any."""
    return EmailAddress.objects.filter(user=user, state=EmailAddress.State.PENDING).first()


def email_history(user: Any) -> list[EmailAddress]:
    """Every address the account has had, oldest first (current, replaced, withdrawn)."""
    return list(EmailAddress.objects.filter(user=user).order_by("created_at", "pk"))


def email_in_use(email: str, *, exclude_user: Any = None) -> EmailAddress | None:
    """The row of another account using ``email`` (case-insensitive), if any."""
    rows = EmailAddress.objects.filter(email__iexact=email, state__in=EmailAddress.IN_USE)
    if exclude_user is not None:
        rows = rows.exclude(user=exclude_user)
    return rows.first()


def recovery_users(email: str) -> list[Any]:
    """The active accounts whose confirmed address is ``email`` (case-insensitive)
    and that have a password: those a recovery mail may go to (one at most)."""
    ids = EmailAddress.objects.filter(
        email__iexact=email, state=EmailAddress.State.CONFIRMED
    ).values_list("user_id", flat=True)
    users = get_user_model().objects.filter(pk__in=list(ids), is_active=True)
    return [user for user in users if user.has_usable_password()]


def _session_store() -> Any:
    return import_module(settings.SESSION_ENGINE).SessionStore


def sessions_of(user: Any) -> list[SessionRecord]:
    """The account's signed-in sessions, last seen first (those that still exist)."""
    store = _session_store()
    rows = SessionRecord.objects.filter(user=user).order_by("-last_seen")
    return [row for row in rows if store().exists(row.session_key)]


def mail_due_ids(*, limit: int = 50) -> list[int]:
    """Messages waiting to be sent whose time has come, oldest first."""
    return list(
        OutgoingMail.objects.filter(
            sent_at__isnull=True, gave_up_at__isnull=True, next_try_at__lte=timezone.now()
        )
        .order_by("next_try_at")
        .values_list("pk", flat=True)[:limit]
    )


def mail_waiting() -> bool:
    """Whether a message waits to be sent and is due (the sweeper wakes the sender)."""
    return bool(mail_due_ids(limit=1))


def mails_to(user: Any) -> list[OutgoingMail]:
    """The messages written to the account (newest first): kind, address, when sent."""
    return list(OutgoingMail.objects.filter(user=user).order_by("-created_at"))
