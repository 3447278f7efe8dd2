"""Writes of the accounts app: a person's email address and password recovery
(docs/site.md, "Accounts"). Keyword-only, atomic; a refusal raises
`AccountError` and changes nothing. Mail is written in the transaction and
sent after its commit (`accounts.mail`)."""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .errors import AccountError
from .mail import mail_queue, site_link
from .models import EmailAddress, OutgoingMail, RecoveryRequest
from .selectors import confirmed_email, email_in_use, recovery_users

#: Django's signing salt of the confirmation links (docs/decisions.md, "Accounts").
CONFIRM_SALT = "accounts.email-confirm"


def email_clean(email: Any) -> str:
    """``email`` as kept (surrounding spaces dropped), or `AccountError` ``email_invalid``."""
    text = email.strip() if isinstance(email, str) else ""
    try:
        if not text or len(text) > 254:
            raise ValidationError("length")
        text.encode("utf-8")
        validate_email(text)
    except (ValidationError, UnicodeError):
        raise AccountError("email_invalid", _("Enter a valid email address.")) from None
    return text


def taken_message() -> str:
    return _("This email address is already used by another account.")


def confirm_token(row: EmailAddress) -> str:
    """The confirmation link's token: the account, the row and the address, signed
    with a time (Django's signing; checked against ``EMAIL_CONFIRM_DAYS``)."""
    value = {"u": row.user_id, "e": row.pk, "a": row.email.lower()}
    return signing.dumps(value, salt=CONFIRM_SALT)


def _limit_confirmations(user: Any, now: datetime) -> None:
    since = now - timedelta(hours=1)
    sent = OutgoingMail.objects.filter(
        user=user, kind=OutgoingMail.Kind.CONFIRM, created_at__gte=since
    ).count()
    if sent >= settings.EMAIL_CONFIRMATIONS_PER_HOUR:
        raise AccountError(
            "too_many_mails",
            _("Too many confirmation mails were sent in the last hour: try again later."),
        )


def _send_confirmation(row: EmailAddress) -> None:
    link = site_link(reverse("accounts:email_confirm", args=[confirm_token(row)]))
    mail_queue(
        kind=OutgoingMail.Kind.CONFIRM,
        to=row.email,
        user=row.user,
        language=row.language,
        template="confirm",
        context={"link": link, "email": row.email, "days": settings.EMAIL_CONFIRM_DAYS},
    )


def _expired_claim(row: EmailAddress, now: datetime) -> bool:
    """A waiting address whose link expired no longer holds it for its account."""
    age = now - row.created_at
    return row.state == EmailAddress.State.PENDING and age > timedelta(
        days=settings.EMAIL_CONFIRM_DAYS
    )


@transaction.atomic
def email_add(*, user: Any, email: Any, language: str, now: datetime | None = None) -> EmailAddress:
    """Give ``user`` a new address, waiting for its confirmation (a mail with
    the link goes to it). The confirmed address, if any, stays the recovery
    address until then, and gets a notice of the change. The same address
    waiting already: its confirmation is sent again."""
    now = now or timezone.now()
    email = email_clean(email)
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one at a time
    mine = {
        row.state: row
        for row in EmailAddress.objects.filter(user=user, state__in=EmailAddress.IN_USE)
    }
    confirmed = mine.get(EmailAddress.State.CONFIRMED)
    pending = mine.get(EmailAddress.State.PENDING)
    if confirmed is not None and confirmed.email.lower() == email.lower():
        raise AccountError("email_same", _("This is already your address."))
    if pending is not None and pending.email.lower() == email.lower():
        _limit_confirmations(user, now)
        _send_confirmation(pending)
        return pending
    holder = email_in_use(email, exclude_user=user)
    if holder is not None:
        if not _expired_claim(holder, now):
            raise AccountError("email_taken", taken_message())
        holder.state, holder.ended_at = EmailAddress.State.WITHDRAWN, now
        holder.save(update_fields=["state", "ended_at"])
    _limit_confirmations(user, now)
    if pending is not None:
        pending.state, pending.ended_at = EmailAddress.State.WITHDRAWN, now
        pending.save(update_fields=["state", "ended_at"])
    try:
        with transaction.atomic():
            row = EmailAddress.objects.create(
                user=user, email=email, language=language, created_at=now
            )
    except IntegrityError:  # taken meanwhile by another account
        raise AccountError("email_taken", taken_message()) from None
    _send_confirmation(row)
    if confirmed is not None:
        mail_queue(
            kind=OutgoingMail.Kind.NOTICE,
            to=confirmed.email,
            user=user,
            language=confirmed.language,
            template="notice",
            context={
                "new_email": masked_email(email),
                "link": site_link(reverse("accounts:conta")),
            },
        )
    return row


def masked_email(email: str) -> str:
    """``ana@example.com`` as ``a**@example.com`` (the notice to the old address).

    >>> masked_email("ana.maria@example.com")
    'a********@example.com'
    """
    local, _at, domain = email.rpartition("@")
    return (local[:1] + "*" * max(len(local) - 1, 1)) + "@" + domain


@transaction.atomic
def email_resend(*, user: Any, now: datetime | None = None) -> EmailAddress:
    """Send the waiting address's confirmation again."""
    now = now or timezone.now()
    row = EmailAddress.objects.filter(user=user, state=EmailAddress.State.PENDING).first()
    if row is None:
        raise AccountError("link_used", _("No address is waiting for its confirmation."))
    _limit_confirmations(user, now)
    _send_confirmation(row)
    return row


def email_confirm(*, token: Any, user: Any = None, now: datetime | None = None) -> EmailAddress:
    """Confirm the address of a link's ``token``. ``user`` is who follows it
    (None, or an anonymous user: anybody who has the mail); a signed-in person
    of another account is refused. The confirmed address replaces the
    account's previous one (kept as history)."""
    now = now or timezone.now()
    if not isinstance(token, str) or len(token) > 500:
        raise AccountError("link_invalid", _("This confirmation link is not valid."))
    try:
        value = signing.loads(
            token, salt=CONFIRM_SALT, max_age=timedelta(days=settings.EMAIL_CONFIRM_DAYS)
        )
    except signing.SignatureExpired:
        raise AccountError(
            "link_expired", _("This confirmation link has expired: ask for a new one.")
        ) from None
    except signing.BadSignature:
        raise AccountError("link_invalid", _("This confirmation link is not valid.")) from None
    if not isinstance(value, dict) or not all(
        isinstance(value.get(k), t) for k, t in (("u", int), ("e", int), ("a", str))
    ):
        raise AccountError("link_invalid", _("This confirmation link is not valid."))
    if user is not None and user.is_authenticated and user.pk != value["u"]:
        raise AccountError(
            "link_other_account",
            _("This link is for another account: log out, then open it again."),
        )
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=value["u"]).first()
        row = EmailAddress.objects.filter(pk=value["e"], user_id=value["u"]).first()
        if row is None or row.email.lower() != value["a"]:
            raise AccountError("link_invalid", _("This confirmation link is not valid."))
        if row.state != EmailAddress.State.PENDING:
            raise AccountError(
                "link_used",
                _("This link was used already, or the address was changed since."),
            )
        EmailAddress.objects.filter(user_id=value["u"], state=EmailAddress.State.CONFIRMED).update(
            state=EmailAddress.State.REPLACED, ended_at=now
        )
        row.state, row.confirmed_at = EmailAddress.State.CONFIRMED, now
        row.save(update_fields=["state", "confirmed_at"])
    return row


def email_key(email: str) -> str:
    """The keyed hash a recovery request keeps of the address typed."""
    text = email.strip().lower().encode("utf-8", "replace")
    digest = hmac.new(settings.SECRET_KEY.encode(), b"domino.email:" + text, hashlib.sha256)
    return digest.hexdigest()


def _limited(count: int, limit: int) -> bool:
    return count >= limit


@transaction.atomic
def recovery_request(
    *, email: str, ip_hash: str, language: str, now: datetime | None = None
) -> int:
    """A person asks for a new password for ``email``: a mail with a one-time
    link (Django's password reset token) goes to the active account whose
    confirmed address it is, and to nobody otherwise. Counted per address
    typed and per client address, whether an account has it or not
    (``RECOVERY_LIMIT_PER_EMAIL``, ``RECOVERY_LIMIT_PER_ADDRESS`` per
    ``RECOVERY_WINDOW``). Returns how many mails were written (for tests; the
    page answers the same either way)."""
    now = now or timezone.now()
    since = now - settings.RECOVERY_WINDOW
    key = email_key(email)
    recent = RecoveryRequest.objects.filter(created_at__gte=since)
    if _limited(
        recent.filter(email_key=key).count(), settings.RECOVERY_LIMIT_PER_EMAIL
    ) or _limited(recent.filter(ip_hash=ip_hash).count(), settings.RECOVERY_LIMIT_PER_ADDRESS):
        minutes = max(1, int(settings.RECOVERY_WINDOW.total_seconds() // 60))
        raise AccountError(
            "too_many_requests",
            ngettext(
                "Too many recovery requests for this address or from yours: "
                "try again in %(minutes)s minute.",
                "Too many recovery requests for this address or from yours: "
                "try again in %(minutes)s minutes.",
                minutes,
            )
            % {"minutes": minutes},
        )
    RecoveryRequest.objects.create(email_key=key, ip_hash=ip_hash, created_at=now)
    written = 0
    for user in recovery_users(email):
        uid = urlsafe_base64_encode(force_bytes(user.pk))
        token = default_token_generator.make_token(user)
        path = reverse("password_reset_confirm", kwargs={"uidb64": uid, "token": token})
        minutes = max(1, settings.PASSWORD_RESET_TIMEOUT // 60)
        mail_queue(
            kind=OutgoingMail.Kind.RECOVERY,
            to=confirmed_email(user) or email.strip(),
            user=user,
            language=language,
            template="recovery",
            context={"link": site_link(path), "minutes": minutes},
        )
        written += 1
    return written


def recovery_tidy(*, now: datetime | None = None) -> int:
    """The sweeper's: recovery requests older than their window are deleted."""
    now = now or timezone.now()
    old = RecoveryRequest.objects.filter(created_at__lt=now - settings.RECOVERY_WINDOW)
    if not old.exists():  # a read first: the sweep runs every few seconds, writes rarely
        return 0
    deleted, _ = old.delete()
    return deleted


def account_erase(*, user: Any) -> dict[str, int]:
    """Everything the accounts app keeps about ``user`` is erased (for the
    account's deletion, issue 51's point 5): its addresses and their history,
    the mail written to it (sent or not), and its sessions, signed out. The
    account's row itself is the caller's. Returns what was erased, per kind."""
    from .sessions import sessions_end_others

    with transaction.atomic():
        addresses, _ = EmailAddress.objects.filter(user=user).delete()
        mail, _ = OutgoingMail.objects.filter(user=user).delete()
    sessions = sessions_end_others(user=user, keep=None)
    return {"addresses": addresses, "mail": mail, "sessions": sessions}
