"""A finished round's analysis (docs/site.md, "Round analysis"), written once by
`analysis.services.round_analyse` after the round ended, never before."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RoundAnalysis(models.Model):
    round = models.OneToOneField(
        "games.Round", on_delete=models.CASCADE, related_name="analysis", verbose_name=_("round")
    )
    # The seed every decision's sampling derives from (analysis.scoring.round_seed).
    seed = models.CharField(_("seed"), max_length=24)
    # The simulated actions spent per decision (analysis.scoring, the work budget).
    work = models.PositiveIntegerField(_("work per decision"))
    # `analysis.scoring.Decision.to_dict()` of every scored decision, in move order.
    decisions = models.JSONField(_("decisions"), default=list)
    cpu_ms = models.PositiveIntegerField(_("CPU time (ms)"), default=0)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("round analysis")
        verbose_name_plural = _("round analyses")
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"analysis of round {self.round_id}"


class SeatAccuracy(models.Model):
    """One human seat's accuracy in an analysed round (what the profile averages)."""

    analysis = models.ForeignKey(RoundAnalysis, on_delete=models.CASCADE, related_name="seats")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    preset = models.CharField(_("preset"), max_length=32)
    decisions = models.PositiveSmallIntegerField(_("decisions"))
    accuracy = models.FloatField(_("accuracy"))
    loss = models.FloatField(_("total loss (points)"))

    class Meta:
        verbose_name = _("seat accuracy")
        verbose_name_plural = _("seat accuracies")
        constraints = [
            models.UniqueConstraint(fields=("analysis", "seat"), name="seataccuracy_unique_seat"),
        ]
        indexes = [models.Index(fields=("user", "preset"), name="seataccuracy_user_preset")]

    def __str__(self) -> str:
        return f"{self.analysis_id} seat {self.seat} {self.accuracy:.1f}"
