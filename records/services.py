"""Writes of people's records, called by the game services inside their own
transactions (so a record never disagrees with the game that made it):

* `match_started`: who the match starts with, and whether it is rated;
* `round_dealt`: who was dealt the round (profiles, replay access); a round dealt
  to other people, or to a table no longer rated, makes the match unrated;
* `match_finished`: experience points and the skill rating of a rated, finished,
  not annulled match, updated in the transaction that finishes it. A match in
  which a person never made a move themselves (every one of theirs made by the
  clock, the automatic pass or a stand-in bot) counts for nobody: nobody can be
  rated for a game they never played (docs/rated-play.md). Nor does one past
  the pair limit (`rulebook.lineup_rated`); after the commit of a rated result
  the pairs that look like trading wins are told (`records.signals.win_trading`).

A table is rated when every seat is a human with an account and no two of them
connect from one address (`records.rulebook.table_rated`; the seats' keyed
address hashes, `domino_site.client_ip`). The rule is checked when the match
starts, at every deal and once more when it finishes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction

from domino_site.guests import guest_key
from games.world import now_or
from records import rating, rulebook
from records.models import (
    ALL_PRESETS,
    Cooldown,
    MatchLineup,
    Rating,
    RatingChange,
    RoundPlayer,
    Signup,
)
from records.rulebook import lineup_of, table_rated
from records.signals import win_trading

WIN_POINTS_PER_PLAYER = 10  # the winning side shares 10 points per player at the table
LOSS_POINTS = 5  # every loser earns 5


@transaction.atomic
def match_started(
    *,
    match: Any,
    seats: Sequence[Any],
    competitive: bool = True,
    now: datetime | None = None,
) -> MatchLineup:
    """Record who ``match`` starts with and whether it is rated (never at a
    friendly table: not ``competitive``; nor past the pair limit,
    `rulebook.lineup_rated`)."""
    side_of = match.engine().rules.side_of
    rated, reason = rulebook.lineup_rated(
        seats, side_of=side_of, now=now_or(now), competitive=competitive
    )
    lineup, _ = MatchLineup.objects.update_or_create(
        match=match, defaults={"users": lineup_of(seats), "rated": rated, "reason": reason}
    )
    return lineup


@transaction.atomic
def round_dealt(*, rnd: Any, seats: Sequence[Any]) -> None:
    """Record the humans dealt ``rnd``; a rated match stays rated only while the
    same accounts play it at a table that is still rated."""
    RoundPlayer.objects.bulk_create(
        [
            RoundPlayer(
                round=rnd,
                match_id=rnd.match_id,
                room_id=rnd.room_id,
                index=seat.index,
                user_id=seat.user_id,
                guest_key=guest_key(seat.guest_token) or "",
            )
            for seat in seats
            if seat.kind == "human"
        ]
    )
    _keep_rated_only_if_same(rnd.match_id, seats)


def _keep_rated_only_if_same(match_id: int, seats: Sequence[Any]) -> MatchLineup | None:
    lineup = MatchLineup.objects.select_for_update().filter(match_id=match_id).first()
    if lineup is None or not lineup.rated:
        return None
    rated, reason = table_rated(seats)
    if rated and lineup_of(seats) == lineup.users:
        return lineup
    lineup.rated = False
    lineup.reason = reason or MatchLineup.Reason.CHANGED
    lineup.save(update_fields=["rated", "reason"])
    return None


@transaction.atomic
def match_finished(
    *, match: Any, preset: str, seats: Sequence[Any], now: datetime | None = None
) -> list[RatingChange]:
    """Experience points and ratings of a match that just ended (called in the
    transaction that ends it, with the seats as they are at that moment, before
    anyone leaves). Nothing for an annulled match, a match without a winner or an
    unrated one. Returns the changes (overall first, then the preset's)."""
    now = now_or(now)
    if not match.over or match.annulled or match.winner is None:
        return []
    lineup = _keep_rated_only_if_same(match.pk, seats)
    if lineup is None:
        return []
    if not rulebook.everyone_moved(match.pk, lineup.users):
        lineup.rated = False
        lineup.reason = MatchLineup.Reason.NO_MOVE
        lineup.save(update_fields=["rated", "reason"])
        return []
    rules = match.engine().rules
    if rulebook.pair_limit_reached(users=lineup.users, side_of=rules.side_of, now=now):
        # (two of them finished other rated matches meanwhile, at other tables)
        lineup.rated = False
        lineup.reason = MatchLineup.Reason.PAIR_LIMIT
        lineup.save(update_fields=["rated", "reason"])
        return []
    transaction.on_commit(
        partial(_look_for_win_trading, users=list(lineup.users), side_of=rules.side_of, now=now),
        robust=True,
    )
    players = [(index, user) for index, user in enumerate(lineup.users)]
    sides = sorted({rules.side_of(index) for index, _ in players})
    winners = [user for index, user in players if rules.side_of(index) == match.winner]
    share = WIN_POINTS_PER_PLAYER * len(players) // max(len(winners), 1)
    changes = []
    for scope in (ALL_PRESETS, preset):
        ratings = _locked_ratings([user for _, user in players], scope, now)
        teams = [
            [(index, user) for index, user in players if rules.side_of(index) == side]
            for side in sides
        ]
        before = [[_skill(ratings[user]) for _, user in team] for team in teams]
        ranks = [0 if side == match.winner else 1 for side in sides]
        after = rating.rate(before, ranks)
        for side, team, old_team, new_team in zip(sides, teams, before, after, strict=True):
            won = side == match.winner
            for (index, user), old, new in zip(team, old_team, new_team, strict=True):
                xp = share if won else LOSS_POINTS
                row = ratings[user]
                row.mu, row.sigma, row.ordinal = new.mu, new.sigma, new.ordinal
                row.matches += 1
                row.wins += int(won)
                row.xp += xp
                row.updated_at = now
                row.save()
                changes.append(
                    RatingChange(
                        match=match,
                        user_id=user,
                        preset=scope,
                        seat=index,
                        side=side,
                        won=won,
                        xp=xp,
                        mu_before=old.mu,
                        sigma_before=old.sigma,
                        mu_after=new.mu,
                        sigma_after=new.sigma,
                        created_at=now,
                    )
                )
    return RatingChange.objects.bulk_create(changes)


def _look_for_win_trading(*, users: list[int | None], side_of: Any, now: datetime) -> None:
    """After a rated result's commit: two of its people who look like trading
    wins (`rulebook.win_trading`) are told to the apps above
    (`records.signals.win_trading`: the people's moderation queue)."""
    for found in rulebook.win_trading(users=users, side_of=side_of, now=now):
        win_trading.send(
            sender=MatchLineup,
            winner_id=found.winner,
            loser_id=found.loser,
            match_ids=list(found.matches),
            now=now,
        )


def _skill(row: Rating) -> rating.Skill:
    return rating.Skill(mu=row.mu, sigma=row.sigma)


def _locked_ratings(users: list[int], preset: str, now: datetime) -> dict[int, Rating]:
    """The rating rows of ``users`` for ``preset``, created at the prior when new,
    locked (in primary-key order, so two matches finishing at once never deadlock)."""
    prior = rating.Skill()
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=user,
                preset=preset,
                mu=prior.mu,
                sigma=prior.sigma,
                ordinal=prior.ordinal,
                updated_at=now,
            )
            for user in users
        ],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(user_id__in=users, preset=preset)
    return {row.user_id: row for row in rows.order_by("pk")}


def signup_recorded(*, ip_hash: str, now: datetime | None = None) -> None:
    """An account was signed up from the address ``ip_hash`` (unknown: nothing)."""
    if ip_hash:
        Signup.objects.create(ip_hash=ip_hash, created_at=now_or(now))


# ------------------------------------------------------------------ abandonment

COOLDOWN_FIRST = timedelta(minutes=10)
COOLDOWN_FACTOR = 3  # another abandonment within COOLDOWN_ESCALATE_WITHIN: three times longer
COOLDOWN_MAX = timedelta(hours=48)
COOLDOWN_ESCALATE_WITHIN = timedelta(hours=24)
COOLDOWN_FORGOTTEN_AFTER = timedelta(days=7)


def cooldown_length(step: int) -> timedelta:
    """10 minutes, 30, 90, ... at most 48 hours.

    >>> [int(cooldown_length(s).total_seconds() // 60) for s in range(6)]
    [10, 30, 90, 270, 810, 2430]
    >>> cooldown_length(9) == COOLDOWN_MAX
    True
    """
    return min(COOLDOWN_FIRST * COOLDOWN_FACTOR ** min(step, 16), COOLDOWN_MAX)


def _next_step(last: Cooldown | None, now: datetime) -> int:
    """Escalate for an abandonment within a day of the last one, keep the step
    within a week, start over after seven clean days (a lifted one is forgiven)."""
    if last is None:
        return 0
    since = now - last.started_at
    if since <= COOLDOWN_ESCALATE_WITHIN:
        return last.step + 1
    if since <= COOLDOWN_FORGOTTEN_AFTER:
        return last.step
    return 0


@transaction.atomic
def abandonment_recorded(
    *,
    user: Any,
    reason: str,
    match: Any = None,
    name: str = "",
    now: datetime | None = None,
) -> Cooldown | None:
    """``user`` abandoned a rated match (``reason``: a `Cooldown.Reason`): a
    cool-down from ``now``, escalated by the recent ones. Once per match and
    person (a forfeit that is seen twice records one). None for a guest.
    ``name``: the one their seat showed, kept for the table's "X abandoned"."""
    now = now_or(now)
    user_id = getattr(user, "pk", user)
    if not user_id:
        return None
    if reason not in Cooldown.Reason.values:
        raise ValueError(f"not an abandonment reason: {reason!r}")
    # The person's rows are locked: two abandonments at once escalate one after the other.
    mine = Cooldown.objects.select_for_update().filter(user_id=user_id)
    if match is not None and mine.filter(match=match).exists():
        return None
    last = mine.filter(lifted_at__isnull=True).order_by("-started_at").first()
    step = _next_step(last, now)
    until = now + cooldown_length(step)
    if last is not None and last.until > until:  # never shorten a running one
        until = last.until
    return Cooldown.objects.create(
        user_id=user_id,
        reason=reason,
        match=match,
        name=name[:80],
        step=step,
        started_at=now,
        until=until,
    )


@transaction.atomic
def cooldown_lift(*, cooldown: Cooldown, by: Any = None, now: datetime | None = None) -> None:
    """An admin lifts a cool-down: it ends now and is forgiven (it does not count
    towards the next one's escalation)."""
    row = Cooldown.objects.select_for_update().get(pk=cooldown.pk)
    if row.lifted_at is None:
        row.lifted_at = now_or(now)
        row.lifted_by = by if getattr(by, "pk", None) else None
        row.save(update_fields=["lifted_at", "lifted_by"])
