"""After the commit of a change: tell the sockets of the people it concerns
(docs/protocol.md, "Friends and blocks").

Every ``ws/people/`` socket is in its account's group, `person_group`
(``people.user.<id>``), so a message reaches every page of that person, on
whichever server process it is open (the channel layer's groups).

* `tell_lists`: each of these accounts gets its own list of friends again
  (``people.friends``): a friendship came or went.
* `tell_presence`: an account's presence goes to the groups of its friends,
  and of nobody else (``people.presence``).
"""

from __future__ import annotations

from collections.abc import Iterable

from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.db import transaction

from domino_site.realtime.fanout import deliver
from people import selectors


def person_group(user_id: int) -> str:
    return f"people.user.{user_id}"


def friends_message(user: object) -> dict:
    return {"type": "people.friends", "friends": selectors.friends_with_presence(user)}


def tell_lists(user_ids: Iterable[int]) -> None:
    """After the commit, each of ``user_ids`` gets its list of friends again."""
    ids = list(dict.fromkeys(user_ids))

    def tell() -> None:
        users = get_user_model().objects.filter(pk__in=ids)
        messages = [("group", person_group(u.pk), friends_message(u)) for u in users]
        deliver(get_channel_layer(), messages)

    transaction.on_commit(tell, robust=True)


def tell_presence(user_ids: Iterable[int]) -> None:
    """After the commit, the presence of each of ``user_ids`` goes to its friends."""
    ids = list(dict.fromkeys(user_ids))

    def tell() -> None:
        found = selectors.presences(ids)
        names = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
        messages = []
        for uid in ids:
            if uid not in names:
                continue
            frame = {"type": "people.presence", "name": names[uid], **found[uid]}
            messages += [
                ("group", person_group(friend), frame) for friend in selectors.friend_ids(_Ref(uid))
            ]
        deliver(get_channel_layer(), messages)

    transaction.on_commit(tell, robust=True)


class _Ref:
    """An account known by its id only (what `selectors.friend_ids` reads)."""

    def __init__(self, pk: int) -> None:
        self.pk = pk
