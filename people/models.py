"""The rows of "play with your people" (docs/contract.md, "People").

* `FriendRequest`: ``sender`` asked ``recipient`` to be friends; one per
  ordered pair, gone once accepted or declined.
* `Friendship`: two accounts are friends; one row per pair, the lower id
  first (``low`` < ``high``), so a pair is found with one lookup.
* `Block`: ``blocker`` keeps ``blocked`` away (no friend request from them, never
  paired with them). One per ordered pair; either direction keeps a pair apart.
* `Presence`: one open ``ws/people/`` socket (a page of the site) of ``user``,
  with the room whose table page it is on (``room_code``, "" elsewhere).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class FriendRequest(models.Model):
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_requests_received",
    )
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [
            models.UniqueConstraint(fields=["sender", "recipient"], name="people_request_once"),
            models.CheckConstraint(
                condition=~Q(sender=F("recipient")), name="people_request_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sender} → {self.recipient}"


class Friendship(models.Model):
    low = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    since = models.DateTimeField()

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="people_friends_once"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="people_friends_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.low} ↔ {self.high}"


class Block(models.Model):
    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField()

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="people_block_once"),
            models.CheckConstraint(
                condition=~Q(blocker=F("blocked")), name="people_block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} ⊘ {self.blocked}"


class Presence(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    room_code = models.CharField(max_length=16, blank=True, default="")
    opened_at = models.DateTimeField()

    class Meta:
        verbose_name = _("open page")
        verbose_name_plural = _("open pages")
        indexes = [models.Index(fields=["user"], name="people_presence_user")]

    def __str__(self) -> str:
        return f"{self.user} {self.room_code or '-'}"


class Preferences(models.Model):
    """A person's choices about the others: who may challenge them."""

    class Challenges(models.TextChoices):
        EVERYONE = "everyone", _("Everyone")
        FRIENDS = "friends", _("Friends only")
        NOBODY = "nobody", _("Nobody")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="people_preferences"
    )
    challenges = models.CharField(
        _("who may challenge you"),
        max_length=8,
        choices=Challenges.choices,
        default=Challenges.EVERYONE,
    )

    class Meta:
        verbose_name = _("preferences")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.challenges}"


class Challenge(models.Model):
    """``challenger`` asks ``challenged`` to play a match (docs/site.md,
    "Challenges"): a preset, a move clock, rated or friendly. Pending until
    answered, withdrawn or `CHALLENGE_TTL` old; an accepted one has its room."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    preset = models.CharField(max_length=16)
    move_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    competitive = models.BooleanField(default=True)
    challenger_ip_hash = models.CharField(max_length=64, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    room = models.ForeignKey(
        "rooms.Room", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Parceria: friends of the challenger invited to seats 2 (the challenger's
    # partner) and 3 (the challenged's), each {"user", "seat", "accepted",
    # "ip_hash"}; the seats nobody was invited to are bots'.
    invited = models.JSONField(default=list, blank=True)
    challenged_accepted = models.BooleanField(default=False)
    challenged_ip_hash = models.CharField(max_length=64, blank=True, default="")
    # A rematch: the table the two just played at (they sit the other way round).
    rematch_of = models.ForeignKey(
        "rooms.Room", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [models.Index(fields=["challenged", "status"], name="people_challenge_to")]

    def __str__(self) -> str:
        return f"{self.challenger} → {self.challenged} ({self.preset}, {self.status})"


class Report(models.Model):
    """``reporter`` reports ``reported`` (docs/site.md, "Reports and
    moderation"), with a reason and the match they played together, if any.
    The admin's queue: open reports, the oldest first. An entry the site makes
    itself has no ``reporter``: "possible win trading" (docs/rated-play.md,
    "Rated results between the same two people"), ``reported`` the one who
    won, ``against`` the one who lost, ``matches`` the rated matches between
    them."""

    class Reason(models.TextChoices):
        STALLING = "stalling", _("Stalling")
        COLLUSION = "collusion", _("Collusion in parceria")
        NAME = "name", _("An offensive name")
        WIN_TRADING = "win_trading", _("Possible win trading")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        HANDLED = "handled", _("Handled")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="reports_made",
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    against = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("against"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=12, choices=Reason.choices)
    note = models.CharField(_("note"), max_length=500, blank=True, default="")
    match = models.ForeignKey(
        "games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    matches = models.ManyToManyField(
        "games.Match", verbose_name=_("matches"), blank=True, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField()
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    # When it was sent: made, then each update while open (the latest
    # ``REPORT_LIMIT_PER_PERSON``, ISO): what `people.limits` counts.
    sent = models.JSONField(_("sent at"), default=list, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        indexes = [models.Index(fields=["status", "created_at"], name="people_report_queue")]

    def __str__(self) -> str:
        return f"{self.reporter or '-'} → {self.reported}: {self.reason}"


class Sanction(models.Model):
    """What staff did about a player, logged with who did it and why; the
    player sees it on their own profile. A suspension keeps them from rated
    play until ``until`` (None: for good) unless lifted."""

    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        NAME_RESET = "name_reset", _("Name reset")
        SUSPENSION = "suspension", _("Suspension from rated play")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions"
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    reason = models.CharField(_("reason"), max_length=500)
    until = models.DateTimeField(_("until"), null=True, blank=True)
    report = models.ForeignKey(
        Report, on_delete=models.SET_NULL, null=True, blank=True, related_name="sanctions"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # A name reset: the name the player had (the new one is theirs to pick).
    old_name = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    def __str__(self) -> str:
        return f"{self.user}: {self.kind}"


class QueuePartner(models.Model):
    """Whom ``user`` queues with for parceria quick match (docs/site.md, "Queue
    with your partner"): two friends who chose each other are matched as a
    pair."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_partner"
    )
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    chosen_at = models.DateTimeField()

    class Meta:
        verbose_name = _("queue partner")
        verbose_name_plural = _("queue partners")

    def __str__(self) -> str:
        return f"{self.user} + {self.partner}"
