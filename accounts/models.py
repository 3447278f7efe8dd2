"""A person's email addresses, the mail the site sends, recovery requests and
signed-in sessions (docs/site.md, "Accounts")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class EmailAddress(models.Model):
    """One address of one account, and its history: an account has at most one
    confirmed address (the one recovery mails go to) and at most one waiting
    for its confirmation; a replaced or withdrawn row stays as history. An
    address in use (waiting or confirmed) belongs to one account only, whatever
    its case."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting for confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        REPLACED = "replaced", _("Replaced")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    IN_USE = (State.PENDING, State.CONFIRMED)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_addresses"
    )
    email = models.EmailField(_("email address"), max_length=254)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    #: The language of the request that added it: its mails are written in it.
    language = models.CharField(max_length=8, default="pt-br")
    created_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("email address")
        verbose_name_plural = _("email addresses")
        constraints = [
            models.UniqueConstraint(
                Lower("email"),
                condition=Q(state__in=["pending", "confirmed"]),
                name="accounts_email_in_use_once",
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(state="confirmed"), name="accounts_one_confirmed"
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(state="pending"), name="accounts_one_pending"
            ),
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="accounts_email_user")]

    def __str__(self) -> str:
        return f"{self.email} ({self.state})"


class OutgoingMail(models.Model):
    """The outbox: a message is written (in its recipient's language) when it
    is asked for, in the asking transaction, and sent after the commit by the
    timers; it is marked sent only after the mail server took it, so a failed
    send is tried again (``next_try_at``, further each time) and nothing is
    lost. Once sent, its bodies (which may hold a one-time link) are erased."""

    class Kind(models.TextChoices):
        CONFIRM = "confirm", _("Address confirmation")
        NOTICE = "notice", _("Address change notice")
        RECOVERY = "recovery", _("Password recovery")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    #: Whose mail it is: deleting the account deletes its mail (and the addresses in it).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    to = models.EmailField(max_length=254)
    language = models.CharField(max_length=8, default="pt-br")
    subject = models.CharField(max_length=255)
    body_text = models.TextField(blank=True)
    body_html = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    next_try_at = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    gave_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("outgoing mail")
        verbose_name_plural = _("outgoing mail")
        indexes = [
            models.Index(
                fields=["next_try_at"],
                condition=Q(sent_at__isnull=True, gave_up_at__isnull=True),
                name="accounts_mail_due",
            ),
            models.Index(fields=["user", "kind", "created_at"], name="accounts_mail_user"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to}"


class RecoveryRequest(models.Model):
    """A password recovery asked for: only keyed hashes of the address typed
    and of the client address, for the rate limits (whether the address is an
    account's or not, so the limit tells nothing either)."""

    email_key = models.CharField(max_length=64)
    ip_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["email_key", "created_at"], name="accounts_recovery_email"),
            models.Index(fields=["ip_hash", "created_at"], name="accounts_recovery_ip"),
        ]


class SessionRecord(models.Model):
    """A signed-in session as its owner sees it on the Conta page: the device
    (browser and system), the masked client address, when it was last seen
    (written at most every ``SESSION_SEEN_EVERY``, by `accounts.middleware`)."""

    session_key = models.CharField(max_length=40, primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="session_records"
    )
    device = models.CharField(max_length=80, blank=True)
    address = models.CharField(max_length=48, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        indexes = [models.Index(fields=["user", "last_seen"], name="accounts_session_user")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.device} {self.address}"
