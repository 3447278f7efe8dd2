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


class AnalysisJob(models.Model):
    """A round waiting for its analysis, being analysed, analysed or left out
    (docs/site.md, "Round analysis": what is analysed and when).

    One row a round. The analysis worker takes the queued job of the lowest
    ``priority``, oldest first (`analysis.services.analysis_run_next`); jobs of
    the two background priorities beyond ``ANALYSIS_QUEUE_BOUND`` are dropped,
    oldest first, and a person may still ask for them later."""

    class Priority(models.IntegerChoices):
        ASKED = 0, _("asked for by a player")
        OPENED = 1, _("replay opened")
        RATED = 2, _("rated round")
        IDLE = 3, _("when idle")

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("analysing")
        DONE = "done", _("done")
        DROPPED = "dropped", _("dropped")

    round = models.OneToOneField(
        "games.Round",
        on_delete=models.CASCADE,
        related_name="analysis_job",
        verbose_name=_("round"),
    )
    priority = models.PositiveSmallIntegerField(_("priority"), choices=Priority.choices)
    state = models.CharField(_("state"), max_length=8, choices=State.choices)
    # Who raised it to ASKED or OPENED (a user, or a guest's key): the person's limit.
    person = models.CharField(_("asked by"), max_length=64, blank=True, default="")
    queued_at = models.DateTimeField(_("queued at"), default=timezone.now)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis job")
        verbose_name_plural = _("analysis jobs")
        ordering = ("priority", "queued_at", "id")
        indexes = [
            models.Index(fields=("state", "priority", "queued_at"), name="analysisjob_queue"),
            models.Index(fields=("person", "state"), name="analysisjob_person"),
        ]

    def __str__(self) -> str:
        return f"round {self.round_id}: {self.state} ({self.get_priority_display()})"
