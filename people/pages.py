"""What the people add to the pages of others (docs/site.md, "Friends, blocking
and who is online"): the profile's part (the receiver of
`records.signals.profile_parts`, connected in ``people.apps``) and the lobby's
panel (`people.templatetags.people`). The records' and the lobby's templates
show the HTML rendered here from templates/people/.

* The rooms' table page (``rooms.signals.page_parts``, ``"table"`` and
  ``"closed"``): to its seated people, the others seated there (add as a
  friend, report) and at a two-person table the rematch offer
  (templates/people/_table.html).
* The profile's ``"people"`` place: for its owner, their friends with their
  presence, the requests waiting both ways and whom they block
  (templates/people/_panel.html); for another logged-in person, what they may
  do about this account (ask, accept or decline, withdraw, remove, block,
  unblock, challenge) and, to a friend, its presence
  (templates/people/_actions.html);
  for a visitor not logged in, nothing.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.urls import reverse

from games.presets import PRESET_LABELS
from games.world import now_or
from people import challenges, moderation, selectors
from people.models import Preferences, Report
from rooms.models import MOVE_SECONDS_CHOICES, Room


def on_profile_parts(
    sender: Any, *, place: str, person: Any = None, request: Any = None, **_: Any
) -> str:
    if place != "people" or person is None or request is None:
        return ""
    viewer = request.user
    if not viewer.is_authenticated:
        return ""
    if viewer.pk == person.pk:
        return panel(request)
    return actions(request, person)


def panel_context(user: Any) -> dict[str, Any]:
    """The owner's lists: friends (with presence), requests both ways, blocks,
    challenges both ways (and the table that keeps them from accepting one)
    and who may challenge them."""
    challenges_in = [_shown(c) for c in challenges.challenges_for(user)]
    return {
        "friends": selectors.friends_with_presence(user),
        "incoming": selectors.incoming_requests(user),
        "outgoing": selectors.outgoing_requests(user),
        "blocked": selectors.blocked_by(user),
        "challenges_in": challenges_in,
        "my_table": _my_table(user) if challenges_in else None,
        "challenges_out": [_shown(c) for c in challenges.challenges_by(user)],
        "preference": challenges.preference_of(user),
        "preference_choices": Preferences.Challenges.choices,
        "queue_partner": selectors.queue_partner_of(user),
        "sanctions": moderation.sanctions_of(user),
        "name_to_pick": moderation.name_to_pick(user),
    }


def _my_table(user: Any) -> dict[str, Any] | None:
    """The table where ``user`` plays a match (a challenge cannot be accepted
    from it: "Go to the table", or "Leave the table and accept"), or None."""
    code = challenges.seated_in_play(user)
    if code is None:
        return None
    room = Room.objects.filter(code=code).first()
    return {
        "code": code,
        "url": reverse("rooms:table", args=[code]),
        "rated": bool(room and room.rated),
    }


def _shown(challenge: Any) -> dict[str, Any]:
    return {
        "challenge": challenge,
        "preset_label": PRESET_LABELS.get(challenge.preset, challenge.preset),
    }


def challenge_form_context() -> dict[str, Any]:
    return {
        "presets": [(p, PRESET_LABELS.get(p, p)) for p in challenges.PRESETS],
        "clocks": MOVE_SECONDS_CHOICES,
    }


def panel(request: Any) -> str:
    context = {**panel_context(request.user), "next": request.get_full_path()}
    return render_to_string("people/_panel.html", context, request=request)


def actions(request: Any, person: Any) -> str:
    relation = selectors.relation(viewer=request.user, person=person)
    presence = selectors.presence_of(person) if relation == "friends" else None
    context = {
        "person": person,
        "relation": relation,
        "presence": presence,
        "next": request.get_full_path(),
        "may_challenge": relation != "blocking"
        and challenges.may_challenge(challenger=request.user, challenged=person),
        "report_reasons": Report.Reason.choices,
        "my_friends": [f for f in selectors.friends_of(request.user) if f.pk != person.pk],
        **challenge_form_context(),
    }
    return render_to_string("people/_actions.html", context, request=request)


def boot(request: Any) -> str:
    """Every page's challenge toast, its words in the page's language."""
    context = {
        "presets": challenge_form_context()["presets"],
        "rendered_at": int(now_or(None).timestamp() * 1000),  # people.js's ?since=
    }
    return render_to_string("people/_boot.html", context, request=request)


def on_page_parts(
    sender: Any, *, page: str, room: Any = None, request: Any = None, **_: Any
) -> str:
    """The rooms' table page (and its closed page), for a logged-in person
    seated there: the other people of the table, each with "Add as a friend"
    and a report (templates/people/_table.html), and at a table of two people
    the rematch offer."""
    if page not in ("table", "closed") or room is None or request is None:
        return ""
    viewer = request.user
    others = challenges.table_people(user=viewer, room=room)
    if not others:
        return ""
    context = {
        "room": room,
        "others": [
            {"person": o, "relation": selectors.relation(viewer=viewer, person=o)} for o in others
        ],
        "rematch_with": ", ".join(
            u.username for u in challenges.rematch_lineup(user=viewer, room=room) or []
        ),
        "rematch_to": challenges.rematch_partner(user=viewer, room=room),
        "next": request.get_full_path(),
        "report_reasons": Report.Reason.choices,
    }
    return render_to_string("people/_table.html", context, request=request)


def on_kept_apart(sender: Any, *, user_ids: Any, **_: Any) -> set[tuple[int, int]]:
    """The rooms' seat-taking asks who blocks whom among the person taking a
    seat and those at the table (`rooms.signals.kept_apart`)."""
    return selectors.blocks_among(user_ids)


def on_chat_hidden(sender: Any, *, user_id: int, **_: Any) -> list[int]:
    """The rooms' table socket asks whose phrases ``user_id`` does not see
    (`rooms.signals.chat_hidden`): the accounts they block."""
    return selectors.blocked_ids(user_id)
