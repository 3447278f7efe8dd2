"""The rows of a person's data rights (docs/site.md, "Your data (LGPD)").

* `HeldName`: the name a removed account had, which no new account may take
  (nor one confusable with it) until ``until`` (`NAME_HOLD`: 90 days); the
  sweeper deletes it after that.
* `DataRequest`: a copy or a deletion of a person's data, asked by the person
  on the site (done at once) or written in and entered by staff in the admin,
  who carry it out there; who did it and when. The sweeper deletes a done
  request's row `settings.PRIVACY_REQUEST_DAYS` after it was done.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class HeldName(models.Model):
    name = models.CharField(_("name"), max_length=150, db_index=True)
    until = models.DateTimeField(_("held until"), db_index=True)

    class Meta:
        verbose_name = _("held name")
        verbose_name_plural = _("held names")

    def __str__(self) -> str:
        return self.name


class DataRequest(models.Model):
    class Kind(models.TextChoices):
        EXPORT = "export", _("A copy of the data")
        DELETION = "deletion", _("Deletion of the account")

    class Source(models.TextChoices):
        SITE = "site", _("On the site, by the person")
        STAFF = "staff", _("Written in, carried out by staff")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        on_delete=models.CASCADE,
        related_name="data_requests",
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    source = models.CharField(
        _("source"), max_length=8, choices=Source.choices, default=Source.STAFF
    )
    note = models.CharField(_("note"), max_length=500, blank=True, default="")
    requested_at = models.DateTimeField(_("requested at"), default=timezone.now)
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("done by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    done_at = models.DateTimeField(_("done at"), null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("data request")
        verbose_name_plural = _("data requests")
        ordering = ("-requested_at", "-id")
        indexes = [models.Index(fields=("user", "kind", "done_at"), name="datarequest_user_kind")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {'done' if self.done_at else 'open'}"
