"""The quick-match queue (docs/site.md, "Quick match"): joining, leaving, and
the pairing pass the timers run.

The queue is rows (`rooms.models.QuickEntry`, one a person), so every server
process shares it. A pass locks every row it reads, plans the tables
(`quick.pairing`), opens each one through the usual services (a new public,
competitive table; the people seated, bots where the plan says, the match
started) and deletes the entries it seated, all in one transaction: a person
queued from two tabs or two processes has one row, and is seated once.
Sockets hear of it after the commit, through the person's group
(``quick.user.<id>``) and the queue's (``quick.<preset>.<seconds>``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from domino_site.realtime.fanout import deliver
from games.world import now_or
from people.selectors import kept_apart, queue_partners_of
from quick import pairing
from quick import selectors as quick_selectors
from quick.signals import quick_due
from records import rulebook
from records import selectors as records_read
from rooms.errors import ServiceError
from rooms.models import MOVE_SECONDS_CHOICES, QUICK_PRESETS, QuickEntry, Room
from rooms.selectors import viewer_seat
from rooms.services.bots import bot_add
from rooms.services.flow import match_start
from rooms.services.seating import seat_take
from rooms.services.tables import room_create

log = logging.getLogger(__name__)

SEATS = {"duelo": 2, "parceria": 4}
PASS_EVERY = timedelta(seconds=1)  # while people wait: their windows widen, bots come


def queue_group(preset: str, move_seconds: int) -> str:
    return f"quick.{preset}.{move_seconds}"


def person_group(user_id: int) -> str:
    return f"quick.user.{user_id}"


def bots_after() -> float:
    return float(getattr(settings, "QUICK_BOTS_AFTER", 20))


# ---------------------------------------------------------------------- joining


def check_choice(preset: Any, move_seconds: Any, people_only: Any) -> None:
    """``bad_message`` unless a quick-match preset, one of the clock choices and a bool."""
    if preset not in QUICK_PRESETS:
        raise ServiceError("bad_message", _("Quick match is for duelo or parceria."))
    if type(move_seconds) is not int or move_seconds not in MOVE_SECONDS_CHOICES:
        raise ServiceError("bad_message", _("Choose one of the move clocks."))
    if type(people_only) is not bool:
        raise ServiceError("bad_message", _("people_only is true or false."))


@transaction.atomic
def quick_join(
    *,
    user: Any,
    preset: Any,
    move_seconds: Any,
    people_only: Any = False,
    channel_name: str = "",
    ip_hash: str = "",
    now: datetime | None = None,
) -> QuickEntry:
    """``user`` waits in the queue of ``preset`` and ``move_seconds``: a new entry,
    or theirs moved (joining from another tab moves them; the same queue keeps
    the time they joined). Refused: ``bad_message``, ``cooldown`` (with
    ``until``), ``already_seated`` (with ``room``: they play a match there)."""
    now = now_or(now)
    check_choice(preset, move_seconds, people_only)
    rulebook.check_no_cooldown(user, now)
    code = quick_selectors.seated_in_play(user)
    if code is not None:
        raise ServiceError(
            "already_seated",
            _("You are in the middle of a match: go back to your table."),
            extra={"room": code},
        )
    rating = records_read.shown_rating(user, preset).value
    entry = QuickEntry.objects.select_for_update().filter(user=user).first()
    before = (entry.preset, entry.move_seconds) if entry is not None else None
    if entry is None:
        entry = QuickEntry(user=user, joined_at=now)
    elif before != (preset, move_seconds):
        entry.joined_at = now
    entry.preset, entry.move_seconds, entry.people_only = preset, move_seconds, people_only
    entry.rating, entry.ip_hash, entry.channel_name = rating, ip_hash or "", channel_name
    entry.save()
    queues = {(preset, move_seconds), *([before] if before else [])}
    _tell_after_commit(persons={user.pk: _entry_event(entry)}, queues=queues)
    transaction.on_commit(lambda: quick_due.send(sender=QuickEntry, at=now), robust=True)
    return entry


@transaction.atomic
def quick_leave(*, user: Any, channel_name: str | None = None) -> bool:
    """``user`` leaves the queue. With ``channel_name`` only if that socket joined
    last (a closing tab: an older one does not take the person out)."""
    entries = QuickEntry.objects.select_for_update().filter(user=user)
    if channel_name is not None:
        entries = entries.filter(channel_name=channel_name)
    entry = entries.first()
    if entry is None:
        return False
    entry.delete()
    _tell_after_commit(
        persons={user.pk: {"type": "quick.entry", "entry": None}},
        queues={(entry.preset, entry.move_seconds)},
    )
    return True


def _entry_event(entry: QuickEntry) -> dict[str, Any]:
    return {
        "type": "quick.entry",
        "entry": {
            "preset": entry.preset,
            "move_seconds": entry.move_seconds,
            "since": entry.joined_at.isoformat(),
            "channel": entry.channel_name,
        },
    }


def _tell_after_commit(*, persons: dict[int, dict[str, Any]], queues: set[tuple[str, int]]) -> None:
    """After the commit: each person's tabs get their event, each queue's sockets
    its new count."""

    def tell() -> None:
        messages = [("group", person_group(uid), event) for uid, event in persons.items()]
        for preset, seconds in queues:
            count = {
                "type": "quick.count",
                "preset": preset,
                "move_seconds": seconds,
                "waiting": quick_selectors.waiting_in(preset, seconds),
            }
            messages.append(("group", queue_group(preset, seconds), count))
        deliver(get_channel_layer(), messages)

    transaction.on_commit(tell, robust=True)


# ---------------------------------------------------------------------- pairing


def quick_pair(*, now: datetime | None = None) -> datetime | None:
    """One pairing pass at ``now`` (the timers' task; idempotent: a pass finding
    nobody to pair changes nothing). Returns when the next pass is due (people
    still wait) or None."""
    now = now_or(now)
    with transaction.atomic():
        entries = list(
            QuickEntry.objects.select_for_update()
            .select_related("user")
            .order_by("joined_at", "id")
        )
        if not entries:
            return None
        entries = _still_free(entries, now)
        seated = _open_tables(entries, now)
    return now + PASS_EVERY if len(seated) < len(entries) else None


def _still_free(entries: list[QuickEntry], now: datetime) -> list[QuickEntry]:
    """The entries whose person may still be paired: one who started a match
    or a cool-down since joining leaves the queue (told why)."""
    free = []
    for entry in entries:
        try:
            rulebook.check_no_cooldown(entry.user, now)
            code = quick_selectors.seated_in_play(entry.user)
            if code is not None:
                raise ServiceError("already_seated", _("You are in the middle of a match."))
        except ServiceError as exc:
            entry.delete()
            _tell_after_commit(
                persons={entry.user_id: {"type": "quick.refused", "error": exc.as_message()}},
                queues={(entry.preset, entry.move_seconds)},
            )
            continue
        free.append(entry)
    return free


def _open_tables(entries: list[QuickEntry], now: datetime) -> list[QuickEntry]:
    """Plan and open every table of every queue; returns the entries seated."""
    by_queue: dict[tuple[str, int], list[QuickEntry]] = {}
    for entry in entries:
        by_queue.setdefault((entry.preset, entry.move_seconds), []).append(entry)
    seated: list[QuickEntry] = []
    kept = kept_apart(e.user_id for e in entries)  # blocks, either way: never at one table
    for (preset, seconds), queue in by_queue.items():
        by_id = {e.pk: e for e in queue}
        partners = _partners_in(queue) if SEATS[preset] == 4 else {}
        waiting = [
            pairing.Waiting(
                e.pk,
                e.rating,
                e.joined_at,
                e.people_only,
                _apart_of(e, queue, kept),
                partners.get(e.pk),
            )
            for e in queue
        ]
        for plan in pairing.plan(waiting, SEATS[preset], now, bots_after()):
            slots = [by_id[w.key] if w is not None else None for w in plan]
            level = pairing.bot_level([w for w in plan if w is not None])
            try:
                with transaction.atomic():
                    room = _open_table(preset, seconds, slots, level, now)
            except ServiceError:
                log.exception("quick match: could not open a table for %s", slots)
                continue
            people = [e for e in slots if e is not None]
            QuickEntry.objects.filter(pk__in=[e.pk for e in people]).delete()
            seated += people
            _tell_matched(room, slots, (preset, seconds))
    return seated


def _partners_in(queue: list[QuickEntry]) -> dict[int, Any]:
    """Entry by entry, the entry of the friend its person queues with (both
    chose each other: `people.selectors.queue_partners`), in this queue; a
    partner not in it yet is a key no entry has, and the person waits for them."""
    by_user = {e.user_id: e.pk for e in queue}
    chosen = queue_partners_of(list(by_user))
    return {by_user[u]: by_user.get(p, ("away", p)) for u, p in chosen.items() if u in by_user}


def _apart_of(
    entry: QuickEntry, queue: list[QuickEntry], kept: set[frozenset[int]]
) -> tuple[int, ...]:
    """The entries of ``queue`` whose person ``entry``'s may never sit with."""
    return tuple(other.pk for other in queue if frozenset((entry.user_id, other.user_id)) in kept)


def _open_table(
    preset: str, seconds: int, slots: Sequence[QuickEntry | None], level: str, now: datetime
) -> Room:
    """A new public competitive table: the people seated as planned, bots in the
    other seats, the match started (its first round dealt)."""
    host = slots[0]
    assert host is not None, "the plan seats a person first"
    room = room_create(
        user=host.user,
        name=_("Quick match"),
        preset=preset,
        move_seconds=seconds,
        visibility=Room.Visibility.PUBLIC,
        competitive=True,
        ip_hash=host.ip_hash,
        now=now,
    )
    for index, entry in enumerate(slots[1:], start=1):
        if entry is not None:
            seat_take(room=room, index=index, user=entry.user, ip_hash=entry.ip_hash, now=now)
    actor = viewer_seat(room=room, user=host.user, guest_token=None)
    for index, entry in enumerate(slots):
        if entry is None:
            bot_add(room=room, actor=actor, index=index, level=level, now=now)
    match_start(room=room, actor=actor, now=now)
    return room


def _tell_matched(room: Room, slots: Sequence[QuickEntry | None], queue: tuple[str, int]) -> None:
    url = f"/r/{room.code}/"
    persons = {
        entry.user_id: {"type": "quick.matched", "room": room.code, "url": url, "seat": index}
        for index, entry in enumerate(slots)
        if entry is not None
    }
    _tell_after_commit(persons=persons, queues={queue})
