"""People's records: who played which round, whether a match is rated, and the
skill rating with its history (docs/site.md, "Accounts, records, ranking").

Only `records.services` writes these rows, inside the transactions of the game
services (a round dealt, a match started, a match finished); read them through
`records.selectors`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

ALL_PRESETS = ""  # the `preset` of a rating over every preset


class RoundPlayer(models.Model):
    """A human who held a seat when a round was dealt: the index behind profiles
    ("which rounds did this account play") and replay access ("did this person
    sit at that table"). Guests are kept as a keyed digest of their seat token."""

    round = models.ForeignKey("games.Round", on_delete=models.CASCADE, related_name="people")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    room = models.ForeignKey("rooms.Room", on_delete=models.CASCADE, related_name="+")
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rounds_played",
    )
    guest_key = models.CharField(_("guest key"), max_length=64, blank=True, default="")

    class Meta:
        verbose_name = _("round player")
        verbose_name_plural = _("round players")
        constraints = [
            models.UniqueConstraint(fields=("round", "index"), name="roundplayer_unique_seat"),
        ]
        indexes = [
            models.Index(fields=("room", "user"), name="roundplayer_room_user"),
            models.Index(fields=("room", "guest_key"), name="roundplayer_room_guest"),
        ]


class MatchLineup(models.Model):
    """Who a match started with and whether it is rated: every seat an account,
    no two at one address, and the same people dealt every round."""

    class Reason(models.TextChoices):
        EMPTY = "empty", _("An empty seat")
        BOT = "bot", _("A bot")
        GUEST = "guest", _("A guest")
        UNKNOWN_IP = "unknown_ip", _("An unknown address")
        SHARED_IP = "shared_ip", _("Two players at one address")
        CHANGED = "changed", _("The players changed")
        FRIENDLY = "friendly", _("A friendly table")
        NO_MOVE = "no_move", _("A player never made a move themselves")
        PAIR_LIMIT = "pair_limit", _("The limit of rated matches between the same two players")

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="lineup"
    )
    users = models.JSONField(_("accounts by seat"), default=list)
    rated = models.BooleanField(_("rated"), default=False)
    reason = models.CharField(
        _("why not rated"), max_length=16, choices=Reason.choices, blank=True, default=""
    )

    class Meta:
        verbose_name = _("match lineup")
        verbose_name_plural = _("match lineups")


class Rating(models.Model):
    """An account's skill rating (openskill's mu and sigma) and experience points,
    over every preset (``preset=""``) or for one preset."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    preset = models.CharField(_("preset"), max_length=32, blank=True, default=ALL_PRESETS)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    # mu - 3 sigma, kept for ordering (the number shown, see records.rating).
    ordinal = models.FloatField(_("conservative rating"), db_index=True)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    xp = models.PositiveIntegerField(_("experience points"), default=0)
    updated_at = models.DateTimeField(_("updated at"), default=timezone.now)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=("user", "preset"), name="rating_unique_user_preset"),
        ]
        indexes = [
            models.Index(fields=("preset", "-ordinal"), name="rating_by_ordinal"),
            models.Index(fields=("preset", "-xp"), name="rating_by_xp"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.preset or '*'} {self.ordinal:.2f}"


class RatingChange(models.Model):
    """What one rated match did to one account's rating (and experience)."""

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="rating_changes"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="rating_changes",
    )
    preset = models.CharField(_("preset"), max_length=32, blank=True, default=ALL_PRESETS)
    seat = models.PositiveSmallIntegerField(_("seat"))
    side = models.PositiveSmallIntegerField(_("side"))
    won = models.BooleanField(_("won"))
    xp = models.PositiveIntegerField(_("experience points"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ("created_at", "id")
        constraints = [
            models.UniqueConstraint(fields=("match", "user", "preset"), name="ratingchange_unique"),
        ]
        indexes = [models.Index(fields=("user", "preset", "created_at"), name="ratingchange_hist")]


class Signup(models.Model):
    """An account signed up from an address (its keyed hash, never the address):
    sign-ups are limited per address (settings ``SIGNUP_LIMIT_PER_ADDRESS``)."""

    ip_hash = models.CharField(_("address hash"), max_length=64, db_index=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")


class Cooldown(models.Model):
    """An abandonment of a rated match and the wait it gives before its person
    may join a rated table or the quick-match queue again (docs/rated-play.md,
    "Abandonment cool-down"). One row per abandonment; the newest rows tell how
    far the escalation went (``step``: 10 minutes times 3 to that power)."""

    class Reason(models.TextChoices):
        LEFT = "left", _("left a rated match before its end")
        TIMEOUTS = "timeouts", _("let the clock run out on three turns in a row")
        ABSENT = "absent", _("was away until the seat was given up (walkover)")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="cooldowns",
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    match = models.ForeignKey(
        "games.Match",
        verbose_name=_("match"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The name its seat showed when the person abandoned (the table says "X
    # abandonou a partida" with it once the seat is empty); "" on older rows.
    name = models.CharField(_("name at the table"), max_length=80, blank=True, default="")
    step = models.PositiveSmallIntegerField(_("escalation step"), default=0)
    started_at = models.DateTimeField(_("abandoned at"), default=timezone.now, db_index=True)
    until = models.DateTimeField(_("cooling down until"), db_index=True)
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("lifted by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("abandonment cool-down")
        verbose_name_plural = _("abandonment cool-downs")
        ordering = ("-started_at",)
        indexes = [models.Index(fields=("user", "-started_at"), name="cooldown_user_recent")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.reason} until {self.until:%Y-%m-%d %H:%M}"
