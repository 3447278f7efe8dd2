"""The sweeper: the safety net that Celery beat or the in-process ticker runs
every few seconds (docs/architecture.md, "Principles").

It disconnects the seats of a server process that died (Redis layer), fires due
actions whose wake-up was lost, lets a bot take the seat of a person away for 2
minutes, pauses rooms with no connected person, closes public rooms 2 minutes
after their last person and private rooms after 7 days without activity. Every
step is idempotent and one failing room never stops the others.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import StrIndex, Substr

from domino_site.realtime import liveness
from games.models import Round
from games.world import now_or
from records import rulebook
from rooms import watchers as watching
from rooms.limits import UNSEEDED_CLOSE_AFTER
from rooms.models import Room, Seat, Watcher
from rooms.services.base import update_humans_since
from rooms.services.command import RoomRef, Table, lock_table, room_command
from rooms.services.due import waiting_for
from rooms.services.play import round_due_fire
from rooms.services.presence import seat_disconnected
from rooms.services.rounds import at_stake_locked, pause_locked
from rooms.services.seating import leave_locked
from rooms.services.tables import room_close

log = logging.getLogger(__name__)

TAKEOVER_AFTER = rulebook.AWAY_LIMIT  # away this long: a bot takes the seat
PUBLIC_EMPTY_CLOSE_AFTER = timedelta(minutes=2)
PRIVATE_EXPIRE_AFTER = timedelta(days=7)
IN_PLAY = (Room.Status.PLAYING, Room.Status.BETWEEN_ROUNDS)


def rooms_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """One pass of the sweeper at ``now``; returns what it did, counted."""
    now = now_or(now)
    done = {"dead_sockets": 0, "fired": 0, "takeovers": 0, "paused": 0, "closed": 0}
    for room_id, index, channel_name in _seats_of_dead_processes(now):
        done["dead_sockets"] += _safely(_sweep_dead_socket, room_id, index, channel_name, now)
    _safely(_sweep_dead_watchers, now)
    due = (
        Round.objects.filter(due_at__lte=now, room__status__in=IN_PLAY)
        .filter(Q(room__paused=False) | Q(due_kind=Round.DueKind.RESUME))
        .values_list("id", "version")
    )
    for round_id, version in list(due):
        done["fired"] += _safely(round_due_fire, round_id=round_id, version=version, now=now)
    for room_id, index in _away_too_long(now):
        done["takeovers"] += _safely(_sweep_takeover, room_id, index, now)
    open_rooms = Room.objects.exclude(status=Room.Status.CLOSED)
    connected = Seat.objects.filter(room=OuterRef("pk"), kind=Seat.Kind.HUMAN, connected=True)
    empty = open_rooms.filter(~Exists(connected))
    for room_id in list(empty.filter(paused=False).values_list("pk", flat=True)):
        done["paused"] += _safely(_sweep_empty, room_id, now)
    stale = list(
        empty.filter(
            visibility=Room.Visibility.PUBLIC, no_humans_since__lte=now - PUBLIC_EMPTY_CLOSE_AFTER
        ).values_list("pk", flat=True)
    )
    expired = list(
        open_rooms.filter(
            visibility=Room.Visibility.PRIVATE, last_activity_at__lte=now - PRIVATE_EXPIRE_AFTER
        ).values_list("pk", flat=True)
    )
    unseeded = list(
        open_rooms.filter(
            status=Room.Status.WAITING,
            start_on_seeds=True,
            created_at__lte=now - UNSEEDED_CLOSE_AFTER,
        ).values_list("pk", flat=True)
    )
    for room_id in unseeded:
        done["closed"] += _safely(_close_if, room_id, now, "unseeded", _never_seeded)
    for room_id in stale:
        done["closed"] += _safely(_close_if, room_id, now, "empty", _public_empty_for)
    for room_id in expired:
        done["closed"] += _safely(_close_if, room_id, now, "expired", _private_expired)
    return done


def _away_too_long(now: datetime) -> list[tuple[int, int]]:
    """``(room, seat)`` of the people away (disconnected, or idle at a match at
    stake) for `TAKEOVER_AFTER`, the longest away first: where both sides are
    away, the first to have gone loses (`records.rulebook`). A person's pause
    does not stop the absence; any other pause does."""
    cut = now - TAKEOVER_AFTER
    rows = (
        Seat.objects.filter(kind=Seat.Kind.HUMAN, substitute=False, room__status__in=IN_PLAY)
        .filter(Q(connected=False, disconnected_at__lte=cut) | Q(idle_since__lte=cut))
        .filter(Q(room__paused=False) | Q(room__paused_by=rulebook.PAUSED_BY_PLAYER))
        .only("room_id", "index", "connected", "disconnected_at", "idle_since")
    )
    away = sorted(rows, key=lambda s: (rulebook.away_since(s) or now, s.room_id, s.index))
    return [(seat.room_id, seat.index) for seat in away]


def _safely(func: Callable[..., Any], *args: Any, **kwargs: Any) -> int:
    """One failing room must not stop the sweep of the others."""
    try:
        return int(bool(func(*args, **kwargs)))
    except Exception:  # noqa: BLE001 - logged; the next sweep tries again
        log.exception("sweep step %s%r failed", getattr(func, "__name__", func), args)
        return 0


def _seats_of_dead_processes(now: datetime) -> list[tuple[int, int, str]]:
    """Connected human seats whose socket lives in a server process that has not
    beaten for a TTL (``domino_site.realtime.liveness``; Redis layer only). A seat bound
    less than a TTL ago is left alone: its process may not have beaten yet.

    The database is asked for the distinct processes first (the part of the
    channel names up to ``!``: a handful of rows), Redis about those, and the
    database again only for the seats of dead ones."""
    if not liveness.enabled():
        return []
    bound_before = now - timedelta(seconds=liveness.ttl_seconds())
    candidates = (
        Seat.objects.filter(kind=Seat.Kind.HUMAN, connected=True, last_seen__lte=bound_before)
        .exclude(room__status=Room.Status.CLOSED)
        .exclude(channel_name="")
    )
    heads = candidates.annotate(
        head=Substr("channel_name", 1, StrIndex("channel_name", Value("!")))
    ).values_list("head", flat=True)
    processes = {p for head in set(heads.distinct()) if (p := liveness.process_of(head))}
    dead = liveness.dead_processes(processes)
    if not dead:
        return []
    of_dead = Q()
    for process in dead:
        of_dead |= Q(channel_name__contains=f"{process}!")
    rows = (
        candidates.filter(of_dead)
        .order_by("room_id", "index")
        .values_list("room_id", "index", "channel_name")
    )
    return [row for row in rows if liveness.process_of(row[2]) in dead]


def _sweep_dead_watchers(now: datetime) -> int:
    """Watcher sockets (``rooms.watchers``) of a server process that died: they no
    longer count. Same rule as for seats: a socket younger than a TTL is left alone."""
    if not liveness.enabled():
        return 0
    dead = liveness.dead_processes(watching.watcher_processes())
    if not dead:
        return 0
    old = now - timedelta(seconds=liveness.ttl_seconds())
    names = [
        name
        for name in watching.watcher_channels_of(dead)
        if Watcher.objects.filter(channel_name=name, joined_at__lte=old).exists()
    ]
    return watching.forget_channels(names)


def _sweep_dead_socket(room_id: int, index: int, channel_name: str, now: datetime) -> bool:
    """The socket's server process died without closing it: exactly as if it had
    closed (``seat_disconnected``: pause, automatic move, takeover, expiry follow)."""
    bound = Seat.objects.filter(
        room_id=room_id, index=index, connected=True, channel_name=channel_name
    )
    if not bound.exists():  # reconnected (or gone) meanwhile
        return False
    seat_disconnected(room=room_id, index=index, channel_name=channel_name, now=now)
    return True


def _sweep_takeover(room_id: int, index: int, now: datetime) -> bool:
    return _take_over_away_seat(room=room_id, index=index, now=now)


@room_command(lobby=True, open_only=False)
def _take_over_away_seat(
    table: Table,
    *,
    room: RoomRef,
    index: int,
    now: datetime | None = None,
) -> bool:
    """Two minutes away counts as leaving: a bot stands in during a round (coming
    back before the result returns the seat); between rounds the seat empties."""
    room, now = table.room, table.now
    seat = table.seats[index]
    if (
        room.status not in IN_PLAY
        or (room.paused and not rulebook.absence_runs_while_paused(room.paused_by))
        or not seat.is_human
        or seat.substitute
        or not rulebook.away_too_long(seat, now)
        or (seat.connected and not at_stake_locked(table))  # idle counts at stake only
        or waiting_for(room, seat, table.seats)  # a private duel waits (its player may call a bot)
    ):
        table.unchanged()
        return False
    leave_locked(table, seat, "away")
    update_humans_since(room, table.seats, now)
    return True


def _sweep_empty(room_id: int, now: datetime) -> bool:
    return _pause_empty_room(room=room_id, now=now)


@room_command(lobby=True, open_only=False)
def _pause_empty_room(
    table: Table,
    *,
    room: RoomRef,
    now: datetime | None = None,
) -> bool:
    """Nobody is connected: the room notes since when, and pauses a game."""
    room, seats = table.room, table.seats
    if room.is_closed or any(s.is_human and s.connected for s in seats):
        table.unchanged()
        return False
    changed = room.no_humans_since is None
    update_humans_since(room, seats, table.now)
    paused = (
        not room.paused
        and room.status != Room.Status.WAITING
        and rulebook.pauses_when_empty(stake=at_stake_locked(table))
    )
    if paused:
        pause_locked(table, "empty")
    if not (changed or paused):
        table.unchanged()
    return paused


def _public_empty_for(room: Room, seats: Sequence[Seat], now: datetime) -> bool:
    return (
        room.visibility == Room.Visibility.PUBLIC
        and not any(s.is_human and s.connected for s in seats)
        and room.no_humans_since is not None
        and room.no_humans_since <= now - PUBLIC_EMPTY_CLOSE_AFTER
    )


def _never_seeded(room: Room, seats: Sequence[Seat], now: datetime) -> bool:
    """A "play alone" table whose first deal never got its person's seed: its
    page was never opened (docs/rated-play.md, "Addresses")."""
    return (
        room.status == Room.Status.WAITING
        and room.start_on_seeds
        and room.created_at <= now - UNSEEDED_CLOSE_AFTER
    )


def _private_expired(room: Room, seats: Sequence[Seat], now: datetime) -> bool:
    return (
        room.visibility == Room.Visibility.PRIVATE
        and room.last_activity_at <= now - PRIVATE_EXPIRE_AFTER
    )


@transaction.atomic
def _close_if(
    room_id: int, now: datetime, reason: str, check: Callable[[Room, list[Seat], datetime], bool]
) -> bool:
    table = lock_table(room_id, now, open_only=False)
    if table.room.is_closed or not check(table.room, table.seats, now):
        return False
    room_close(room=table.room, reason=reason, now=now)
    return True
