"""The play chips' rows (docs/site.md, "Fichas").

* `Entry`: the append-only ledger. Every change of a person's chips is one row
  (who, how many, why, which match); rows are never changed or deleted except
  with their person (an account's deletion). Entries without a person are the
  bank's: the bank's share of a pot, a bot's stake it paid, a bot's winnings it
  took back, a stake forfeited at an annulment.
* `Balance`: the sum of a person's entries, kept in the same transaction as
  each entry under the row's lock (`select_for_update`), never below zero (a
  CHECK). It is a cache of the ledger: `chips.selectors.ledger_sum` is the truth.
* `Pot`: a staked match's pot: the stake, who paid into it (by seat), and its
  settlement (once: ``settled_at``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Entry(models.Model):
    class Reason(models.TextChoices):
        WELCOME = "welcome", _("Welcome grant")
        DAILY = "daily", _("Daily allowance")
        STAKE = "stake", _("Stake held")
        POT_WON = "pot_won", _("Pot won")
        BANK_SHARE = "bank_share", _("Bank's share")
        RETURNED = "returned", _("Stake returned")
        FORFEIT = "forfeit", _("Stake forfeited")
        CORRECTION = "correction", _("Admin correction")

    # None: the bank's own entry.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="chip_entries",
        verbose_name=_("person"),
    )
    amount = models.IntegerField(_("amount"))
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    # The match the entry belongs to (kept as a number too: a match's row may go).
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    room_code = models.CharField(_("room"), max_length=16, blank=True, default="")
    # One per effect: a settlement or a grant retried writes nothing twice.
    key = models.CharField(_("idempotency key"), max_length=80, unique=True)
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("staff member"),
    )
    note = models.CharField(_("note"), max_length=200, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("chip entry")
        verbose_name_plural = _("chip entries")
        ordering = ("-created_at", "-pk")
        indexes = [models.Index(fields=("user", "-created_at"), name="chips_entry_user_at")]

    def __str__(self) -> str:
        return f"{self.user_id or 'bank'} {self.amount:+d} {self.reason}"


class Balance(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="chip_balance",
        verbose_name=_("person"),
    )
    amount = models.IntegerField(_("balance"), default=0)
    # The day (the site's time zone) of the last daily allowance.
    allowance_on = models.DateField(_("last daily allowance"), null=True, blank=True)

    class Meta:
        verbose_name = _("chip balance")
        verbose_name_plural = _("chip balances")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gte=0), name="chips_balance_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.amount}"


class Pot(models.Model):
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="pot"
    )
    stake = models.PositiveIntegerField(_("stake"))
    # By seat: the account that staked, or None (a bot: the bank paid its stake).
    stakers = models.JSONField(_("stakers"), default=list)
    # After the settlement: {"won": {user: net}, "bank": int, "outcome": str}.
    result = models.JSONField(_("result"), default=dict, blank=True)
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)

    class Meta:
        verbose_name = _("pot")
        verbose_name_plural = _("pots")

    def __str__(self) -> str:
        return f"pot of match {self.match_id}: {self.stake} x {len(self.stakers)}"

    @property
    def total(self) -> int:
        return self.stake * len(self.stakers)
