"""Challenges (docs/site.md, "Challenges"): one person asks another, from their
profile, to play a match now: duelo or parceria (the two face each other;
parceria's other seats are medium bots, partners of each), a move clock,
rated or friendly. Services, keyword-only and atomic, refused with a
`people.errors.PeopleError` that changes nothing; the people concerned hear
of each change after the commit on their ``ws/people/`` sockets.

An accepted challenge opens a private table through the rooms' services (the
challenger at seat 0, the challenged at seat 1, the match started, its first
round dealt) and both are sent there. The rulebook is asked as everywhere:
the table opens only if its match may start (a rated one never while one of
the two serves a cool-down).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from domino_site.realtime.fanout import deliver
from games.models import Match
from games.world import now_or
from people import limits, selectors
from people.errors import PeopleError
from people.events import person_group
from people.models import Challenge, Preferences
from people.services import _lock
from records import rulebook
from records.models import MatchLineup
from rooms.errors import ServiceError
from rooms.models import MOVE_SECONDS_CHOICES, QUICK_PRESETS, Room, Seat
from rooms.selectors import viewer_seat
from rooms.services.bots import bot_add
from rooms.services.flow import match_start
from rooms.services.seating import seat_leave, seat_take
from rooms.services.tables import room_create

CHALLENGE_TTL = timedelta(minutes=5)  # a challenge nobody answered lapses
PRESETS = QUICK_PRESETS  # duelo, parceria
BOT_LEVEL = "medium"


def pending(now: datetime | None = None) -> Any:
    """The challenges still waiting at ``now``."""
    since = now_or(now) - CHALLENGE_TTL
    return Challenge.objects.filter(status=Challenge.Status.PENDING, created_at__gt=since)


def challenge_frame(challenge: Challenge) -> dict[str, Any]:
    """What the challenged person's pages show (``challenge``)."""
    return {
        "id": challenge.pk,
        "from": challenge.challenger.username,
        "preset": challenge.preset,
        "move_seconds": challenge.move_seconds,
        "rated": challenge.competitive,
        # A rated one whose people are past the pair limit is played unrated:
        # said before it is accepted (docs/rated-play.md, "The rulebook").
        "unrated": _unrated(challenge),
        "rematch": challenge.rematch_of_id is not None,
        "invited": _invited_names(challenge),
        "until": (challenge.created_at + CHALLENGE_TTL).isoformat(),
    }


def _unrated(challenge: Challenge) -> str | None:
    """``pair_limit`` when a rated challenge's people, on their sides (the
    challenger's side: seats 0 and 2, the challenged's: 1 and 3), are past the
    rulebook's pair limit now; else None."""
    if not challenge.competitive:
        return None
    users: list[int | None] = [challenge.challenger_id, challenge.challenged_id, None, None]
    for invite in challenge.invited or []:
        users[invite["seat"]] = invite["user"]
    past = rulebook.pair_limit_reached(users=users, side_of=lambda i: i % 2, now=now_or(None))
    return MatchLineup.Reason.PAIR_LIMIT if past else None


def _invited_names(challenge: Challenge) -> list[str]:
    if not challenge.invited:
        return []
    ids = [i["user"] for i in challenge.invited]
    names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    return [names.get(uid, "") for uid in ids]


def _tell(messages: list[tuple[int, dict[str, Any]]]) -> None:
    """After the commit: each ``(user id, event)`` to that person's pages."""

    def tell() -> None:
        deliver(get_channel_layer(), [("group", person_group(u), m) for u, m in messages])

    transaction.on_commit(tell, robust=True)


def may_challenge(*, challenger: Any, challenged: Any) -> bool:
    """Whether ``challenged``'s setting lets ``challenger`` challenge them (blocks apart)."""
    setting = (
        Preferences.objects.filter(user=challenged).values_list("challenges", flat=True).first()
        or Preferences.Challenges.EVERYONE
    )
    if setting == Preferences.Challenges.NOBODY:
        return False
    return setting == Preferences.Challenges.EVERYONE or selectors.are_friends(
        challenger, challenged
    )


@transaction.atomic
def challenge_send(
    *,
    challenger: Any,
    challenged: Any,
    preset: Any,
    move_seconds: Any,
    competitive: bool = True,
    ip_hash: str = "",
    rematch_of: Room | None = None,
    partner: Any = None,
    their_partner: Any = None,
    now: datetime | None = None,
) -> Challenge:
    """``challenger`` challenges ``challenged`` (``rematch_of``: again, after
    their match at that table, `rematch_offer`). At parceria the challenger may
    invite friends of theirs: ``partner`` (their own, seat 2) and
    ``their_partner`` (the challenged's, seat 3); the seats nobody is invited to
    are bots'. Refused: ``self``, ``blocked`` (a block either way, between any
    two of them), ``not_accepting`` (a setting), ``not_friends`` (an invited
    person who is not the challenger's friend), ``bad_challenge``, ``cooldown``
    (a rated one while the challenger serves a cool-down), ``rate_limited``
    (too many challenges for now, in all or to this person: `people.limits`;
    nothing is pushed). A new challenge replaces the challenger's earlier one
    to the same person."""
    now = now_or(now)
    if challenger.pk == challenged.pk:
        raise PeopleError("self", _("You cannot challenge yourself."))
    if preset not in PRESETS:
        raise PeopleError("bad_challenge", _("A challenge is to a duelo or a parceria."))
    if move_seconds is not None and (
        type(move_seconds) is not int or move_seconds not in MOVE_SECONDS_CHOICES
    ):
        raise PeopleError("bad_challenge", _("Choose one of the move clocks."))
    _lock(challenger, challenged)
    if selectors.blocks(challenged, challenger) or selectors.blocks(challenger, challenged):
        raise PeopleError("blocked", _("You cannot challenge this player."))
    if not may_challenge(challenger=challenger, challenged=challenged):
        raise PeopleError("not_accepting", _("This player does not take challenges from you."))
    invited = _invitations(
        challenger, challenged, preset, partner, their_partner, rematch=rematch_of is not None
    )
    if competitive:
        _no_cooldown(challenger, now)
    refusal = limits.challenge_refusal(challenger=challenger, challenged=challenged, now=now)
    if refusal is not None:
        raise refusal
    earlier = list(
        pending(now)
        .filter(challenger=challenger, challenged=challenged)
        .values_list("pk", flat=True)
    )
    Challenge.objects.filter(pk__in=earlier).update(
        status=Challenge.Status.WITHDRAWN, answered_at=now
    )
    challenge = Challenge.objects.create(
        challenger=challenger,
        challenged=challenged,
        preset=preset,
        move_seconds=move_seconds,
        competitive=bool(competitive),
        challenger_ip_hash=ip_hash or "",
        rematch_of=rematch_of,
        invited=invited,
        created_at=now,
    )
    gone = [(challenged.pk, _gone_event(pk, "withdrawn")) for pk in earlier]
    frame = {"type": "people.challenge", **challenge_frame(challenge)}
    _tell([*gone, *[(uid, frame) for uid in answering(challenge)]])
    return challenge


def _invitations(
    challenger: Any,
    challenged: Any,
    preset: str,
    partner: Any,
    their_partner: Any,
    rematch: bool = False,
) -> list[dict[str, Any]]:
    """The invited friends of a parceria challenge, checked (see `challenge_send`;
    a rematch invites the table's people, friends or not)."""
    chosen = [(2, partner), (3, their_partner)]
    chosen = [(seat, person) for seat, person in chosen if person is not None]
    if not chosen:
        return []
    if preset != "parceria":
        raise PeopleError("bad_challenge", _("Only a parceria has partners to invite."))
    people = [challenger, challenged, *[person for _seat, person in chosen]]
    if len({p.pk for p in people}) != len(people):
        raise PeopleError("bad_challenge", _("Invite two other people."))
    for _seat, person in chosen:
        if not rematch and not selectors.are_friends(challenger, person):
            raise PeopleError("not_friends", _("You can invite only your friends."))
        if not may_challenge(challenger=challenger, challenged=person):
            raise PeopleError(
                "not_accepting",
                _("%(name)s does not take challenges from you.") % {"name": person.username},
            )
    if selectors.kept_apart(p.pk for p in people):
        raise PeopleError("blocked", _("You cannot challenge this player."))
    return [
        {"user": person.pk, "seat": seat, "accepted": False, "ip_hash": ""}
        for seat, person in chosen
    ]


def answering(challenge: Challenge) -> list[int]:
    """Who answers ``challenge``: the challenged, then the invited."""
    return [challenge.challenged_id, *[i["user"] for i in challenge.invited]]


def everyone(challenge: Challenge) -> list[int]:
    """The challenger and everyone who answers."""
    return [challenge.challenger_id, *answering(challenge)]


def _gone_event(pk: int, reason: str) -> dict[str, Any]:
    return {"type": "people.challenge_gone", "id": pk, "reason": reason}


def _waiting(challenge_id: Any, now: datetime, **who: Any) -> Challenge:
    """The pending challenge ``challenge_id`` (locked) of ``who``: ``challenger=``,
    or ``answerer=`` (the challenged or an invited person); else ``no_challenge``."""
    try:
        pk = int(challenge_id)
    except (TypeError, ValueError):
        pk = 0
    answerer = who.pop("answerer", None)
    challenge = (
        pending(now)
        .select_for_update(of=("self",))
        .select_related("challenger", "challenged")
        .filter(pk=pk, **who)
        .first()
    )
    if challenge is None or (answerer is not None and answerer.pk not in answering(challenge)):
        raise PeopleError("no_challenge", _("This challenge is no longer waiting."))
    return challenge


def _waiting_unlocked(challenge_id: Any, now: datetime, answerer: Any) -> Challenge:
    try:
        pk = int(challenge_id)
    except (TypeError, ValueError):
        pk = 0
    challenge = pending(now).select_related("challenger").filter(pk=pk).first()
    if challenge is None or answerer.pk not in answering(challenge):
        raise PeopleError("no_challenge", _("This challenge is no longer waiting."))
    return challenge


@transaction.atomic
def challenge_decline(*, user: Any, challenge_id: Any, now: datetime | None = None) -> None:
    """``user`` (the challenged, or an invited person) declines a challenge;
    everyone in it is told, and it is over."""
    now = now_or(now)
    _close(_waiting(challenge_id, now, answerer=user), Challenge.Status.DECLINED, now)


@transaction.atomic
def challenge_withdraw(*, user: Any, challenge_id: Any, now: datetime | None = None) -> None:
    """``user`` takes back a challenge they made; the challenged is told."""
    now = now_or(now)
    _close(_waiting(challenge_id, now, challenger=user), Challenge.Status.WITHDRAWN, now)


def _close(challenge: Challenge, status: str, now: datetime) -> None:
    """End a waiting challenge as ``status`` (its word in the event, e.g.
    "declined") and tell everyone in it."""
    challenge.status, challenge.answered_at = status, now
    challenge.save(update_fields=["status", "answered_at"])
    event = _gone_event(challenge.pk, str(status))
    _tell([(uid, event) for uid in everyone(challenge)])


@transaction.atomic
def challenge_accept(
    *,
    user: Any,
    challenge_id: Any,
    ip_hash: str = "",
    leave: str | None = None,
    now: datetime | None = None,
) -> Room | None:
    """``user`` (the challenged, or an invited person) accepts. Once everyone
    invited has, a private table opens: the challenger at seat 0, the
    challenged at seat 1, at parceria the invited at 2 and 3 and bots at the
    seats nobody was invited to, the match started; everyone is sent there
    (``challenge_started``) and the room is returned; before that, None.
    Refused: ``no_challenge``, ``blocked``, ``cooldown`` (a rated match while
    one of them serves a cool-down), ``already_seated`` (one of them plays a
    match now: their page would leave it for the new table; about ``user``'s
    own table, with its ``room`` and ``url``).

    ``leave``: the code of the table where ``user`` plays a match, which they
    leave first, as its own page's "leave" does (`_leave_table`); the rest
    as above, and a refusal leaves nothing."""
    now = now_or(now)
    ahead = _waiting_unlocked(challenge_id, now, user)
    _lock(ahead.challenger, user)  # the people first, then the challenge: as challenge_send
    challenge = _waiting(challenge_id, now, answerer=user)
    others = [uid for uid in everyone(challenge) if uid != user.pk]
    if selectors.kept_apart([user.pk, *others]):
        raise PeopleError("blocked", _("You cannot play with this player."))
    if leave:
        _leave_table(user, leave, now)
    _check_free(user, user, challenge.competitive, now)
    if user.pk == challenge.challenged_id:
        challenge.challenged_accepted, challenge.challenged_ip_hash = True, ip_hash or ""
    for invite in challenge.invited:
        if invite["user"] == user.pk:
            invite["accepted"], invite["ip_hash"] = True, ip_hash or ""
    if not (challenge.challenged_accepted and all(i["accepted"] for i in challenge.invited)):
        challenge.save(update_fields=["challenged_accepted", "challenged_ip_hash", "invited"])
        return None
    people = {u.pk: u for u in get_user_model().objects.filter(pk__in=everyone(challenge))}
    for uid in everyone(challenge):
        _check_free(people[uid], user, challenge.competitive, now)
    try:
        with transaction.atomic():
            room = _open_table(challenge, people, now)
    except ServiceError as exc:
        raise PeopleError(_people_code(exc.code), exc.message) from exc
    challenge.status, challenge.answered_at, challenge.room = Challenge.Status.ACCEPTED, now, room
    challenge.challenged_accepted = True
    challenge.save()
    url = reverse("rooms:table", args=[room.code])
    event = {"type": "people.challenge_started", "id": challenge.pk, "room": room.code, "url": url}
    _tell([(uid, event) for uid in everyone(challenge)])
    return room


def _check_free(person: Any, user: Any, competitive: bool, now: datetime) -> None:
    """``person`` may be sent to the new table now: not in a match, and for a
    rated one not cooling down (``user`` reads their own sentence, with the
    link of their own table: they may go back to it, or leave it and accept)."""
    code = seated_in_play(person)
    if code is not None and person.pk == user.pk:
        raise PeopleError(
            "already_seated",
            _("You are in the middle of a match: finish it first, or leave it to accept."),
            extra={"room": code, "url": reverse("rooms:table", args=[code])},
        )
    if code is not None:
        raise PeopleError(
            "already_seated", _("%(name)s is in the middle of a match.") % {"name": person.username}
        )
    if competitive:
        _no_cooldown(person, now)


def _leave_table(user: Any, code: str, now: datetime) -> None:
    """``user`` leaves the table ``code`` where they play a match, through the
    rooms' own leave (`rooms.services.seat_leave`, as the table page's
    "leave"): during a round a bot plays the seat until the result, and
    leaving a rated match at stake is the rulebook's forfeit
    (`records.rulebook.charged_for_leaving`), its cool-down included. Only
    the table `seated_in_play` names: any other code leaves nothing (the
    refusal that follows names the table that holds them)."""
    if not isinstance(code, str) or seated_in_play(user) != code.upper():
        return
    room = Room.objects.filter(code=code.upper()).first()
    seat = viewer_seat(room=room, user=user, guest_token=None) if room else None
    if room is None or seat is None:
        return
    try:
        with transaction.atomic():
            seat_leave(room=room, index=seat.index, actor=seat, now=now)
    except ServiceError as exc:
        raise PeopleError("already_seated", exc.message) from exc


def _people_code(code: str) -> str:
    return code if code in ("cooldown", "already_seated", "blocked") else "no_challenge"


def _no_cooldown(user: Any, now: datetime) -> None:
    try:
        rulebook.check_no_cooldown(user, now)
    except ServiceError as exc:
        raise PeopleError("cooldown", exc.message) from exc


def _open_table(challenge: Challenge, people: dict[int, Any], now: datetime) -> Room:
    """The challenger at seat 0 and the challenged at seat 1 (for a rematch the
    other way round from their last table: who sat after sits first), the
    invited at their seats, bots at the rest; the match started."""
    first = (people[challenge.challenger_id], challenge.challenger_ip_hash)
    second = (people[challenge.challenged_id], challenge.challenged_ip_hash)
    if challenge.rematch_of_id is not None and not challenge.invited:
        before = dict(
            Seat.objects.filter(
                room_id=challenge.rematch_of_id,
                user__in=[challenge.challenger_id, challenge.challenged_id],
            ).values_list("user_id", "index")
        )
        if before.get(challenge.challenger_id, 0) < before.get(challenge.challenged_id, 0):
            first, second = second, first
    room = room_create(
        user=first[0],
        name=_("Rematch") if challenge.rematch_of_id else _("Challenge"),
        preset=challenge.preset,
        move_seconds=challenge.move_seconds,
        visibility=Room.Visibility.PRIVATE,
        competitive=challenge.competitive,
        ip_hash=first[1],
        now=now,
    )
    seat_take(room=room, index=1, user=second[0], ip_hash=second[1], now=now)
    for invite in challenge.invited:
        seat_take(
            room=room,
            index=invite["seat"],
            user=people[invite["user"]],
            ip_hash=invite["ip_hash"],
            now=now,
        )
    host = viewer_seat(room=room, user=first[0], guest_token=None)
    taken = {invite["seat"] for invite in challenge.invited}
    for index in range(2, room.rules.get("seats", 2)):
        if index not in taken:
            bot_add(room=room, actor=host, index=index, level=BOT_LEVEL, now=now)
    match_start(room=room, actor=host, now=now)
    return room


# -------------------------------------------------------------------- rematch


def seated_in_play(user: Any) -> str | None:
    """The code of a room where ``user`` plays a match not over yet (as the
    quick match asks it: `quick.selectors.seated_in_play`), or None."""
    seats = (
        Seat.objects.filter(user=user, kind=Seat.Kind.HUMAN, substitute=False)
        .filter(room__status__in=[Room.Status.PLAYING, Room.Status.BETWEEN_ROUNDS])
        .select_related("room")
        .order_by("-room__created_at")
    )
    for seat in seats[:5]:
        if seat.room.status == Room.Status.PLAYING or match_in_play(seat.room):
            return seat.room.code
    return None


def table_people(*, user: Any, room: Room) -> list[Any]:
    """The other accounts seated at ``room``, when ``user`` is seated there too
    (by seat), else []."""
    if not getattr(user, "is_authenticated", False):
        return []
    people = list(
        Seat.objects.filter(room=room, kind=Seat.Kind.HUMAN, user__is_active=True)
        .select_related("user")
        .order_by("index")
    )
    if not any(s.user_id == user.pk for s in people):
        return []
    return [s.user for s in people if s.user_id != user.pk]


def rematch_lineup(*, user: Any, room: Room) -> list[Any] | None:
    """Whom ``user`` may offer a rematch to at ``room``, a table of a challenge
    preset (duelo, parceria) whose people's seats are accounts, the rest bots:
    at a table of two, ``[the other]``; at a parceria of four, ``[the next
    opponent, user's partner, that opponent's partner]``; else None."""
    if room.preset not in PRESETS or not getattr(user, "is_authenticated", False):
        return None
    people = list(
        Seat.objects.filter(room=room, kind=Seat.Kind.HUMAN)
        .select_related("user")
        .order_by("index")
    )
    if any(s.user_id is None for s in people) or user.pk not in {s.user_id for s in people}:
        return None
    if len(people) == 2:
        return [s.user for s in people if s.user_id != user.pk]
    if len(people) == 4:
        mine = next(s.index for s in people if s.user_id == user.pk)
        by_index = {s.index: s.user for s in people}
        return [by_index[(mine + k) % 4] for k in (1, 2, 3)]
    return None


def rematch_partner(*, user: Any, room: Room) -> Any | None:
    """The one person ``user`` offers a rematch to at ``room`` (the challenged)."""
    lineup = rematch_lineup(user=user, room=room)
    return lineup[0] if lineup else None


def match_in_play(room: Room) -> bool:
    """The table's match is still being played (a rematch waits for its end)."""
    if room.is_closed:
        return False
    last = Match.objects.filter(room=room).order_by("-number").first()
    return last is not None and not last.over


@transaction.atomic
def rematch_offer(
    *, user: Any, room: Room, ip_hash: str = "", now: datetime | None = None
) -> Challenge:
    """``user`` offers the other people of ``room`` a rematch: a challenge of the
    table's preset, clock and kind (rated or friendly). At a table of two the
    two sit the other way round once it is accepted; at a parceria of four the
    others are asked too (the next opponent as the challenged, the partners
    invited: `rematch_lineup`) and the partnerships stay, ``user`` at seat 0.
    Refused: ``no_challenge`` (no such people at this table),
    ``already_seated`` (its match is still being played), and what
    `challenge_send` refuses."""
    lineup = rematch_lineup(user=user, room=room)
    if not lineup:
        raise PeopleError("no_challenge", _("There is nobody to offer a rematch to here."))
    other = lineup[0]
    partners = lineup[1:] if len(lineup) == 3 else [None, None]
    if match_in_play(room):
        raise PeopleError("already_seated", _("Finish this match first."))
    return challenge_send(
        challenger=user,
        challenged=other,
        preset=room.preset,
        move_seconds=room.move_seconds,
        competitive=room.competitive,
        ip_hash=ip_hash,
        rematch_of=room,
        partner=partners[0],
        their_partner=partners[1],
        now=now,
    )


def challenges_for(user: Any, now: datetime | None = None) -> list[Challenge]:
    """The challenges waiting for ``user``'s answer (made to them, or to which
    they are invited, and not accepted by them yet), the oldest first."""
    rows = pending(now).select_related("challenger").order_by("created_at", "id")
    mine = [c for c in rows.filter(challenged=user) if not c.challenged_accepted]
    invited = [
        c
        for c in rows.exclude(invited=[]).exclude(challenger=user)
        if any(i["user"] == user.pk and not i["accepted"] for i in c.invited)
    ]
    return sorted([*mine, *invited], key=lambda c: (c.created_at, c.pk))


#: How long after a challenge started a page that missed it is still sent there.
CATCH_UP = timedelta(seconds=60)


def started_since(user: Any, since: datetime, now: datetime | None = None) -> str | None:
    """The table of the newest challenge ``user`` is in that started after
    ``since`` (when their page was rendered) and in the last minute, or None.
    Sending a challenge or a rematch posts a form, so the challenger's page
    reloads: an answer quicker than that reload reaches no socket of theirs,
    and the page the live ``challenge_started`` would have moved stays. A page
    rendered after the start was never owed the move (its person may have
    left that table on purpose)."""
    after = max(since, now_or(now) - CATCH_UP)
    rows = Challenge.objects.filter(
        Q(challenger=user) | Q(challenged=user) | ~Q(invited=[]),
        status=Challenge.Status.ACCEPTED,
        answered_at__gt=after,
    ).select_related("room")
    for challenge in rows.order_by("-answered_at"):
        if user.pk in everyone(challenge) and challenge.room is not None:
            return reverse("rooms:table", args=[challenge.room.code])
    return None


def challenges_by(user: Any, now: datetime | None = None) -> list[Challenge]:
    """The challenges ``user`` made that still wait, the oldest first."""
    rows = pending(now).filter(challenger=user).select_related("challenged")
    return list(rows.order_by("created_at", "id"))


def between(a: Any, b: Any, now: datetime | None = None) -> Any:
    """The waiting challenges between two people, either way."""
    return pending(now).filter(Q(challenger=a, challenged=b) | Q(challenger=b, challenged=a))


@transaction.atomic
def preferences_set(*, user: Any, challenges: str) -> None:
    """Who may challenge ``user``: ``everyone``, ``friends`` or ``nobody``."""
    if challenges not in Preferences.Challenges.values:
        raise PeopleError("bad_challenge", _("Choose who may challenge you."))
    Preferences.objects.update_or_create(user=user, defaults={"challenges": challenges})


def preference_of(user: Any) -> str:
    return (
        Preferences.objects.filter(user=user).values_list("challenges", flat=True).first()
        or Preferences.Challenges.EVERYONE
    )
