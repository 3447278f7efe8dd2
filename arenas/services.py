"""Every write to arenas (docs/site.md, "Arenas"): scheduling one, joining,
leaving, cancelling, and the tick that starts it, scores its finished matches,
pairs its free players and ends it.

Every entry point is keyword-only and atomic. The arena row is the first lock
(`lock_arena`), taken before any room's: two processes ticking one arena at
once run one after the other, and the second finds the players the first
seated no longer free. ``now`` is injectable; after commit the change is told
(`arenas.events.arena_changed`) and the next tick is asked for.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils.translation import gettext as _

from arenas import events, limits
from arenas.models import Arena, ArenaMatch, ArenaPlayer
from arenas.pairing import Free, duel_pairs, four_tables
from arenas.scoring import rank_players, score_match
from games.models import Match
from games.world import now_or, world
from people.selectors import kept_apart
from records import rulebook
from records.selectors import shown_rating
from rooms import services as rooms
from rooms.errors import ServiceError
from rooms.models import Room, Seat

log = logging.getLogger(__name__)

MOVE_SECONDS = (None, 15, 30, 60)
MAX_MINUTES = 24 * 60


def _bad(reason: str, message: str) -> ServiceError:
    return ServiceError("bad_message", message, reason=reason)


def lock_arena(arena: Arena | int) -> Arena:
    """The arena row, locked for this transaction (``SELECT ... FOR UPDATE``;
    SQLite, which has no row locks, took its write lock at ``BEGIN IMMEDIATE``,
    settings.SQLITE_OPTIONS, as for the rooms' `lock_table`). Locking writes
    nothing: the version grows with a change only (`_changed`), so a tick with
    nothing to do is no frame to the watchers."""
    pk = arena.pk if isinstance(arena, Arena) else arena
    locked = Arena.objects.select_for_update().filter(pk=pk).first()
    if locked is None:
        raise ServiceError("not_found", _("This arena does not exist."))
    return locked


def _changed(arena: Arena, *, due: Sequence[datetime] = ()) -> None:
    """The locked ``arena`` changed: its version grows (the sockets send no
    frame older than one they sent) and the change is told after the commit,
    with the next ticks asked for (``due``)."""
    Arena.objects.filter(pk=arena.pk).update(version=F("version") + 1)
    arena.version += 1
    events.arena_changed(arena, due=due)


@transaction.atomic
def arena_create(
    *,
    name: str,
    preset: str,
    starts_at: datetime,
    minutes: int,
    move_seconds: int | None = None,
    visibility: str = Arena.Visibility.PUBLIC,
    created_by: Any = None,
    now: datetime | None = None,
) -> Arena:
    """A new arena (public ones are scheduled by admins, private ones by any
    logged-in player, who joins it at once)."""
    now = now_or(now)
    if preset not in Arena.Preset.values:
        raise _bad("bad_preset", _("An arena is duelo or parceria."))
    if visibility not in Arena.Visibility.values:
        raise _bad("bad_visibility", _("An arena is public or private."))
    if move_seconds not in MOVE_SECONDS:
        raise _bad("bad_clock", _("That move clock is not offered."))
    if not 1 <= int(minutes) <= MAX_MINUTES:
        raise _bad("bad_duration", _("An arena lasts from 1 minute to 24 hours."))
    arena = Arena.objects.create(
        name=(name or "").strip()[:80] or _("Arena"),
        preset=preset,
        move_seconds=move_seconds,
        starts_at=max(starts_at, now) if visibility == Arena.Visibility.PRIVATE else starts_at,
        minutes=int(minutes),
        visibility=visibility,
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
        created_at=now,
    )
    events.arena_changed(arena, due=[arena.starts_at, arena.ends_at])
    return arena


@transaction.atomic
def arena_join(
    *, arena: Arena | int, user: Any, ip_hash: str = "", now: datetime | None = None
) -> ArenaPlayer:
    """``user`` joins (or joins again after leaving) an arena that has not ended;
    ``rate_limited`` after too many joins and leaves (`arenas.limits`)."""
    now = now_or(now)
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Log in to join an arena."))
    arena = lock_arena(arena)
    if arena.status in (Arena.Status.FINISHED, Arena.Status.CANCELLED) or now >= arena.ends_at:
        raise _bad("arena_over", _("This arena is over."))
    player, created = ArenaPlayer.objects.get_or_create(
        arena=arena, user=user, defaults={"joined_at": now, "ip_hash": ip_hash or ""}
    )
    if not created and player.active:
        return player
    refusal = limits.join_refusal(player, now)
    if refusal is not None:
        raise refusal
    limits.count_toggle(player, now)
    player.active = True
    player.ip_hash = ip_hash or player.ip_hash
    if player.table_id is None:
        player.free_since = now
    player.save()
    _changed(arena, due=[now])
    return player


@transaction.atomic
def arena_leave(*, arena: Arena | int, user: Any, now: datetime | None = None) -> None:
    """``user`` leaves: never paired again (a match being played goes on and
    counts). Never refused, but it counts toward the joins' limit (`arenas.limits`)."""
    now = now_or(now)
    arena = lock_arena(arena)
    player = ArenaPlayer.objects.filter(arena=arena, user=user, active=True).first()
    if player is None:
        return
    player.active = False
    limits.count_toggle(player, now)
    player.save(update_fields=["active", "toggles"])
    _changed(arena)


@transaction.atomic
def arena_cancel(*, arena: Arena | int, now: datetime | None = None) -> Arena:
    """The admin's cancel: no more pairing; the matches being played go on but
    score nothing, and the arena has no podium."""
    arena = lock_arena(arena)
    if arena.status in (Arena.Status.FINISHED, Arena.Status.CANCELLED):
        return arena
    arena.status = Arena.Status.CANCELLED
    arena.save(update_fields=["status"])
    ArenaPlayer.objects.filter(arena=arena).update(table=None, free_since=None)
    _changed(arena)
    return arena


def arena_tick(*, arena: Arena | int, now: datetime | None = None) -> bool:
    """Start the arena when its time comes, score its ended matches, pair its
    free players, end it on time. Idempotent: ticking twice changes nothing
    more. Returns whether anything changed."""
    try:
        return _tick(arena=arena, now=now_or(now))
    except ServiceError:
        return False  # deleted meanwhile


@transaction.atomic
def _tick(*, arena: Arena | int, now: datetime) -> bool:
    arena = lock_arena(arena)
    changed = False
    if arena.status == Arena.Status.UPCOMING and now >= arena.starts_at:
        arena.status = Arena.Status.RUNNING
        ArenaPlayer.objects.filter(arena=arena, table=None).update(free_since=now)
        changed = True
    changed |= _score_ended(arena, now)  # (a cancelled arena's score nothing)
    if arena.status == Arena.Status.RUNNING and now >= arena.ends_at:
        arena.status = Arena.Status.FINISHED
        changed = True
    if arena.status == Arena.Status.RUNNING:
        changed |= _pair(arena, now)
    if arena.status == Arena.Status.FINISHED:
        changed |= _end_overdue(arena, now)
        changed |= _store_ranks(arena)
    if changed:
        arena.save(update_fields=["status"])
        _changed(arena, due=_next_due(arena, now))
    return changed


def arenas_sweep(*, now: datetime | None = None) -> int:
    """The safety net (run with the rooms' sweeper): tick every arena that may
    have something to do. Returns how many changed."""
    now = now_or(now)
    due = Arena.objects.filter(status=Arena.Status.UPCOMING, starts_at__lte=now)
    live = Arena.objects.filter(status=Arena.Status.RUNNING)
    open_matches = ArenaMatch.objects.filter(ended_at=None).values("arena_id")
    unscored = Arena.objects.filter(pk__in=open_matches)
    pks = set(due.values_list("pk", flat=True)) | set(live.values_list("pk", flat=True))
    pks |= set(unscored.values_list("pk", flat=True))
    return sum(arena_tick(arena=pk, now=now) for pk in sorted(pks))


def _next_due(arena: Arena, now: datetime) -> list[datetime]:
    if arena.status == Arena.Status.UPCOMING:
        return [arena.starts_at]
    if arena.status == Arena.Status.RUNNING:
        return [arena.ends_at, now + timedelta(seconds=rematch_seconds())]
    if arena.status == Arena.Status.FINISHED and _unfinished(arena).exists():
        return [arena.ends_at + overtime()]
    return []


def rematch_seconds() -> float:
    """How long two players who just met wait before they may meet again (when
    nobody else is free for either of them: `arenas.pairing.duel_pairs`)."""
    return float(getattr(settings, "ARENA_REMATCH_SECONDS", 20))


def overtime() -> timedelta:
    """How long after the arena's end a match may still be played: then it is
    ended as it stands (`_end_overdue`)."""
    return getattr(settings, "ARENA_OVERTIME", timedelta(minutes=5))


def _unfinished(arena: Arena) -> QuerySet[ArenaMatch]:
    return ArenaMatch.objects.filter(arena=arena, ended_at=None)


# ---------------------------------------------------------------------- scoring


def _score_ended(arena: Arena, now: datetime) -> bool:
    """Score every match of the arena whose room's match is over (or whose room
    closed without a result, which scores nothing); free its players."""
    changed = False
    for am in _unfinished(arena).select_related("room"):
        match = _match_of(am)
        if match is not None and match.over:
            scored = arena.status != Arena.Status.CANCELLED
            _finish_match(arena, am, match if scored else None, now, winner=match.winner)
            changed = True
        elif am.room.status == Room.Status.CLOSED:
            _finish_match(arena, am, None, now)
            changed = True
    return changed


def _match_of(am: ArenaMatch) -> Match | None:
    return Match.objects.filter(room_id=am.room_id).order_by("-number").first()


def _end_overdue(arena: Arena, now: datetime) -> bool:
    """`overtime` after the end, every match still being played is ended as it
    stands (`_as_it_stands`), so that the podium never waits for a table whose
    people went away from a paused game, or play on and on. The arena scores
    it; the match itself never finished, so it is not rated."""
    if now < arena.ends_at + overtime():
        return False
    overdue = list(_unfinished(arena).select_related("room"))
    for am in overdue:
        match = _match_of(am)
        seats = list(Seat.objects.filter(room_id=am.room_id).order_by("index"))
        winner = _as_it_stands(match, seats, now) if match is not None else None
        _finish_match(arena, am, match, now, winner=winner)
    return bool(overdue)


def _as_it_stands(match: Match, seats: list[Seat], now: datetime) -> int | None:
    """The winning side of a match stopped by the arena's end: against the side
    of whoever went away first (away for `AWAY_EXCUSES_AFTER` at least, so a
    blip does not count, as in `records.rulebook`); with nobody away, the side
    ahead on the match's points (level: a draw, None)."""
    cut = now - rulebook.AWAY_EXCUSES_AFTER
    away = sorted(
        (since, seat.index % 2)
        for seat in seats
        if (since := _absent_since(seat)) is not None and since <= cut
    )
    if away:
        return 1 - away[0][1]
    return _leader(match)


def _absent_since(seat: Seat) -> datetime | None:
    """Since when the person of ``seat`` is not playing it: away (disconnected or
    idle, `records.rulebook.away_since`), replaced by a bot, or never connected."""
    if not seat.is_human:
        return None
    since = rulebook.away_since(seat)
    if since is None and (seat.substitute or not seat.connected):
        since = seat.disconnected_at or seat.seated_at
    return since


def _leader(match: Match) -> int | None:
    """The side ahead on the match's points (the fewest at a "goat" match), or
    None when the best is shared."""
    scores = match.scores
    if not scores:
        return None
    best = min(scores) if match.engine().rules.scoring == "goat" else max(scores)
    leaders = [side for side, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None


def _finish_match(
    arena: Arena,
    am: ArenaMatch,
    match: Match | None,
    now: datetime,
    *,
    winner: int | None = None,
) -> None:
    """``am`` ends at ``now``: ``winner``'s side (None: a draw) earns its points
    when ``match`` counts (None: nothing scored); its players are free again
    and its room closes."""
    players = {
        p.user_id: p
        for p in ArenaPlayer.objects.select_for_update().filter(arena=arena, user__in=am.users)
    }
    # Points only for a lineup that could be rated (records.rulebook): two
    # accounts of one address earn nothing, whatever the result.
    if match is not None and not match.annulled and rulebook.scores_standings(match):
        am.winners, am.points = score_match(am, winner, players)
    am.ended_at = now
    am.save(update_fields=["winners", "points", "ended_at"])
    for player in players.values():
        player.table = None
        player.free_since = now
        player.save()
    if am.room.status != Room.Status.CLOSED:
        rooms.room_close(room=am.room_id, reason="arena", now=now)


def _store_ranks(arena: Arena) -> bool:
    """At the end, once every match is scored: each player's final rank."""
    if _unfinished(arena).exists():
        return False
    players = list(ArenaPlayer.objects.filter(arena=arena, rank=None, matches__gt=0))
    if not players:
        return False
    ranked = rank_players(ArenaPlayer.objects.filter(arena=arena, matches__gt=0))
    for position, player in enumerate(ranked, start=1):
        ArenaPlayer.objects.filter(pk=player.pk).update(rank=position)
    return True


# ---------------------------------------------------------------------- pairing


def _pair(arena: Arena, now: datetime) -> bool:
    """Seat the free, active players at new tables (never past the end)."""
    free = list(
        ArenaPlayer.objects.select_for_update()
        .filter(arena=arena, active=True, table=None)
        .select_related("user")
    )
    busy = set(
        ArenaPlayer.objects.exclude(arena=arena)
        .filter(user__in=[p.user_id for p in free], table__isnull=False)
        .values_list("user_id", flat=True)
    )
    # A player serving the cool-down of "Play with people" (an abandoned rated
    # match) is not paired until it ends (docs/site.md, "Arenas").
    free = [p for p in free if p.user_id not in busy and rulebook.may_be_paired(p.user, now)]
    if len(free) < arena.seats:
        return False
    by_user = {p.user_id: p for p in free}
    kept = kept_apart(p.user_id for p in free)  # blocks, either way: never at one table
    candidates = [_free_of(arena, p, free, now, kept) for p in free]
    if arena.seats == 2:
        tables: list[tuple[int, ...]] = list(
            duel_pairs(candidates, rematch_after=rematch_seconds())
        )
    else:
        tables = list(four_tables(candidates, world().rng()))
    ratings = {c.user: c.rating for c in candidates}
    opened = 0
    for users in tables:
        try:
            with transaction.atomic():  # one refused table (a seat refused) spoils no other
                _open_table(arena, [by_user[u] for u in users], ratings, now)
            opened += 1
        except ServiceError:
            log.warning("arena %s: could not seat %s", arena.pk, users, exc_info=True)
    return bool(opened)


def _free_of(
    arena: Arena,
    player: ArenaPlayer,
    free: list[ArenaPlayer],
    now: datetime,
    kept: set[frozenset[int]],
) -> Free:
    """``player`` as the pairing sees them; ``apart``: the free accounts they are
    never paired with: the rulebook's (one address) and a block either way
    (``kept``, `people.selectors.kept_apart`)."""
    waited = (now - player.free_since).total_seconds() if player.free_since else 0.0
    apart = tuple(
        other.user_id
        for other in free
        if other.user_id != player.user_id
        and (
            not rulebook.may_meet(player.ip_hash, other.ip_hash)
            or frozenset((player.user_id, other.user_id)) in kept
        )
    )
    return Free(
        user=player.user_id,
        score=player.score,
        rating=shown_rating(player.user, arena.preset).value,
        last=tuple(player.last_opponents or ()),
        partner=player.last_partner,
        waited=waited,
        apart=apart,
    )


def _open_table(
    arena: Arena, players: list[ArenaPlayer], ratings: dict[int, float], now: datetime
) -> None:
    """A new room for these players, in seat order, its match started at once."""
    first = players[0]
    visibility = (
        Room.Visibility.PUBLIC
        if arena.visibility == Arena.Visibility.PUBLIC
        else Room.Visibility.PRIVATE
    )
    room = rooms.room_create(
        user=first.user,
        name=arena.name,
        preset=arena.preset,
        visibility=visibility,
        move_seconds=arena.move_seconds,
        ip_hash=first.ip_hash,
        competitive=True,
        seated_by_pairing=True,  # nobody waits for an absent player here (rooms.models)
        now=now,
    )
    for index, player in enumerate(players[1:], start=1):
        rooms.seat_take(room=room, index=index, user=player.user, ip_hash=player.ip_hash, now=now)
    host = Seat.objects.get(room=room, index=0)
    rooms.match_start(room=room, actor=host, now=now)
    users = [p.user_id for p in players]
    ArenaMatch.objects.create(
        arena=arena,
        room=room,
        users=users,
        ratings=[ratings.get(u, 0) for u in users],
        started_at=now,
    )
    partnership = len(players) == 4
    for index, player in enumerate(players):
        player.table = room
        player.free_since = None
        player.last_opponents = [u for i, u in enumerate(users) if i % 2 != index % 2]
        player.last_partner = users[(index + 2) % 4] if partnership else None
        player.save()
