"""The reads of "play with your people" (docs/contract.md, "People").

Everything here is about one account's own relations: who their friends are,
their requests, whom they block, and their friends' presence. Nothing reads
another person's list for a third: the pages and the socket only ever ask
about the viewer (docs/site.md, "Privacy of friends and presence").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.urls import reverse

from people.models import Block, FriendRequest, Friendship, Presence, QueuePartner
from rooms.models import Room

ONLINE, AT_TABLE, OFFLINE = "online", "table", "offline"


def pair(a: int, b: int) -> tuple[int, int]:
    """A friendship's key: the lower id first."""
    return (a, b) if a < b else (b, a)


def friend_ids(user: Any) -> list[int]:
    """The ids of ``user``'s friends."""
    rows = Friendship.objects.filter(Q(low=user.pk) | Q(high=user.pk)).values_list("low", "high")
    return [high if low == user.pk else low for low, high in rows]


def are_friends(a: Any, b: Any) -> bool:
    low, high = pair(a.pk, b.pk)
    return Friendship.objects.filter(low_id=low, high_id=high).exists()


def friends_of(user: Any) -> list[Any]:
    """``user``'s friends, by name."""
    return list(get_user_model().objects.filter(pk__in=friend_ids(user)).order_by("username"))


def incoming_requests(user: Any) -> list[Any]:
    """Who asked ``user`` to be friends (the oldest first)."""
    rows = FriendRequest.objects.filter(recipient=user).select_related("sender")
    return [r.sender for r in rows.order_by("created_at", "id")]


def outgoing_requests(user: Any) -> list[Any]:
    """Whom ``user`` asked, still unanswered (the oldest first)."""
    rows = FriendRequest.objects.filter(sender=user).select_related("recipient")
    return [r.recipient for r in rows.order_by("created_at", "id")]


def blocked_by(user: Any) -> list[Any]:
    """Whom ``user`` blocks, by name."""
    rows = Block.objects.filter(blocker=user).select_related("blocked")
    return sorted((r.blocked for r in rows), key=lambda u: u.username)


def blocked_ids(user_id: int) -> list[int]:
    """The ids of the accounts ``user_id`` blocks."""
    return list(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocks(blocker: Any, blocked: Any) -> bool:
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def relation(*, viewer: Any, person: Any) -> str:
    """What ``viewer`` may do about ``person`` on the profile: ``self``,
    ``friends``, ``asked`` (the viewer's request waits), ``asked_you`` (the
    person's request waits), ``blocking`` (the viewer blocks the person) or
    ``none``. Whether the person blocks the viewer is not told."""
    if viewer.pk == person.pk:
        return "self"
    if blocks(viewer, person):
        return "blocking"
    if are_friends(viewer, person):
        return "friends"
    if FriendRequest.objects.filter(sender=viewer, recipient=person).exists():
        return "asked"
    if FriendRequest.objects.filter(sender=person, recipient=viewer).exists():
        return "asked_you"
    return "none"


def kept_apart(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` that a block (either way) keeps apart: the
    pairing passes (quick match, arenas) never seat them together, and no seat
    is taken at a table where the other sits (`blocks_among`)."""
    return {frozenset(row) for row in blocks_among(user_ids)}


def blocks_among(user_ids: Iterable[int]) -> set[tuple[int, int]]:
    """Who blocks whom among ``user_ids``: ``(blocker, blocked)`` pairs (the
    rooms' seat-taking asks through `rooms.signals.kept_apart`)."""
    ids = set(user_ids)
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker__in=ids, blocked__in=ids).values_list("blocker", "blocked")
    return {(blocker, blocked) for blocker, blocked in rows}


def queue_partners(user_ids: Iterable[int]) -> dict[int, int]:
    """Among ``user_ids``, each account's parceria partner when the two chose
    each other and are still friends (the quick match seats them together)."""
    ids = set(user_ids)
    return {u: p for u, p in queue_partners_of(ids).items() if p in ids}


def queue_partners_of(user_ids: Iterable[int]) -> dict[int, int]:
    """For each of ``user_ids``, the friend they queue with when the two chose
    each other, whether or not that friend is among ``user_ids``."""
    ids = set(user_ids)
    chosen = dict(QueuePartner.objects.filter(user__in=ids).values_list("user", "partner"))
    if not chosen:
        return {}
    back = dict(
        QueuePartner.objects.filter(user__in=set(chosen.values())).values_list("user", "partner")
    )
    return queue_partners_among(chosen, back)


def queue_partners_among(chosen: dict[int, int], back: dict[int, int]) -> dict[int, int]:
    mutual = {u: p for u, p in chosen.items() if back.get(p) == u}
    if not mutual:
        return {}
    friends = {
        (a, b)
        for a, b in Friendship.objects.filter(
            low__in={pair(u, p)[0] for u, p in mutual.items()},
            high__in={pair(u, p)[1] for u, p in mutual.items()},
        ).values_list("low", "high")
    }
    return {u: p for u, p in mutual.items() if pair(u, p) in friends}


def queue_partner_of(user: Any) -> Any | None:
    """The account ``user`` chose to queue with, or None."""
    row = QueuePartner.objects.filter(user=user).select_related("partner").first()
    return row.partner if row is not None else None


# ------------------------------------------------------------------ presence


def presences(user_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Each account's presence: ``{"state": "online" | "table" | "offline",
    "url": "/r/<code>/" | None}``. At a table: a page of theirs is the table
    page of an open room (``url`` only for a public one: a private table's
    code is for the people seated there); online: any other page of the site
    is open; else offline."""
    ids = list(dict.fromkeys(user_ids))
    found: dict[int, dict[str, Any]] = {uid: {"state": OFFLINE, "url": None} for uid in ids}
    rows = list(
        Presence.objects.filter(user_id__in=ids)
        .order_by("-opened_at", "-id")
        .values_list("user_id", "room_code")
    )
    codes = {code for _uid, code in rows if code}
    rooms = {
        room.code: room
        for room in Room.objects.filter(code__in=codes).exclude(status=Room.Status.CLOSED)
    }
    for uid, code in rows:
        here = found[uid]
        room = rooms.get(code)
        if room is not None and here["state"] != AT_TABLE:
            public = room.visibility == Room.Visibility.PUBLIC
            url = reverse("rooms:table", args=[room.code]) if public else None
            found[uid] = {"state": AT_TABLE, "url": url}
        elif here["state"] == OFFLINE:
            here["state"] = ONLINE
    return found


def presence_of(user: Any) -> dict[str, Any]:
    return presences([user.pk])[user.pk]


def friends_with_presence(user: Any) -> list[dict[str, Any]]:
    """``user``'s friends by name, each ``{"name", "state", "url"}``: what the
    lobby, the owner's profile and the ``friends`` frame show."""
    friends = friends_of(user)
    found = presences(f.pk for f in friends)
    return [{"name": f.username, **found[f.pk]} for f in friends]


def presence_processes() -> set[str]:
    """The server processes (channel-name prefixes) holding presence rows."""
    from domino_site.realtime import liveness

    names = Presence.objects.values_list("channel_name", flat=True)
    return {p for p in (liveness.process_of(n) for n in names) if p}
