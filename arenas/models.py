"""An arena (a timed tournament), its players and its matches
(docs/site.md, "Arenas").

Only `arenas.services` writes these rows; read them through `arenas.selectors`.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rooms.models import Room, new_invite_token

PRESETS = ("duelo", "parceria")


class Arena(models.Model):
    class Preset(models.TextChoices):
        DUELO = "duelo", _("Duelo (two players)")
        PARCERIA = "parceria", _("Parceria (four players, partners drawn each match)")

    Visibility = Room.Visibility  # the same choice as a room's

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=80)
    preset = models.CharField(_("preset"), max_length=16, choices=Preset.choices)
    move_seconds = models.PositiveSmallIntegerField(_("move clock (s)"), null=True, blank=True)
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    minutes = models.PositiveSmallIntegerField(_("duration (min)"), default=30)
    visibility = models.CharField(
        _("visibility"), max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    invite_token = models.CharField(
        _("invite token"), max_length=32, unique=True, default=new_invite_token
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="arenas_created",
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.UPCOMING, db_index=True
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    # Bumped by every change, so that the sockets drop a frame older than one
    # they already sent.
    version = models.PositiveIntegerField(_("version"), default=1)

    class Meta:
        verbose_name = _("arena")
        verbose_name_plural = _("arenas")
        ordering = ("-starts_at",)

    def __str__(self) -> str:
        return self.name

    @property
    def ends_at(self):
        return self.starts_at + timedelta(minutes=self.minutes)

    @property
    def seats(self) -> int:
        return 4 if self.preset == self.Preset.PARCERIA else 2


class ArenaPlayer(models.Model):
    """One account in one arena: its score, streak and the table it is at."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="arenas_played",
    )
    # False once the player left: no more pairing (the score stays).
    active = models.BooleanField(_("active"), default=True)
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)
    # Since when the player waits for a table (None: at one, or never paired yet
    # in an arena that has not started).
    free_since = models.DateTimeField(_("free since"), null=True, blank=True)
    score = models.PositiveIntegerField(_("score"), default=0)
    streak = models.PositiveSmallIntegerField(_("wins in a row"), default=0)
    matches = models.PositiveSmallIntegerField(_("matches"), default=0)
    wins = models.PositiveSmallIntegerField(_("wins"), default=0)
    # The tie-break: the sum of the opponents' ratings weighted by the result
    # (win 1, draw 1/2, loss 0) and the count behind it (performance = sum / n).
    perf_sum = models.FloatField(_("performance sum"), default=0.0)
    rank = models.PositiveSmallIntegerField(_("final rank"), null=True, blank=True)
    # The people of the last match (opponents, and in parceria the partner):
    # not paired with the same again straight away.
    last_opponents = models.JSONField(_("last opponents"), default=list, blank=True)
    last_partner = models.IntegerField(_("last partner"), null=True, blank=True)
    table = models.ForeignKey(
        "rooms.Room",
        verbose_name=_("current table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The keyed hash of the address the player joined from (the rated-table rule).
    ip_hash = models.CharField(_("address hash"), max_length=64, blank=True, default="")
    # The player's latest joins and leaves (ISO times, the last ARENA_TOGGLES):
    # each one sends the standings to every watcher, so they are limited
    # (arenas.limits).
    toggles = models.JSONField(_("latest joins and leaves"), default=list, blank=True)

    class Meta:
        verbose_name = _("arena player")
        verbose_name_plural = _("arena players")
        constraints = [
            models.UniqueConstraint(fields=("arena", "user"), name="arenaplayer_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.arena_id}"

    @property
    def performance(self) -> float:
        return self.perf_sum / self.matches if self.matches else 0.0


class ArenaMatch(models.Model):
    """One match of an arena, on a room of its own."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="arena_matches")
    room = models.OneToOneField(
        "rooms.Room", verbose_name=_("table"), on_delete=models.CASCADE, related_name="arena_match"
    )
    # The accounts by seat index.
    users = models.JSONField(_("players by seat"), default=list)
    # Their ratings when paired (the tie-break's opponents' ratings).
    ratings = models.JSONField(_("ratings when paired"), default=list)
    started_at = models.DateTimeField(_("started at"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    # The accounts that won (empty: a draw, or no result).
    winners = models.JSONField(_("winners"), default=list, blank=True)
    # The points each account earned, by account id (as text: JSON keys).
    points = models.JSONField(_("points"), default=dict, blank=True)

    class Meta:
        verbose_name = _("arena match")
        verbose_name_plural = _("arena matches")
        indexes = [models.Index(fields=("arena", "ended_at"), name="arenamatch_open")]

    def __str__(self) -> str:
        return f"{self.arena_id}: {self.room_id}"
