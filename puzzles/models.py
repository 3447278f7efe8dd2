"""Puzzles (docs/site.md, "Puzzles"): positions cut from analysed public rounds
where one action is clearly the best from the mover's view, checked again by a
deeper search before they are published; a player's own blunder to train on;
each player's puzzle rating and tries. Written only by `puzzles.services`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from records.rating import MU, SIGMA


class Puzzle(models.Model):
    """One position and its one best action.

    ``view`` is the mover's own view at that moment (`Round.view(seat)`: their
    hand and the public facts, nothing else) and is all a solver is ever sent;
    the source round is kept for the deeper check and the admin, never shown."""

    class State(models.TextChoices):
        CANDIDATE = "candidate", _("waiting for the deeper check")
        PUBLISHED = "published", _("published")
        DROPPED = "dropped", _("dropped by the deeper check")
        TRAINING = "training", _("a player's own position")

    round = models.ForeignKey(
        "games.Round", on_delete=models.CASCADE, related_name="+", verbose_name=_("round")
    )
    seq = models.PositiveIntegerField(_("move number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    preset = models.CharField(_("preset"), max_length=32)
    view = models.JSONField(_("mover's view"))
    # The best action (`Action.to_dict()`) and every option's expected points
    # (the analysis', then the deeper check's), best first.
    solution = models.JSONField(_("solution"))
    options = models.JSONField(_("options"), default=list)
    # Best minus second best, in the round's points (the analysis', then the check's).
    gap = models.FloatField(_("gap (points)"))
    themes = models.JSONField(_("themes"), default=list, blank=True)
    state = models.CharField(_("state"), max_length=10, choices=State.choices)
    drop_reason = models.CharField(_("why dropped"), max_length=16, blank=True, default="")
    # A training position belongs to the player who blundered it; None for the public ones.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("owner"),
    )
    mu = models.FloatField(_("rating (mu)"), default=MU)
    sigma = models.FloatField(_("rating (sigma)"), default=SIGMA)
    tries = models.PositiveIntegerField(_("tries"), default=0)
    solved = models.PositiveIntegerField(_("solved"), default=0)
    check_cpu_ms = models.PositiveIntegerField(_("deeper check CPU (ms)"), default=0)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    checked_at = models.DateTimeField(_("checked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        ordering = ("id",)
        constraints = [
            models.UniqueConstraint(
                fields=("round", "seq"),
                condition=models.Q(owner__isnull=True),
                name="puzzle_unique_public_position",
            ),
            models.UniqueConstraint(
                fields=("round", "seq", "owner"), name="puzzle_unique_training_position"
            ),
        ]
        indexes = [models.Index(fields=("state", "mu"), name="puzzle_state_mu")]

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.state})"


class PuzzleCut(models.Model):
    """A round analysis whose decisions were looked at for puzzles (once each)."""

    analysis = models.OneToOneField(
        "analysis.RoundAnalysis", on_delete=models.CASCADE, related_name="+"
    )
    candidates = models.PositiveSmallIntegerField(_("candidates"), default=0)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("puzzle cut")
        verbose_name_plural = _("puzzle cuts")


class PuzzlePlayer(models.Model):
    """A player's puzzle rating and streak (correct first tries in a row)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_player"
    )
    mu = models.FloatField(_("rating (mu)"), default=MU)
    sigma = models.FloatField(_("rating (sigma)"), default=SIGMA)
    streak = models.PositiveIntegerField(_("streak"), default=0)
    best_streak = models.PositiveIntegerField(_("best streak"), default=0)
    tries = models.PositiveIntegerField(_("tries"), default=0)

    class Meta:
        verbose_name = _("puzzle player")
        verbose_name_plural = _("puzzle players")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.mu:.1f}"


class PuzzleTry(models.Model):
    """A person's first answer to a puzzle, stored before its answer is shown to
    them (docs/site.md, "Puzzles"): an account's (``user``) or a guest's (the
    keyed digest of the guest cookie's token, ``guest_key``), with the keyed
    hash of the address it came from. Later answers to the same puzzle are
    checked and shown, never stored. ``rated``: it moved the player's rating;
    ``moved_puzzle``: it moved the puzzle's (an established account's, the
    first from its address)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    guest_key = models.CharField(_("guest"), max_length=32, blank=True, default="")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    ip_hash = models.CharField(_("address hash"), max_length=64, blank=True, default="")
    action = models.JSONField(_("answer"))
    correct = models.BooleanField(_("correct"))
    rated = models.BooleanField(_("rated"), default=True)
    established = models.BooleanField(_("established account"), default=False)
    moved_puzzle = models.BooleanField(_("moved the puzzle's rating"), default=False)
    rating_before = models.IntegerField(_("rating before"), null=True, blank=True)
    rating_after = models.IntegerField(_("rating after"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("puzzle try")
        verbose_name_plural = _("puzzle tries")
        ordering = ("-created_at", "-id")
        constraints = [
            models.UniqueConstraint(
                fields=("user", "puzzle"),
                condition=models.Q(user__isnull=False),
                name="puzzletry_once",
            ),
            models.UniqueConstraint(
                fields=("guest_key", "puzzle"),
                condition=~models.Q(guest_key=""),
                name="puzzletry_guest_once",
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(guest_key=""),
                name="puzzletry_someone",
            ),
        ]
        indexes = [models.Index(fields=("puzzle", "ip_hash"), name="puzzletry_address")]

    def __str__(self) -> str:
        who = self.user_id if self.user_id is not None else f"guest {self.guest_key[:6]}"
        return f"{who} on {self.puzzle_id}: {self.correct}"


class DailyPuzzle(models.Model):
    """The puzzle of one day (the same for everybody)."""

    day = models.DateField(_("day"), unique=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("daily puzzle")
        verbose_name_plural = _("daily puzzles")
