"""The writes of "play with your people" (docs/contract.md, "People"):
keyword-only, atomic, each refused with a `people.errors.PeopleError` that
changes nothing. The two accounts' rows are locked (lower id first) so that
two requests crossing, or an accept and a block at once, run one after the
other. After the commit the people concerned are told (`people.events`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from games.world import now_or
from people import events, selectors
from people.errors import PeopleError
from people.models import Block, Challenge, FriendRequest, Friendship, Presence, QueuePartner


def _lock(a: Any, b: Any) -> None:
    """Lock both accounts' rows, the lower id first (no deadlock between two
    changes of one pair)."""
    list(get_user_model().objects.select_for_update().filter(pk__in=[a.pk, b.pk]).order_by("pk"))


def _befriend(a: Any, b: Any, now: datetime) -> None:
    low, high = selectors.pair(a.pk, b.pk)
    Friendship.objects.get_or_create(low_id=low, high_id=high, defaults={"since": now})
    FriendRequest.objects.filter(Q(sender=a, recipient=b) | Q(sender=b, recipient=a)).delete()
    events.tell_lists([a.pk, b.pk])


@transaction.atomic
def friend_request_send(*, sender: Any, recipient: Any, now: datetime | None = None) -> str:
    """``sender`` asks ``recipient`` to be friends: ``"sent"`` (a request waits;
    sending it again changes nothing), or ``"friends"`` when ``recipient`` had
    asked ``sender`` already (both asked: they are friends). Refused: ``self``,
    ``blocked`` (the recipient blocks the sender), ``blocking`` (the sender blocks
    the recipient), ``already_friends``."""
    if sender.pk == recipient.pk:
        raise PeopleError("self", _("You cannot be your own friend."))
    _lock(sender, recipient)
    if selectors.blocks(recipient, sender):
        raise PeopleError("blocked", _("This player does not accept friend requests from you."))
    if selectors.blocks(sender, recipient):
        raise PeopleError("blocking", _("You blocked this player: unblock them first."))
    if selectors.are_friends(sender, recipient):
        raise PeopleError("already_friends", _("You are friends already."))
    now = now_or(now)
    if FriendRequest.objects.filter(sender=recipient, recipient=sender).exists():
        _befriend(sender, recipient, now)
        return "friends"
    FriendRequest.objects.get_or_create(
        sender=sender, recipient=recipient, defaults={"created_at": now}
    )
    return "sent"


@transaction.atomic
def friend_request_accept(*, user: Any, sender: Any, now: datetime | None = None) -> None:
    """``user`` accepts ``sender``'s request: they are friends (``no_request``
    when no request of ``sender`` waits)."""
    _lock(user, sender)
    if not FriendRequest.objects.filter(sender=sender, recipient=user).exists():
        raise PeopleError("no_request", _("There is no friend request from this player."))
    _befriend(user, sender, now_or(now))


@transaction.atomic
def friend_request_decline(*, user: Any, sender: Any) -> None:
    """``user`` declines ``sender``'s request (``no_request`` when none waits).
    The sender is not told; they may ask again."""
    _lock(user, sender)
    deleted, _rows = FriendRequest.objects.filter(sender=sender, recipient=user).delete()
    if not deleted:
        raise PeopleError("no_request", _("There is no friend request from this player."))


@transaction.atomic
def friend_request_withdraw(*, sender: Any, recipient: Any) -> None:
    """``sender`` takes back their request to ``recipient`` (``no_request``)."""
    _lock(sender, recipient)
    deleted, _rows = FriendRequest.objects.filter(sender=sender, recipient=recipient).delete()
    if not deleted:
        raise PeopleError("no_request", _("You have no friend request waiting for this player."))


@transaction.atomic
def friend_remove(*, user: Any, friend: Any) -> None:
    """``user`` and ``friend`` are friends no more (``not_friends``); both lists
    change, and neither sees the other's presence again."""
    _lock(user, friend)
    low, high = selectors.pair(user.pk, friend.pk)
    deleted, _rows = Friendship.objects.filter(low_id=low, high_id=high).delete()
    if not deleted:
        raise PeopleError("not_friends", _("You are not friends."))
    events.tell_lists([user.pk, friend.pk])


@transaction.atomic
def block(*, blocker: Any, blocked: Any, now: datetime | None = None) -> None:
    """``blocker`` blocks ``blocked``: any friendship and request between them
    ends, ``blocked`` can send ``blocker`` no friend request, and the pairings
    never seat the two together. Blocking again changes nothing."""
    if blocker.pk == blocked.pk:
        raise PeopleError("self", _("You cannot block yourself."))
    _lock(blocker, blocked)
    Block.objects.get_or_create(
        blocker=blocker, blocked=blocked, defaults={"created_at": now_or(now)}
    )
    FriendRequest.objects.filter(
        Q(sender=blocker, recipient=blocked) | Q(sender=blocked, recipient=blocker)
    ).delete()
    low, high = selectors.pair(blocker.pk, blocked.pk)
    if Friendship.objects.filter(low_id=low, high_id=high).delete()[0]:
        events.tell_lists([blocker.pk, blocked.pk])
    Challenge.objects.filter(
        Q(challenger=blocker, challenged=blocked) | Q(challenger=blocked, challenged=blocker),
        status=Challenge.Status.PENDING,
    ).update(status=Challenge.Status.WITHDRAWN, answered_at=now_or(now))


@transaction.atomic
def unblock(*, blocker: Any, blocked: Any) -> None:
    """``blocker`` lifts their block of ``blocked`` (nothing else comes back)."""
    _lock(blocker, blocked)
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


@transaction.atomic
def queue_partner_set(*, user: Any, partner: Any | None, now: datetime | None = None) -> None:
    """``user`` queues for parceria with ``partner`` (a friend), or alone (None).
    They are matched as a pair once both chose each other and both join the
    same parceria queue. Refused: ``not_friends``, ``self``."""
    if partner is None:
        QueuePartner.objects.filter(user=user).delete()
        return
    if partner.pk == user.pk:
        raise PeopleError("self", _("Choose a friend to queue with."))
    if not selectors.are_friends(user, partner):
        raise PeopleError("not_friends", _("You can queue only with a friend."))
    QueuePartner.objects.update_or_create(
        user=user, defaults={"partner": partner, "chosen_at": now_or(now)}
    )


# ------------------------------------------------------------------ presence


@transaction.atomic
def presence_open(
    *, user: Any, channel_name: str, room_code: str = "", now: datetime | None = None
) -> None:
    """A page of ``user``'s opened its ``ws/people/`` socket (on the table page
    of ``room_code``, or elsewhere: ""); their friends hear of it."""
    Presence.objects.update_or_create(
        channel_name=channel_name,
        defaults={"user": user, "room_code": room_code, "opened_at": now_or(now)},
    )
    events.tell_presence([user.pk])


@transaction.atomic
def presence_close(*, channel_name: str) -> None:
    """That socket closed; its person's friends hear of their presence now."""
    users = list(Presence.objects.filter(channel_name=channel_name).values_list("user", flat=True))
    Presence.objects.filter(channel_name=channel_name).delete()
    events.tell_presence(users)


@transaction.atomic
def presence_forget(*, channel_names: Iterable[str]) -> int:
    """The rows of these sockets go (their server process died: the sweeper);
    their people's friends are told. How many went."""
    names = list(channel_names)
    rows = Presence.objects.filter(channel_name__in=names)
    users = set(rows.values_list("user", flat=True))
    gone = rows.delete()[0]
    events.tell_presence(users)
    return gone


def presence_forget_all() -> int:
    """The embedded server's start: no socket is open yet, so nobody is online."""
    return Presence.objects.all().delete()[0]


def presence_sweep(*, now: datetime | None = None) -> int:
    """The sweeper's part (Redis layer): the rows of the sockets of server
    processes that died (`domino_site.realtime.liveness`), older than a TTL."""
    from datetime import timedelta

    from domino_site.realtime import liveness

    if not liveness.enabled():
        return 0
    dead = liveness.dead_processes(selectors.presence_processes())
    if not dead:
        return 0
    old = now_or(now) - timedelta(seconds=liveness.ttl_seconds())
    names = [
        name
        for name, opened in Presence.objects.filter(opened_at__lte=old).values_list(
            "channel_name", "opened_at"
        )
        if liveness.process_of(name) in dead
    ]
    return presence_forget(channel_names=names)
