"""Rooms and their seats (docs/site.md, "Rooms" and "Seats").

Only `rooms.services` writes these rows; read them through `rooms.selectors`.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engine import RuleSet
from games.engine.fairness import VERSION as FAIR_VERSION
from games.engine.fairness import commitment
from games.world import new_server_seed, world

# No 0/O/1/I: codes are read aloud and typed from phones.
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 8
MOVE_SECONDS_CHOICES = (10, 15, 20, 30, 45, 60)
BOT_LEVELS = ("easy", "medium", "hard")


def new_room_code() -> str:
    """A fresh code, from the world's chance (`games.world`): the system's
    randomness on the site; a test's seeded world repeats its codes, and so its
    deals, whose material names the room (docs/rules.md, "Verifiable deals")."""
    rng = world().rng()
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_invite_token() -> str:
    return secrets.token_urlsafe(24)


class Room(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        PLAYING = "playing", _("Playing")
        BETWEEN_ROUNDS = "between_rounds", _("Between rounds")
        CLOSED = "closed", _("Closed")

    code = models.CharField(_("code"), max_length=CODE_LENGTH, unique=True, default=new_room_code)
    invite_token = models.CharField(
        _("invite token"), max_length=64, unique=True, default=new_invite_token
    )
    name = models.CharField(_("name"), max_length=80)
    preset = models.CharField(_("preset"), max_length=32, db_index=True)
    options = models.JSONField(_("options"), default=dict, blank=True)
    rules = models.JSONField(_("rules"), default=dict)
    move_seconds = models.PositiveSmallIntegerField(_("move clock (s)"), null=True, blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rooms_created",
    )
    host_seat = models.SmallIntegerField(_("host seat"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.WAITING, db_index=True
    )
    paused = models.BooleanField(_("paused"), default=False)
    # The "competitive" marker (records.selectors.table_marker): the seated people
    # make a rated table. Recomputed with every change of the seats.
    rated = models.BooleanField(_("rated"), default=False)
    # The creator's choice (the portal's marker): "Competitiva" may be rated when
    # the seated people make a rated table; "Amistosa" (False) never is.
    competitive = models.BooleanField(_("competitive"), default=True)
    # A table whose people a pairing seated, not an invitation (an arena's, which
    # sets it at the creation): nobody there may call a bot, so an absence runs
    # as at any table, private or not (`waits_for_both`), and it has no invite link.
    seated_by_pairing = models.BooleanField(_("seated by a pairing"), default=False)
    # Sockets watching the table without a seat (rows of `Watcher`), counted when
    # one joins or leaves, so that snapshots read it with the room row.
    watchers = models.PositiveIntegerField(_("watchers"), default=0)
    # "host" (the host's pause), "empty" (no connected human; undone on reconnect)
    # or "player" (a person's pause at a match at stake, from their budget:
    # records.rulebook; ``paused_seat`` is theirs).
    paused_by = models.CharField(_("paused by"), max_length=8, blank=True, default="")
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    paused_seat = models.SmallIntegerField(_("paused by seat"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    # The server seed of the round this room deals next (docs/rules.md, "Verifiable
    # deals"): drawn at the room's creation and anew at each deal; only its
    # commitment is shown (`next_fair`), the seed itself when that round has ended.
    next_server_seed = models.CharField(
        _("next server seed"), max_length=64, default=new_server_seed, editable=False
    )
    # A table that starts by itself (play alone): its first match begins as soon as
    # every seated person has sent a client seed for the published commitment, so
    # that even the first deal carries their seeds (docs/rules.md, "Verifiable deals").
    start_on_seeds = models.BooleanField(_("starts on the seeds"), default=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, db_index=True)
    # The keyed hash of the creator's address (never the address): rooms opened
    # per address are limited too (rooms.limits), a client dropping its cookies
    # is still one address.
    created_ip_hash = models.CharField(
        _("creator's address hash"), max_length=64, blank=True, default="", db_index=True
    )
    last_activity_at = models.DateTimeField(_("last activity"), default=timezone.now)
    no_humans_since = models.DateTimeField(_("no connected human since"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    close_reason = models.CharField(_("close reason"), max_length=32, blank=True, default="")

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"{self.code} {self.name}"

    @property
    def ruleset(self) -> RuleSet:
        return RuleSet.from_dict(self.rules)

    @property
    def seat_count(self) -> int:
        return int(self.rules.get("seats", 4))

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED

    @property
    def is_private(self) -> bool:
        return self.visibility == self.Visibility.PRIVATE

    @property
    def invite_path(self) -> str:
        return f"/i/{self.invite_token}/"

    def next_fair(self) -> dict[str, str]:
        """The protocol's ``room.next_fair``: the commitment of the next deal."""
        return {"version": FAIR_VERSION, "commitment": commitment(self.next_server_seed)}


class Seat(models.Model):
    class Kind(models.TextChoices):
        EMPTY = "empty", _("Empty")
        HUMAN = "human", _("Human")
        BOT = "bot", _("Bot")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("index"))
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.EMPTY)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    guest_token = models.CharField(
        _("guest token"), max_length=64, null=True, blank=True, db_index=True
    )
    display_name = models.CharField(_("name"), max_length=80, blank=True, default="")
    # Set whenever a bot plays the seat: a bot seat, or a bot standing in for a human.
    bot_level = models.CharField(_("bot level"), max_length=8, null=True, blank=True)
    substitute = models.BooleanField(_("substitute bot"), default=False)
    # Why the substitute plays: "left" (the human left) or "away" (2 minutes
    # disconnected; reconnecting before the result gives the seat back).
    substitute_reason = models.CharField(max_length=8, blank=True, default="")
    # Automatic mode (the portal's "modo automático"): the server plays the seat's
    # turns at once, as a timeout would, until its person switches it off or acts.
    auto = models.BooleanField(_("automatic play"), default=False)
    connected = models.BooleanField(_("connected"), default=False)
    channel_name = models.CharField(max_length=200, blank=True, default="")
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    disconnected_at = models.DateTimeField(_("disconnected at"), null=True, blank=True)
    reserved_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reserved for"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seat_reservations",
    )
    reserved_guest_token = models.CharField(max_length=64, null=True, blank=True)
    reserved_name = models.CharField(max_length=80, blank=True, default="")
    leaving = models.BooleanField(_("leaving"), default=False)
    ready = models.BooleanField(_("ready"), default=False)
    seated_at = models.DateTimeField(_("seated at"), null=True, blank=True)
    # A keyed hash of the address its person connects from (domino_site.client_ip),
    # never the address: two accounts at one address make a table unrated.
    ip_hash = models.CharField(_("address hash"), max_length=64, blank=True, default="")
    reserved_ip_hash = models.CharField(max_length=64, blank=True, default="")
    # The seat's last quick-chat message: the 3 s limit is per seat, not per
    # socket (reopening the socket does not reset it).
    last_chat_at = models.DateTimeField(_("last quick chat"), null=True, blank=True)
    # The person's client seed for the next deal (protocol ``seed``), sent after
    # its commitment was published: every deal empties it, and so does a new person.
    client_seed = models.CharField(_("client seed"), max_length=64, blank=True, default="")
    # At a match at stake (records.rulebook): since when its connected person lets
    # the clock play their turns (cleared when they act), and how much of their
    # pause budget this match they have used.
    idle_since = models.DateTimeField(_("idle since"), null=True, blank=True)
    pause_used_ms = models.PositiveIntegerField(_("pause used (ms)"), default=0)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ("room_id", "index")
        constraints = [
            models.UniqueConstraint(fields=("room", "index"), name="seat_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id}#{self.index} {self.kind} {self.display_name}"

    @property
    def is_empty(self) -> bool:
        return self.kind == self.Kind.EMPTY

    @property
    def is_human(self) -> bool:
        return self.kind == self.Kind.HUMAN

    @property
    def is_bot(self) -> bool:
        return self.kind == self.Kind.BOT

    @property
    def bot_plays(self) -> bool:
        """A bot makes this seat's moves (a bot seat or a substitute)."""
        return self.kind == self.Kind.BOT or (self.kind == self.Kind.HUMAN and self.substitute)

    @property
    def active_human(self) -> bool:
        """A human who plays the seat themselves (not replaced by a substitute)."""
        return self.kind == self.Kind.HUMAN and not self.substitute

    @property
    def is_reserved(self) -> bool:
        return self.reserved_user_id is not None or bool(self.reserved_guest_token)

    def belongs_to(self, user: Any, guest_token: str | None) -> bool:
        if self.kind != self.Kind.HUMAN:
            return False
        if user is not None and getattr(user, "is_authenticated", False):
            return self.user_id == user.pk
        return bool(guest_token) and self.guest_token == guest_token

    def reserved_by(self, user: Any, guest_token: str | None) -> bool:
        if user is not None and getattr(user, "is_authenticated", False):
            return self.reserved_user_id == user.pk
        return bool(guest_token) and self.reserved_guest_token == guest_token

    def clear(self) -> None:
        """Make the seat empty (keeps the row and its index)."""
        self.kind = self.Kind.EMPTY
        self.user = None
        self.guest_token = None
        self.display_name = ""
        self.bot_level = None
        self.substitute = False
        self.substitute_reason = ""
        self.auto = False
        self.connected = False
        self.channel_name = ""
        self.disconnected_at = None
        self.leaving = False
        self.ready = False
        self.seated_at = None
        self.ip_hash = ""
        self.client_seed = ""
        self.idle_since = None
        self.pause_used_ms = 0

    def clear_reservation(self) -> None:
        self.reserved_user = None
        self.reserved_guest_token = None
        self.reserved_name = ""
        self.reserved_ip_hash = ""


class Watcher(models.Model):
    """A socket watching a public table without a seat (rooms.watchers): one row per
    socket, so that a count survives several server processes and the sockets of
    a process that died can be told apart (their channel names)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="watcher_sockets")
    channel_name = models.CharField(_("channel name"), max_length=200)
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)

    class Meta:
        verbose_name = _("watcher")
        verbose_name_plural = _("watchers")
        constraints = [
            models.UniqueConstraint(fields=("room", "channel_name"), name="watcher_unique_socket"),
        ]

    def __str__(self) -> str:
        return f"{self.room_id} {self.channel_name}"


def waits_for_both(room: Room, seats: Sequence[Seat]) -> bool:
    """A private room with two people seated (docs/table-rules.md, "A private duel waits for
    both"): an absent one's turn waits for them instead of the public grace. Not an
    arena's table: its two were paired, not invited, and the arena must end on time."""
    return (
        room.is_private
        and not room.seated_by_pairing
        and len(seats) == 2
        and all(s.is_human and s.substitute_reason != "left" for s in seats)
    )


QUICK_PRESETS = ("duelo", "parceria")


class QuickEntry(models.Model):
    """A person waiting in the quick-match queue (docs/site.md, "Quick match"):
    one row a person (joining again, from any tab or server process, moves the
    row), so that whoever pairs the queue matches them once. The pairing pass
    (`quick.services`) locks the rows it reads."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="quick_entry",
    )
    preset = models.CharField(_("preset"), max_length=32)
    move_seconds = models.PositiveSmallIntegerField(_("move clock (s)"))
    people_only = models.BooleanField(_("people only"), default=False)
    # The shown rating for the preset when the person joined (the pairing's key).
    rating = models.IntegerField(_("rating"), default=0)
    ip_hash = models.CharField(_("address hash"), max_length=64, blank=True, default="")
    # The socket that joined last: closing it leaves the queue (an older tab does not).
    channel_name = models.CharField(max_length=200, blank=True, default="")
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("quick-match entry")
        verbose_name_plural = _("quick-match entries")
        ordering = ("joined_at", "id")

    def __str__(self) -> str:
        return f"{self.user_id} {self.preset} {self.move_seconds}s"
