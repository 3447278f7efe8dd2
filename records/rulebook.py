"""The rulebook of rated play: what a match that counts allows, decided here
and nowhere else (docs/rated-play.md, "The rulebook").

Every way to start, pause, pair, leave or score a match asks this module: the
rooms' services (opening a table, taking a seat, starting a match, accepting
a duelo's next game, pausing and resuming, the sweeper's takeover, leaving),
the quick-match queue, the arenas' pairing and scoring. None of them decides
a rated rule for itself. The records' own writes ask it too: whether a lineup
is rated (`table_rated`, at the start, every deal and the finish; with the
pair limit, `lineup_rated`, at the start, the lobby's marker and the finish)
and whether it counts (`everyone_moved`) before ratings and experience move;
after a rated result, whether its people look like trading wins
(`win_trading`). The rules
read plain facts (seats, addresses, times) and answer with a value or a
refusal (`games.errors.ServiceError`); the rows are written by the callers.

A match is **at stake** while it is in progress, its lineup rated and still
played by the people it started with (`at_stake`): leaving it, pausing it and
idling at it follow the rules below.

>>> may_meet("a1", "b2"), may_meet("a1", "a1"), may_meet("", "")
(True, False, True)
>>> turn_limit(move_seconds=None, stake=True) == IDLE_TURN
True
>>> turn_limit(move_seconds=None, stake=False) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games.errors import ServiceError
from games.models import Match, Move
from games.world import now_or
from records.models import ALL_PRESETS, Cooldown, MatchLineup, Rating, RatingChange
from records.signals import rated_restriction

# A person's pauses at a match at stake: this much in all, per match.
PAUSE_BUDGET = timedelta(seconds=90)
# A connected person's turn at a match at stake without a move clock: the
# server plays it (a timeout) after this long, and the person is idle.
IDLE_TURN = timedelta(seconds=60)
# Away (disconnected, or idle) this long: the seat is given up (a forfeit).
AWAY_LIMIT = timedelta(minutes=2)
# Whoever leaves while someone of the other side has been away this long is not
# charged: the one away is (a network blip of a few seconds does not count).
AWAY_EXCUSES_AFTER = timedelta(seconds=30)

PAUSED_BY_PLAYER = "player"  # a pause from a person's budget (Room.paused_by)

# Rated results between the same two people (two accounts on opposite sides of
# a rated match, whoever sat where and whoever asked): at most this many change
# ratings within `PAIR_WINDOW`; a match of theirs past it is not rated.
PAIR_RATED_LIMIT = 3
PAIR_WINDOW = timedelta(hours=24)
# Two people with this many rated matches between them within
# `WIN_TRADING_WINDOW`, one of them winning `WIN_TRADING_PERCENT` % of them or
# more, go to the moderators' queue ("possible win trading").
WIN_TRADING_MATCHES = 10
WIN_TRADING_WINDOW = timedelta(days=7)
WIN_TRADING_PERCENT = 80  # (an integer: 8 of 10 is exactly 80 %)


# ---------------------------------------------------------------------- who counts


def table_rated(
    seats: Sequence[Any], *, allow_empty: bool = False, competitive: bool = True
) -> tuple[bool, str]:
    """``(rated, why not)`` for these seats: every seat a human with an account,
    each with a known address and no two with the same one. ``allow_empty``: empty
    seats do not count against it (the lobby's marker for a table still filling;
    a match only starts with every seat taken). A friendly table (not
    ``competitive``, the creator's choice) is never rated."""
    if not competitive:
        return False, MatchLineup.Reason.FRIENDLY
    hashes = []
    for seat in seats:
        if seat.kind == "empty":
            if allow_empty:
                continue
            return False, MatchLineup.Reason.EMPTY
        if seat.kind != "human":
            return False, MatchLineup.Reason.BOT
        if not seat.user_id:
            return False, MatchLineup.Reason.GUEST
        if not seat.ip_hash:
            return False, MatchLineup.Reason.UNKNOWN_IP
        hashes.append(seat.ip_hash)
    if not hashes:
        return False, MatchLineup.Reason.EMPTY
    if len(set(hashes)) != len(hashes):
        return False, MatchLineup.Reason.SHARED_IP
    return True, ""


def lineup_rated(
    seats: Sequence[Any],
    *,
    side_of: Callable[[int], int],
    now: datetime,
    allow_empty: bool = False,
    competitive: bool = True,
) -> tuple[bool, str]:
    """`table_rated`, and the pair limit: a lineup in which two accounts on
    opposite sides (``side_of`` a seat index) already had `PAIR_RATED_LIMIT`
    rated results between them within `PAIR_WINDOW` is not rated
    (``pair_limit``). What every start, the lobby's marker and the finish ask."""
    rated, why = table_rated(seats, allow_empty=allow_empty, competitive=competitive)
    if rated and pair_limit_reached(users=lineup_of(seats), side_of=side_of, now=now):
        return False, MatchLineup.Reason.PAIR_LIMIT
    return rated, why


def opposing_pairs(
    users: Sequence[int | None], side_of: Callable[[int], int]
) -> set[frozenset[int]]:
    """The pairs of accounts of a lineup (by seat) on opposite sides: at
    parceria each account with each of the other side's, never partners.

    >>> sorted(map(sorted, opposing_pairs([1, 2, 3, None], lambda i: i % 2)))
    [[1, 2], [2, 3]]
    >>> opposing_pairs([5, 5], lambda i: i)
    set()
    """
    pairs = set()
    for i, a in enumerate(users):
        for j, b in enumerate(users):
            if a and b and a != b and side_of(i) != side_of(j):
                pairs.add(frozenset((a, b)))
    return pairs


@dataclass(frozen=True)
class Meeting:
    """A rated match between two accounts: its id, when it changed their
    ratings, and which of the two won it (None: neither, say both lost)."""

    match_id: int
    at: datetime
    winner: int | None


def rated_meetings(
    pairs: set[frozenset[int]], *, since: datetime
) -> dict[frozenset[int], list[Meeting]]:
    """For each pair, the rated matches since ``since`` in which the two sat on
    opposite sides and their ratings changed (`RatingChange`, the overall
    scope), the oldest first."""
    ids = {user for pair in pairs for user in pair}
    found: dict[frozenset[int], list[Meeting]] = {pair: [] for pair in pairs}
    if not ids:
        return found
    rows = RatingChange.objects.filter(
        preset=ALL_PRESETS, created_at__gte=since, user_id__in=ids
    ).values_list("match_id", "user_id", "side", "won", "created_at")
    by_match: dict[int, dict[int, tuple[int, bool, datetime]]] = {}
    for match_id, user_id, side, won, at in rows:
        by_match.setdefault(match_id, {})[user_id] = (side, won, at)
    for match_id, people in sorted(
        by_match.items(), key=lambda kv: min(v[2] for v in kv[1].values())
    ):
        for pair in pairs:
            a, b = sorted(pair)
            if a in people and b in people and people[a][0] != people[b][0]:
                winner = a if people[a][1] else b if people[b][1] else None
                found[pair].append(Meeting(match_id, people[a][2], winner))
    return found


def pair_limit_reached(
    *, users: Sequence[int | None], side_of: Callable[[int], int], now: datetime
) -> bool:
    """Two accounts of this lineup on opposite sides already had
    `PAIR_RATED_LIMIT` rated results between them within `PAIR_WINDOW`."""
    pairs = opposing_pairs(users, side_of)
    if not pairs:
        return False
    meetings = rated_meetings(pairs, since=now - PAIR_WINDOW)
    return any(len(found) >= PAIR_RATED_LIMIT for found in meetings.values())


@dataclass(frozen=True)
class WinTrading:
    """Two accounts whose rated matches within `WIN_TRADING_WINDOW` look like
    one losing on purpose: ``winner`` won `WIN_TRADING_PERCENT` % or more of the
    ``matches`` (ids, the oldest first) against ``loser``."""

    winner: int
    loser: int
    matches: tuple[int, ...]


def win_trading(
    *, users: Sequence[int | None], side_of: Callable[[int], int], now: datetime
) -> list[WinTrading]:
    """The opposing pairs of this lineup with `WIN_TRADING_MATCHES` or more
    rated matches between them within `WIN_TRADING_WINDOW`, one of the two
    having won `WIN_TRADING_PERCENT` % of them or more (docs/rated-play.md,
    "Rated results between the same two people")."""
    found = []
    meetings = rated_meetings(opposing_pairs(users, side_of), since=now - WIN_TRADING_WINDOW)
    for pair, matches in meetings.items():
        if len(matches) < WIN_TRADING_MATCHES:
            continue
        for winner in sorted(pair):
            won = sum(1 for m in matches if m.winner == winner)
            if won * 100 >= WIN_TRADING_PERCENT * len(matches):
                (loser,) = pair - {winner}
                found.append(WinTrading(winner, loser, tuple(m.match_id for m in matches)))
    return found


def lineup_of(seats: Sequence[Any]) -> list[int | None]:
    """The account playing each seat (None: a bot, a guest or nobody)."""
    return [seat.user_id if seat.kind == "human" else None for seat in seats]


def match_rated(*, match: Match, seats: Sequence[Any]) -> bool:
    """A match in progress that is rated and still played by the people it
    started with: leaving it before its end is a forfeit (docs/rated-play.md)."""
    if match.over:
        return False
    lineup = MatchLineup.objects.filter(match=match).values_list("rated", "users").first()
    return lineup is not None and lineup[0] and lineup[1] == lineup_of(seats)


def everyone_moved(match_id: int, users: Sequence[int | None]) -> bool:
    """Whether every seat of the lineup made at least one move of the match
    themselves (``by="person"``)."""
    moved = set(
        Move.objects.filter(round__match_id=match_id, by=Move.By.PERSON)
        .values_list("seat", flat=True)
        .distinct()
    )
    return all(index in moved for index in range(len(users)))


# ---------------------------------------------------------------------- cool-down


@dataclass(frozen=True)
class ActiveCooldown:
    """A person's running abandonment cool-down: until when, why (a
    `Cooldown.Reason` value) and the sentence the pages show."""

    until: datetime
    reason: str
    message: str


def cooldown_for(*, user: Any, now: datetime | None = None) -> ActiveCooldown | None:
    """The cool-down ``user`` is serving now (the one ending last), or None: they
    may join the quick-match queue and rated tables (docs/rated-play.md). A
    suspension from rated play an app above answers for
    (`records.signals.rated_restriction`) counts as one."""
    if not getattr(user, "is_authenticated", False) and not isinstance(user, int):
        return None
    user_id = user if isinstance(user, int) else user.pk
    row = (
        Cooldown.objects.filter(user_id=user_id, lifted_at__isnull=True, until__gt=now_or(now))
        .order_by("-until")
        .first()
    )
    found: list[ActiveCooldown] = []
    for _receiver, answer in rated_restriction.send(
        sender=Cooldown, user_id=user_id, now=now_or(now)
    ):
        if isinstance(answer, ActiveCooldown):
            found.append(answer)
    if row is not None:
        found.append(
            ActiveCooldown(until=row.until, reason=row.reason, message=cooldown_message(row))
        )
    return max(found, key=lambda c: c.until, default=None)


def cooldown_message(row: Cooldown) -> str:
    """ "Você abandonou…: pode voltar às 14:30." in the reader's language."""
    until = timezone.localtime(row.until)
    when = formats.date_format(until, "SHORT_DATETIME_FORMAT")
    return gettext(
        "You %(reason)s: you may join rated tables and the quick-match queue again at %(until)s."
    ) % {"reason": Cooldown.Reason(row.reason).label, "until": when}


# ---------------------------------------------------------------------- stakes


def at_stake(*, match: Any, seats: Sequence[Any]) -> bool:
    """The match is in progress, rated, still played by its lineup, and they
    still make a rated table (two who now connect from one address do not:
    such a match would finish unrated, so nothing in it is at stake)."""
    return match is not None and table_rated(seats)[0] and match_rated(match=match, seats=seats)


def marked_at_stake(room: Any) -> bool:
    """`at_stake` as the play path reads it without a query: the room's rated
    marker (`records.selectors.table_marker`, kept with every change of its
    seats: its people make a rated table and its match is still theirs)."""
    return bool(room.rated and room.competitive)


def may_be_rated(*, seats: Sequence[Any], competitive: bool) -> bool:
    """A match started now by these seats would be rated."""
    return table_rated(seats, competitive=competitive)[0]


def check_no_cooldown(user: Any, now: datetime) -> None:
    """Refuse ``cooldown`` (with ``until``) while ``user`` serves an abandonment
    cool-down: no rated table, no quick-match queue, no arena pairing."""
    cooldown = cooldown_for(user=user, now=now)
    if cooldown is not None:
        raise ServiceError(
            "cooldown", cooldown.message, extra={"until": cooldown.until.isoformat()}
        )


def check_match_start(
    *, seats: Sequence[Any], competitive: bool, now: datetime, actor_user: Any = None
) -> None:
    """Every match start, whatever the path (the host's ``start``, the last
    acceptance of a duelo's next game, a quick-match or arena table): a match
    that would be rated does not start while one of its people serves a
    cool-down. The person in cool-down reads their own sentence; the others
    read who holds the table back."""
    if not may_be_rated(seats=seats, competitive=competitive):
        return
    actor_id = getattr(actor_user, "pk", actor_user)
    for seat in seats:
        cooldown = cooldown_for(user=seat.user_id, now=now)
        if cooldown is None:
            continue
        message = cooldown.message
        if seat.user_id != actor_id and cooldown.reason == "suspended":  # (people's sanction)
            message = _("%(name)s is suspended from rated play.") % {"name": seat.display_name}
        elif seat.user_id != actor_id:
            message = _(
                "%(name)s left a rated match before its end and may not play rated matches yet."
            ) % {"name": seat.display_name}
        raise ServiceError("cooldown", message, extra={"until": cooldown.until.isoformat()})


# ---------------------------------------------------------------------- pairing


def may_be_paired(user: Any, now: datetime) -> bool:
    """The site may seat ``user`` at a rated table it makes (an arena's): not
    while they serve a cool-down."""
    return cooldown_for(user=user, now=now) is None


def may_meet(address: str, other: str) -> bool:
    """Two accounts may be paired by the site (an arena) unless they connect
    from one address: such a lineup could never be rated.

    An unknown address ("") meets anyone; its lineups are not rated either.
    """
    return not (address and address == other)


def scores_standings(match: Any) -> bool:
    """Whether an arena match's result earns points: only a lineup that could
    be rated does (every seat an account, no two at one address). A rated match
    that counted for nobody because someone never moved still scores (the
    arena's walkover for absence), and so does one past the pair limit (its
    lineup could be rated: the limit is on ratings, not on an arena's points)."""
    row = MatchLineup.objects.filter(match=match).values_list("rated", "reason").first()
    could_be = (MatchLineup.Reason.NO_MOVE, MatchLineup.Reason.PAIR_LIMIT)
    return row is not None and (row[0] or row[1] in could_be)


# ---------------------------------------------------------------------- pauses


def check_may_pause(*, stake: bool, host: bool, used: timedelta) -> None:
    """Who may pause: at a match at stake, every person playing their seat,
    from their own budget; elsewhere the host alone, for as long as they like."""
    if stake:
        if used >= PAUSE_BUDGET:
            raise ServiceError(
                "bad_message",
                _("Your pause time for this match is used up."),
                reason="no_pause_left",
            )
        return
    if not host:
        raise ServiceError("not_host", _("Only the host can do that."))


def check_may_resume(*, by_player: bool, pauser: bool, host: bool) -> None:
    """A person's pause (at a match at stake) is resumed by its pauser, or
    lapses by itself; any other pause by the host."""
    if by_player and not pauser:
        raise ServiceError(
            "not_host", _("Only who paused can resume: the game resumes by itself soon.")
        )
    if not by_player and not host:
        raise ServiceError("not_host", _("Only the host can do that."))


def pause_lapses_at(*, paused_at: datetime, used: timedelta) -> datetime:
    """When a person's pause ends by itself: their budget's end."""
    return paused_at + max(PAUSE_BUDGET - used, timedelta(0))


def absence_runs_while_paused(paused_by: str) -> bool:
    """A person's pause does not stop their absence: who pauses and leaves is
    given up as anyone away is. The host's pause of a table that is not at
    stake, and the pause for want of people, freeze it."""
    return paused_by == PAUSED_BY_PLAYER


def pauses_when_empty(*, stake: bool) -> bool:
    """A table nobody is connected to pauses, unless its match is at stake:
    there the absences run, and the first to have left loses."""
    return not stake


# ---------------------------------------------------------------------- idle and away


def turn_limit(*, move_seconds: int | None, stake: bool) -> timedelta | None:
    """How long a connected person's turn may last before the server plays it:
    the table's move clock, else at a match at stake `IDLE_TURN`."""
    if move_seconds:
        return timedelta(seconds=move_seconds)
    return IDLE_TURN if stake else None


def away_since(seat: Any) -> datetime | None:
    """Since when ``seat``'s person is away: disconnected, or idle (connected,
    their turns played by the clock at a match at stake) — the earlier."""
    times = [seat.idle_since] if seat.idle_since is not None else []
    if not seat.connected and seat.disconnected_at is not None:
        times.append(seat.disconnected_at)
    return min(times) if times else None


def away_too_long(seat: Any, now: datetime) -> bool:
    """Away `AWAY_LIMIT` or longer: the seat is given up."""
    since = away_since(seat)
    return since is not None and since <= now - AWAY_LIMIT


def charged_for_leaving(
    *,
    leaver: Any,
    seats: Sequence[Any],
    side_of: Any,
    now: datetime,
    paused_seat: int | None = None,
) -> set[int]:
    """Who loses a match at stake that ``leaver`` leaves: the leaver, unless
    someone of another side has been away `AWAY_EXCUSES_AFTER` or longer (idle
    or disconnected), or paused the game (``paused_seat``) and went away: then
    those away lose it, and the leaver is not charged."""
    cut = now - AWAY_EXCUSES_AFTER
    mine = side_of(leaver.index)

    def gone(seat: Any) -> bool:
        since = away_since(seat)
        if since is None:
            return False
        return since <= cut or (seat.index == paused_seat and not seat.connected)

    away = {
        seat.index
        for seat in seats
        if side_of(seat.index) != mine and seat.kind == "human" and gone(seat)
    }
    return away or {leaver.index}


# ---------------------------------------------------------------------- established accounts


def established_account(*, user: Any, now: datetime | None = None) -> bool:
    """An account old enough and with enough rated matches to be trusted where
    a new one would be a throwaway (a puzzle's rating: docs/site.md, "Puzzles"):
    signed up at least ``ESTABLISHED_ACCOUNT_DAYS`` ago and with at least
    ``ESTABLISHED_ACCOUNT_MATCHES`` rated matches (settings). A guest never is."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    days = int(getattr(settings, "ESTABLISHED_ACCOUNT_DAYS", 7))
    matches = int(getattr(settings, "ESTABLISHED_ACCOUNT_MATCHES", 5))
    if user.date_joined > now_or(now) - timedelta(days=days):
        return False
    if matches <= 0:
        return True
    return Rating.objects.filter(user=user, preset=ALL_PRESETS, matches__gte=matches).exists()
