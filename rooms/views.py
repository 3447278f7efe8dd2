"""The rooms' pages (docs/protocol.md, "HTTP"): the table, an invitation (the
lobby's are `lobby.views`, the profile `records.views`). Thin: reads go through
selectors, writes through services."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from domino_site.client_ip import request_ip_hash
from domino_site.guests import guest_token_of, remember_guest
from records import selectors as records
from rooms import selectors, services
from rooms.errors import ServiceError
from rooms.models import Room
from rooms.signals import page_parts

from . import page_strings
from .chat import phrase_list
from .errors import RULE_ERRORS
from .forms import PRESET_LABELS, preset_info

# ------------------------------------------------------------------ guests


def guest_token(request: HttpRequest) -> str | None:
    """The guest seat token of the signed cookie (docs/contract.md, "Guests")."""
    return guest_token_of(request.COOKIES)


def _person(request: HttpRequest) -> tuple[Any, str | None]:
    """(user or None, guest token or None) of this browser."""
    if request.user.is_authenticated:
        return request.user, None
    return None, guest_token(request)


def on_rounds_visible(sender: Any, *, room: Room, request: HttpRequest, **_: Any) -> bool:
    """The rooms' answer to the profile (`records.signals.rounds_visible`,
    connected in ``rooms.apps``): whether this browser may see ``room``'s
    finished rounds (`rooms.selectors.may_see_rounds`)."""
    user, token = _person(request)
    return selectors.may_see_rounds(room=room, user=user, guest_token=token)


# ------------------------------------------------------------------ table


def rules_href(preset: str, options: dict[str, Any]) -> str:
    """ "Regras desta mesa": the preset's rules page with this table's options."""
    query = {k: (int(v) if isinstance(v, bool) else v) for k, v in options.items() if v is not None}
    base = reverse("games:rules_preset", args=[preset])
    return f"{base}?{urlencode(query)}" if query else base


def table_context(
    *,
    code: str,
    name: str,
    preset: str,
    visibility: str,
    snapshot: dict | None,
) -> dict[str, Any]:
    """What templates/rooms/table.html needs. The first snapshot is rendered into
    the page so the table draws before the socket has connected."""
    return {
        "code": code,
        "room_name": name,
        "preset_label": PRESET_LABELS.get(preset, preset),
        "visibility": visibility,
        "strings": page_strings.translated(page_strings.TABLE),
        "boot": {
            "code": code,
            "snapshot": snapshot,
            "errors": page_strings.error_messages(),
            "rule_errors": {field: str(text) for field, text in RULE_ERRORS.items()},
            "options": preset_info().get(preset, {}).get("options", []),
            "chat": phrase_list(),  # the quick chat's phrases (rooms.chat)
        },
    }


@require_GET
def table(request: HttpRequest, code: str) -> HttpResponse:
    """``GET /r/<code>/``: the table page."""
    room = selectors.room_for_code(code)
    if room is None:
        raise Http404(_("There is no room with this code."))
    user, token = _person(request)
    seat = selectors.viewer_seat(room=room, user=user, guest_token=token)
    if room.visibility == "private" and seat is None:
        # Same rule as the table socket: a private table is for the people seated
        # at it (they came through the invite link). Anyone else gets the answer
        # of an unknown code, so nobody learns which private codes exist.
        raise Http404(_("There is no room with this code."))
    if room.status == "closed":
        parts = _page_parts("closed", room=room, request=request)
        return render(request, "rooms/closed.html", {"room": room, "page_parts": parts}, status=410)
    if room.visibility == "public" and user is None and seat is None:
        return redirect(f"{settings.LOGIN_URL}?next={request.path}")
    snapshot = selectors.room_state(room=room, viewer=seat)
    context = table_context(
        code=room.code,
        name=room.name,
        preset=room.preset,
        visibility=room.visibility,
        snapshot=snapshot,
    )
    context["boot"]["autosit"] = request.GET.get("sit") == "1"
    context["rated"] = room.rated
    context["unrated"] = snapshot["room"]["unrated"]  # said before the match starts
    context["competitive"] = room.competitive
    context["rules_href"] = rules_href(room.preset, room.options)
    context["page_parts"] = _page_parts("table", room=room, request=request)
    context["cooldown"] = records.cooldown_notice(user) if user is not None else None
    return render(request, "rooms/table.html", context)


@require_http_methods(["GET", "POST"])
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """``/i/<invite>/``: GET shows the table and asks to sit (it changes nothing:
    a link opened from another site, where the session cookie travels too,
    must not seat anyone); POST (with CSRF) takes the first free seat, or this
    browser's seat again, then the table. Someone already seated goes straight
    to the table."""
    user, guest = _person(request)
    if request.method == "GET":
        return _invite_page(request, token, user, guest)
    fresh = None
    if user is None and guest is None:
        guest = fresh = secrets.token_urlsafe(18)
    try:
        seat = services.seat_take_by_invite(
            token=token, user=user, guest_token=guest, ip_hash=request_ip_hash(request)
        )
    except ServiceError as exc:
        return _invite_failed(request, exc.message, exc.code)
    response = redirect("rooms:table", code=seat.room.code)
    if fresh:
        remember_guest(response, request, fresh)
    return response


def _invite_page(request: HttpRequest, token: str, user: Any, guest: str | None) -> HttpResponse:
    room = selectors.room_for_invite(token)
    if room is None:
        return _invite_failed(request, _("This invitation does not exist."), "not_found")
    mine = selectors.viewer_seat(room=room, user=user, guest_token=guest) or (
        selectors.reserved_seat(room=room, user=user, guest_token=guest)
    )
    if mine is not None:
        return redirect("rooms:table", code=room.code)
    if room.is_closed:
        return _invite_failed(request, _("This room is closed."), "room_closed")
    seats = selectors.invite_seats(room)
    if not any(s["free"] for s in seats):
        return _invite_failed(request, _("Every seat at this table is taken."), "room_full")
    context = {
        "room": room,
        "preset_label": PRESET_LABELS.get(room.preset, room.preset),
        "seats": seats,
        "guest": user is None,
    }
    return render(request, "rooms/invite.html", context)


def _invite_failed(request: HttpRequest, message: str, code: str) -> HttpResponse:
    status = {"room_full": 409, "room_closed": 410, "blocked": 403}.get(code, 404)
    return render(
        request, "rooms/invite_failed.html", {"message": message, "code": code}, status=status
    )


def _page_parts(page: str, **about: Any) -> SafeString:
    """What the apps above the rooms add to ``page`` (`rooms.signals.page_parts`):
    their receivers' HTML, rendered from their own templates, in their order."""
    answers = page_parts.send(sender=Room, page=page, **about)
    return mark_safe("".join(str(html) for _, html in answers if html))  # their templates'
