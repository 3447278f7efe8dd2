"""Reads of a person's data (docs/site.md, "Your data (LGPD)").

`account_export` is the copy of everything the site keeps about an account,
one JSON-ready dict whose sections docs/site.md lists field by field. Each
section reads the app that keeps those rows (this app sits above them all).
A round is given as the round's JSON download gives it to a player of that
round (`games.selectors.replay_export`, only once the round is finished and
only for a room whose rounds `rooms.selectors.may_see_rounds` lets this person
see); a round still in play gives its number and no tile: nobody's hand, not
even one's own (it changes with the next move), and never the boneyard.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import Q
from django.utils import timezone

from accounts import selectors as accounts_selectors
from arenas.models import ArenaPlayer
from domino_site.removed import shown_name
from domino_site.validators import confusable_with
from games.models import Match, Round
from games.selectors import replay_export
from games.world import world
from people.models import (
    Block,
    Challenge,
    FriendRequest,
    Friendship,
    Preferences,
    QueuePartner,
    Report,
    Sanction,
)
from puzzles.models import PuzzlePlayer, PuzzleTry
from records.models import Cooldown, MatchLineup, Rating, RatingChange, RoundPlayer
from rooms.selectors import may_see_rounds
from twofactor.selectors import has_app, has_two_factor, recovery_codes_left

from .models import DataRequest, HeldName

EXPORT_FORMAT = 1


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def held_names(*, now: datetime | None = None) -> list[str]:
    """The names a removed account had that are still held (`HeldName`), for the
    sign-up form's confusable check (case and look-alikes count there)."""
    now = now or world().now()
    return list(HeldName.objects.filter(until__gt=now).values_list("name", flat=True))


def on_name_held(sender: Any, *, name: str, **kwargs: Any) -> bool:
    """The answer to `domino_site.removed.name_held`: ``name`` is, or looks like
    (case, TR39 skeletons), a name held after a deletion."""
    return confusable_with(name, held_names()) is not None


def exports_recent(user: Any, *, now: datetime | None = None) -> int:
    """Copies this account took itself within `settings.PRIVACY_EXPORT_WINDOW`."""
    since = (now or world().now()) - settings.PRIVACY_EXPORT_WINDOW
    return DataRequest.objects.filter(
        user=user,
        kind=DataRequest.Kind.EXPORT,
        source=DataRequest.Source.SITE,
        done_at__gte=since,
    ).count()


def user_sessions(user: Any) -> list[Session]:
    """The unexpired sessions signed in as ``user``: Django's session rows do not
    name their account, so each is decoded (rare: an export, a deletion)."""
    found = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            found.append(session)
    return found


# ------------------------------------------------------------------ the copy


def _account(user: Any) -> dict[str, Any]:
    return {
        "username": user.username,
        "date_joined": _iso(user.date_joined),
        "last_login": _iso(user.last_login),
        "is_staff": user.is_staff,
    }


def _accounts_app_section(user: Any) -> dict[str, Any]:
    """The accounts' part (their selectors): the email addresses as they stand,
    their history, the mail written to the person, the signed-in sessions
    (device, masked address, last seen; never a session key, a credential),
    and two-step sign-in (on or off, never a key or a code)."""
    history = accounts_selectors.email_history(user)
    return {
        "email_addresses": [
            {"email": a.email, "state": a.state, "confirmed_at": _iso(a.confirmed_at)}
            for a in history
            if a.state in ("pending", "confirmed")
        ],
        "email_history": [
            {
                "email": a.email,
                "state": a.state,
                "added_at": _iso(a.created_at),
                "confirmed_at": _iso(a.confirmed_at),
                "ended_at": _iso(a.ended_at),
            }
            for a in history
        ],
        "mail": [
            {
                "kind": m.kind,
                "to": m.to,
                "created_at": _iso(m.created_at),
                "sent_at": _iso(m.sent_at),
            }
            for m in accounts_selectors.mails_to(user)
        ],
        "sessions": [
            {
                "device": r.device,
                "address": r.address,
                "signed_in_at": _iso(r.created_at),
                "last_seen": _iso(r.last_seen),
            }
            for r in accounts_selectors.sessions_of(user)
        ],
        "two_step": {
            "on": has_two_factor(user),
            "app": has_app(user),
            "recovery_codes_left": recovery_codes_left(user),
        },
    }


def _ratings(user: Any) -> dict[str, Any]:
    ratings = [
        {
            "preset": r.preset,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "matches": r.matches,
            "wins": r.wins,
            "xp": r.xp,
            "updated_at": _iso(r.updated_at),
        }
        for r in Rating.objects.filter(user=user).order_by("preset")
    ]
    history = [
        {
            "match": c.match_id,
            "preset": c.preset,
            "seat": c.seat,
            "side": c.side,
            "won": c.won,
            "xp": c.xp,
            "mu_before": c.mu_before,
            "sigma_before": c.sigma_before,
            "mu_after": c.mu_after,
            "sigma_after": c.sigma_after,
            "at": _iso(c.created_at),
        }
        for c in RatingChange.objects.filter(user=user).order_by("created_at", "id")
    ]
    cooldowns = [
        {
            "reason": c.reason,
            "match": c.match_id,
            "step": c.step,
            "started_at": _iso(c.started_at),
            "until": _iso(c.until),
            "lifted_at": _iso(c.lifted_at),
        }
        for c in Cooldown.objects.filter(user=user).order_by("started_at")
    ]
    return {"ratings": ratings, "rating_history": history, "cooldowns": cooldowns}


def _rounds_of(match: Match, seen: Callable[[Any], bool]) -> list[dict[str, Any]]:
    rounds = []
    for rnd in Round.objects.filter(match=match).select_related("room", "match").order_by("number"):
        if rnd.finished_at is not None and seen(rnd.room):
            exported = replay_export(rnd)
            for player in exported["players"]:
                player["name"] = shown_name(player.get("name") or "")
            rounds.append(exported)
        else:  # in play (or not to be seen): no tile of anybody's
            rounds.append({"number": rnd.number, "finished": rnd.finished_at is not None})
    return rounds


def _matches(user: Any) -> list[dict[str, Any]]:
    """Every match this account was dealt a round in, with its seat(s) and rounds."""
    seats: dict[int, set[int]] = {}
    for match_id, index in RoundPlayer.objects.filter(user=user).values_list("match", "index"):
        seats.setdefault(match_id, set()).add(index)
    visible: dict[int, bool] = {}

    def seen(room: Any) -> bool:
        if room.pk not in visible:
            visible[room.pk] = may_see_rounds(room=room, user=user)
        return visible[room.pk]

    lineups = dict(MatchLineup.objects.filter(match__in=seats).values_list("match", "rated"))
    matches = []
    for match in Match.objects.filter(pk__in=seats).select_related("room").order_by("created_at"):
        matches.append(
            {
                "id": match.pk,
                "room": match.room.code,
                "room_name": match.room.name,
                "preset": match.room.preset,
                "number": match.number,
                "seats": sorted(seats[match.pk]),
                "rated": lineups.get(match.pk),
                "scores": match.scores,
                "over": match.over,
                "winner_side": match.winner,
                "annulled": match.annulled,
                "created_at": _iso(match.created_at),
                "finished_at": _iso(match.finished_at),
                "rounds": _rounds_of(match, seen),
            }
        )
    return matches


def _people(user: Any) -> dict[str, Any]:
    friends = [
        {"name": shown_name(other.username), "since": _iso(f.since)}
        for f in Friendship.objects.filter(Q(low=user) | Q(high=user)).select_related("low", "high")
        for other in [f.high if f.low_id == user.pk else f.low]
    ]
    requests = [
        {
            "from": shown_name(r.sender.username),
            "to": shown_name(r.recipient.username),
            "at": _iso(r.created_at),
        }
        for r in FriendRequest.objects.filter(Q(sender=user) | Q(recipient=user)).select_related(
            "sender", "recipient"
        )
    ]
    blocks = [
        {"name": shown_name(b.blocked.username), "since": _iso(b.created_at)}
        for b in Block.objects.filter(blocker=user).select_related("blocked")
    ]
    challenges = [
        {
            "from": shown_name(c.challenger.username),
            "to": shown_name(c.challenged.username),
            "preset": c.preset,
            "move_seconds": c.move_seconds,
            "rated": c.competitive,
            "status": c.status,
            "room": c.room.code if c.room else None,
            "created_at": _iso(c.created_at),
            "answered_at": _iso(c.answered_at),
        }
        for c in Challenge.objects.filter(Q(challenger=user) | Q(challenged=user)).select_related(
            "challenger", "challenged", "room"
        )
    ]
    reports = [  # the reports this person made, never those about them
        {
            "about": shown_name(r.reported.username),
            "reason": r.reason,
            "note": r.note,
            "match": r.match_id,
            "status": r.status,
            "created_at": _iso(r.created_at),
        }
        for r in Report.objects.filter(reporter=user).select_related("reported")
    ]
    sanctions = [  # what staff did about this person (shown on their own profile)
        {
            "kind": s.kind,
            "reason": s.reason,
            "until": _iso(s.until),
            "created_at": _iso(s.created_at),
            "lifted_at": _iso(s.lifted_at),
        }
        for s in Sanction.objects.filter(user=user)
    ]
    partner = QueuePartner.objects.filter(user=user).select_related("partner").first()
    return {
        "friends": friends,
        "friend_requests": requests,
        "blocks": blocks,
        "challenges": challenges,
        "reports_made": reports,
        "sanctions": sanctions,
        "queue_partner": shown_name(partner.partner.username) if partner else None,
    }


def _settings(user: Any) -> dict[str, Any]:
    preferences = Preferences.objects.filter(user=user).first()
    return {
        "challenges": preferences.challenges if preferences else Preferences.Challenges.EVERYONE,
    }


def _puzzles(user: Any) -> dict[str, Any]:
    player = PuzzlePlayer.objects.filter(user=user).first()
    tries = [
        {
            "puzzle": t.puzzle_id,
            "answer": t.action,
            "correct": t.correct,
            "rated": t.rated,
            "rating_before": t.rating_before,
            "rating_after": t.rating_after,
            "at": _iso(t.created_at),
        }
        for t in PuzzleTry.objects.filter(user=user).order_by("created_at", "id")
    ]
    return {
        "rating": (
            {
                "mu": player.mu,
                "sigma": player.sigma,
                "streak": player.streak,
                "best_streak": player.best_streak,
                "tries": player.tries,
            }
            if player
            else None
        ),
        "tries": tries,
    }


def _arenas(user: Any) -> list[dict[str, Any]]:
    return [
        {
            "arena": p.arena_id,
            "arena_name": p.arena.name,
            "joined_at": _iso(p.joined_at),
            "active": p.active,
            "score": p.score,
            "matches": p.matches,
            "wins": p.wins,
            "rank": p.rank,
        }
        for p in ArenaPlayer.objects.filter(user=user).select_related("arena")
    ]


def _requests(user: Any) -> list[dict[str, Any]]:
    return [
        {
            "kind": r.kind,
            "source": r.source,
            "requested_at": _iso(r.requested_at),
            "done_at": _iso(r.done_at),
        }
        for r in DataRequest.objects.filter(user=user)
    ]


def account_export(user: Any, *, now: datetime | None = None) -> dict[str, Any]:
    """Everything the site keeps about ``user`` (docs/site.md, "Your data (LGPD)")."""
    return {
        "format": EXPORT_FORMAT,
        "generated_at": _iso(now or world().now()),
        "account": _account(user),
        **_accounts_app_section(user),
        **_ratings(user),
        "matches": _matches(user),
        **_people(user),
        "settings": _settings(user),
        "puzzles": _puzzles(user),
        "arenas": _arenas(user),
        "data_requests": _requests(user),
    }
