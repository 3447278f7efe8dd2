"""``ws/people/``: the friends' presence socket (docs/protocol.md, "Friends and
blocks").

Every page of the site opens one for a logged-in person (static/js/people.js);
a table page says which table (``?room=<code>``). Its opening and closing is
the person's presence (`people.services.presence_open`, ``presence_close``),
which their friends, and only they, hear of. It sends the person's own list
of friends with their presence on connect (``friends``), again whenever a
friendship comes or goes, and each friend's presence as it changes
(``presence``); the challenges made to the person (``challenge``, on connect
and as they come), how they end (``challenge_gone``) and the table of an
accepted one (``challenge_started``, to both). It answers ``ping``, and the
challenged person's ``challenge_accept`` (``leave``: leave one's own table
first) and ``challenge_decline``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

from django.utils.translation import gettext as _

from domino_site.client_ip import scope_ip_hash
from domino_site.realtime.asyncdb import NoDatabaseInTheLoop, db_async
from domino_site.realtime.frames import error_message
from domino_site.realtime.listening import Handler, ListeningSocket
from domino_site.realtime.socket_guard import LAYER_ERRORS, LayerGuard, track, untrack
from people import challenges, events, selectors, services
from people.errors import PeopleError
from rooms.models import Room
from rooms.selectors import viewer_seat

CODE = re.compile(r"^[A-Za-z0-9]{1,16}$")


def table_of(user: Any, code: str) -> str:
    """The room code a presence keeps: an open room whose table this person may
    see (any public one; a private one only with a seat there), else ""."""
    if not CODE.match(code):
        return ""
    room = Room.objects.filter(code=code.upper()).first()
    if room is None or room.is_closed:
        return ""
    if room.visibility != Room.Visibility.PUBLIC:
        if viewer_seat(room=room, user=user, guest_token=None) is None:
            return ""
    return room.code


def rendered_at(value: str) -> datetime | None:
    """The page's ``?since=``: when the server rendered it (epoch ms), or None."""
    try:
        return datetime.fromtimestamp(int(value) / 1000, tz=UTC)
    except (ValueError, OverflowError, OSError):
        return None


def _open(
    user: Any, channel_name: str, code: str, since: datetime | None = None
) -> list[dict[str, Any]]:
    """The socket's presence; its first frames: the person's friends, each
    challenge waiting for their answer, and a challenge of theirs that started
    after the page was rendered (``challenges.started_since``)."""
    services.presence_open(user=user, channel_name=channel_name, room_code=table_of(user, code))
    frames: list[dict[str, Any]] = [
        {"type": "friends", "friends": selectors.friends_with_presence(user)}
    ]
    for challenge in challenges.challenges_for(user):
        frames.append({"type": "challenge", **challenges.challenge_frame(challenge)})
    if since is not None and (url := challenges.started_since(user, since)):
        frames.append(
            {"type": "challenge_started", "id": None, "room": url.split("/")[2], "url": url}
        )
    return frames


def _answer(user: Any, msg: dict[str, Any], ip_hash: str) -> None:
    if msg["type"] == "challenge_accept":
        leave = msg.get("leave")
        challenges.challenge_accept(
            user=user,
            challenge_id=msg.get("id"),
            ip_hash=ip_hash,
            leave=leave if isinstance(leave, str) else None,
        )
    else:
        challenges.challenge_decline(user=user, challenge_id=msg.get("id"))


class PeopleConsumer(LayerGuard, NoDatabaseInTheLoop, ListeningSocket):
    """One socket per open page of a logged-in person."""

    socket_kind = "people"

    async def connect(self) -> None:
        if not await self.admit_person(events.person_group):
            return
        track(self)
        user = self.user
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        code = (query.get("room") or [""])[0]
        since = rendered_at((query.get("since") or [""])[0])
        for frame in await db_async(_open)(user, self.channel_name, code, since):
            await self.send_json(frame)

    async def disconnect(self, code: int) -> None:
        untrack(self)
        if not hasattr(self, "user"):
            return
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except LAYER_ERRORS:
            pass
        await db_async(services.presence_close)(channel_name=self.channel_name)

    async def layer_failed(self) -> None:
        if hasattr(self, "user"):
            await db_async(services.presence_close)(channel_name=self.channel_name)

    def handlers(self) -> dict[str, Handler]:
        return {"challenge_accept": self._answer, "challenge_decline": self._answer}

    def refusal(self) -> str:
        return _("This socket answers challenge_accept, challenge_decline and ping.")

    async def _answer(self, msg: dict[str, Any]) -> None:
        """Accept or decline a challenge: ``id`` (and for an accept ``leave``, the
        code of one's own table to leave first). A refusal is an ``error`` (with
        ``room`` and ``url`` when one's own table holds one); what
        follows an answer comes to every page of both (``challenge_started``,
        ``challenge_gone``)."""
        try:
            await db_async(_answer)(self.user, msg, scope_ip_hash(self.scope))
        except PeopleError as exc:
            await self.send_json(
                {**error_message(exc.code, exc.message, msg.get("ref")), **exc.extra}
            )

    # -- from `people.events`, after a commit
    async def people_friends(self, event: dict) -> None:
        await self.send_json({"type": "friends", "friends": event["friends"]})

    async def people_presence(self, event: dict) -> None:
        await self.send_json(
            {
                "type": "presence",
                "name": event["name"],
                "state": event["state"],
                "url": event["url"],
            }
        )

    async def people_challenge(self, event: dict) -> None:
        await self.send_json({**_fields(event), "type": "challenge"})

    async def people_challenge_gone(self, event: dict) -> None:
        await self.send_json({**_fields(event), "type": "challenge_gone"})

    async def people_challenge_started(self, event: dict) -> None:
        await self.send_json({**_fields(event), "type": "challenge_started"})


def _fields(event: dict) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "type"}
