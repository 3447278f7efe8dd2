"""Pages and JSON endpoints (docs/protocol.md, "HTTP"). Thin: reads go through
selectors, writes through services; the create-room form validates with the
engine's `RuleSet`."""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from analysis import selectors as analysis
from domino_site.client_ip import request_ip_hash
from domino_site.guests import GUEST_COOKIE, GUEST_COOKIE_AGE, GUEST_SALT, guest_token_of
from records import selectors as records
from rooms import limits, selectors, services
from rooms.errors import ServiceError
from rooms.lobby import NO_CLOCK, PAGE_SIZE, BadView, View
from rooms.models import MOVE_SECONDS_CHOICES, Room
from rooms.signals import page_parts

from . import page_strings
from .chat import phrase_list
from .errors import RULE_ERRORS
from .forms import PRESET_LABELS, CreateRoomForm, preset_info

# ------------------------------------------------------------------ guests


def guest_token(request: HttpRequest) -> str | None:
    """The guest seat token of the signed cookie (docs/contract.md, "Guests")."""
    return guest_token_of(request.COOKIES)


def _person(request: HttpRequest) -> tuple[Any, str | None]:
    """(user or None, guest token or None) of this browser."""
    if request.user.is_authenticated:
        return request.user, None
    return None, guest_token(request)


def _remember_guest(response: HttpResponse, request: HttpRequest, token: str) -> HttpResponse:
    # The socket reads it back with the same request.get_signed_cookie call
    # (rooms.consumers.guest_token_from_scope).
    response.set_signed_cookie(
        GUEST_COOKIE,
        token,
        salt=GUEST_SALT,
        max_age=GUEST_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


# ------------------------------------------------------------------ lobby


def lobby(
    request: HttpRequest, form: CreateRoomForm | None = None, status: int = 200
) -> HttpResponse:
    """Public rooms (live over ws/lobby/), one filtered page of them (the query
    string's, as `/api/rooms/` reads it), and the create-room form."""
    guest = not request.user.is_authenticated
    try:
        view = View.from_query(request.GET)
    except BadView:  # a mangled link: the first page of everything
        view = View()
    rooms, more, next_cursor = _page_of(view)
    context = {
        "form": form or CreateRoomForm(guest=guest),
        "rooms": [_row_for_people(row) for row in rooms],
        "guest": guest,
        "view": view,
        "filters": _filter_choices(),
        "next_href": _page_href(view, next_cursor) if more else None,
        "first_href": _page_href(view, None) if view.cursor is not None else None,
        "lobby_boot": {
            "rooms": rooms,
            "view": view.as_json(),
            "more": more,
            "next": next_cursor,
            "firstPageSize": PAGE_SIZE,
            "presets": preset_info(),
            "strings": page_strings.translated(page_strings.LOBBY),
        },
    }
    return render(request, "rooms/lobby.html", context, status=status)


def _page_of(view: View) -> tuple[list[dict[str, Any]], bool, str | None]:
    """``view``'s rows, whether a next page exists, and its cursor."""
    entries = selectors.lobby_entries(view, view.page_size + 1)
    more = len(entries) > view.page_size
    rows = [row for _key, _version, row in entries[: view.page_size]]
    return rows, more, str(entries[view.page_size - 1][0]) if more else None


def _page_href(view: View, cursor: str | None) -> str:
    """The lobby page (or API) query string of ``view`` at another page."""
    query = {
        "preset": view.preset,
        "move_seconds": view.move_seconds,
        "free": 1 if view.free else None,
        "rated": 1 if view.rated else None,
        "page_size": view.page_size if view.page_size != PAGE_SIZE else None,
        "cursor": cursor,
    }
    return "?" + urlencode({k: v for k, v in query.items() if v is not None})


def _filter_choices() -> dict[str, list[tuple[str, str]]]:
    """The lobby filter's menus: every preset, every clock (and none)."""
    return {
        "presets": [(key, str(label)) for key, label in PRESET_LABELS.items()],
        "clocks": [(str(s), _("%(n)s s a move") % {"n": s}) for s in MOVE_SECONDS_CHOICES]
        + [(str(NO_CLOCK), _("no clock"))],
    }


def rules_href(preset: str, options: dict[str, Any]) -> str:
    """ "Regras desta mesa": the preset's rules page with this table's options."""
    query = {k: (int(v) if isinstance(v, bool) else v) for k, v in options.items() if v is not None}
    base = reverse("games:rules_preset", args=[preset])
    return f"{base}?{urlencode(query)}" if query else base


def _row_for_people(row: dict[str, Any]) -> dict[str, Any]:
    """A lobby row as the page renders it without JavaScript: the preset, the
    status and who sits ("1 pessoa, 0 bots") in the reader's language, like the
    live list (static/js/lobby.js)."""
    if row["paused"]:
        status = _("paused")
    else:
        status = {
            "waiting": _("waiting for players"),
            "playing": _("playing"),
            "between_rounds": _("between rounds"),
        }.get(row["status"], row["status"])
    return {
        **row,
        "preset_label": PRESET_LABELS.get(row["preset"], row["preset"]),
        "status_label": status,
        "people_label": ", ".join(
            (
                ngettext("%(n)s person", "%(n)s people", row["humans"]) % {"n": row["humans"]},
                ngettext("%(n)s bot", "%(n)s bots", row["bots"]) % {"n": row["bots"]},
            )
        ),
    }


@require_POST
def room_create(request: HttpRequest) -> HttpResponse:
    """``POST /rooms/`` (form or JSON): a room, or with ``play_alone`` a private
    room filled with bots at the chosen level and already started."""
    wants_json = request.content_type == "application/json"
    data = _posted(request, wants_json)
    if data is None:
        return JsonResponse(
            {"error": "bad_message", "message": _("Send a JSON object.")}, status=400
        )
    solo = bool(data.get("play_alone"))
    user, token = _person(request)
    form = CreateRoomForm(data, guest=user is None, solo=solo)
    if not form.is_valid():
        return _create_failed(request, form, wants_json)
    ip_hash = request_ip_hash(request)
    refusal = limits.room_create_refusal(user=user, guest_token=token, ip_hash=ip_hash, solo=solo)
    if refusal:
        form.add_error(None, refusal)
        return _create_failed(request, form, wants_json, status=429, code="rate_limited")
    fresh_token = None
    if user is None and token is None:
        token = fresh_token = secrets.token_urlsafe(18)
    values = form.cleaned_data
    try:
        with transaction.atomic():
            room = services.room_create(
                user=user,
                guest_token=token,
                name=values.get("name") or "",
                preset=values["preset"],
                options=form.options(),
                visibility="private" if solo else values["visibility"],
                move_seconds=values.get("move_seconds"),
                ip_hash=ip_hash,
                competitive=values.get("kind") != "friendly",
            )
            if solo:
                _fill_with_bots_and_start(room, user, token, values.get("bot_level") or "medium")
    except ServiceError as exc:
        if exc.field:
            form.add_rule_error(exc.field)
        else:
            form.add_error(None, exc.message)
        return _create_failed(request, form, wants_json)
    url = reverse("rooms:table", args=[room.code])
    response: HttpResponse
    if wants_json:
        invite_url = room.invite_path if room.visibility == "private" else None
        response = JsonResponse(
            {"code": room.code, "url": url, "invite_url": invite_url}, status=302
        )
        response["Location"] = url
    else:
        response = redirect(url)
    if fresh_token:
        _remember_guest(response, request, fresh_token)
    return response


def _posted(request: HttpRequest, wants_json: bool) -> dict | None:
    if not wants_json:
        return request.POST
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, RecursionError):  # a deeply nested body is a bad message, not a 500
        return None
    if not isinstance(data, dict):
        return None
    # JSON may say null / numbers / booleans: the form wants strings.
    return {
        k: "" if v is None else ("1" if v is True else "0" if v is False else str(v))
        for k, v in data.items()
    }


def _create_failed(
    request: HttpRequest,
    form: CreateRoomForm,
    wants_json: bool,
    status: int = 400,
    code: str = "bad_message",
) -> HttpResponse:
    if wants_json:
        errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
        return JsonResponse({"error": code, "errors": errors}, status=status)
    # A form to correct is not a failed request: the lobby again (200), each error
    # beside its field; a 400 is logged as an error by the browser. Too many
    # tables stays a 429, as every limit does (docs/protocol.md).
    return lobby(request, form=form, status=429 if code == "rate_limited" else 200)


def _fill_with_bots_and_start(room: Any, user: Any, token: str | None, level: str) -> None:
    """Play alone: every other seat gets a bot, then the match starts as soon
    as the page has sent its person's seed for the first deal."""
    actor = selectors.viewer_seat(room=room, user=user, guest_token=token)
    for index in range(1, room.ruleset.seats):
        services.bot_add(room=room, actor=actor, index=index, level=level)
    services.match_start_on_seeds(room=room, actor=actor)


# ------------------------------------------------------------------ table


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
        parts = _page_parts("closed", room=room)
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
    context["competitive"] = room.competitive
    context["rules_href"] = rules_href(room.preset, room.options)
    context["page_parts"] = _page_parts("table", room=room)
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
        _remember_guest(response, request, fresh)
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
    status = {"room_full": 409, "room_closed": 410}.get(code, 404)
    return render(
        request, "rooms/invite_failed.html", {"message": message, "code": code}, status=status
    )


# ------------------------------------------------------------------ JSON


@require_GET
def api_rooms(request: HttpRequest) -> JsonResponse:
    """``GET /api/rooms/``: one page of the public, open rooms, filtered by the query
    string (`rooms.lobby.View.from_query`). The body stays the list of rows;
    the paging goes in headers: ``X-Total-Count`` (rows of the filter on every
    page), ``X-Next-Cursor`` and a ``Link`` with ``rel="next"`` while a next
    page exists."""
    try:
        view = View.from_query(request.GET)
    except BadView as exc:
        message = _("This filter or page does not exist.")
        return JsonResponse(
            {"error": "bad_query", "field": str(exc), "message": message}, status=400
        )
    rows, more, next_cursor = _page_of(view)
    response = JsonResponse(rows, safe=False)
    response["X-Total-Count"] = str(selectors.lobby_count(view))
    if more:
        response["X-Next-Cursor"] = str(next_cursor)
        response["Link"] = f'<{request.path}{_page_href(view, next_cursor)}>; rel="next"'
    return response


# ------------------------------------------------------------------ records


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/``: record, rating and its history, recent matches (a
    private room's without code or links for whoever did not sit at it)."""
    person = get_user_model().objects.filter(username=username).first()
    if person is None:
        raise Http404(_("There is no player with this name."))
    user, token = _person(request)
    stats = records.player_stats(
        person,
        may_see_rounds=lambda room: selectors.may_see_rounds(
            room=room, user=user, guest_token=token
        ),
    )
    for line in stats["recent"]:
        line.preset_label = PRESET_LABELS.get(line.match.room.preset, line.match.room.preset)
    favourite = stats["favourite_preset"]
    accuracy = analysis.accuracy_by_preset(
        user=person,
        may_see_rounds=lambda room: selectors.may_see_rounds(
            room=room, user=user, guest_token=token
        ),
    )
    for row in accuracy:
        row["label"] = PRESET_LABELS.get(row["preset"], row["preset"])
    context = {
        "person": person,
        "stats": stats,
        "accuracy": accuracy,
        "favourite_label": PRESET_LABELS.get(favourite, favourite) if favourite else None,
        "page_parts": _page_parts("player", person=person),
    }
    return render(request, "rooms/player.html", context)


def _page_parts(page: str, **about: Any) -> SafeString:
    """What the apps above the rooms add to ``page`` (`rooms.signals.page_parts`):
    their receivers' HTML, rendered from their own templates, in their order."""
    answers = page_parts.send(sender=Room, page=page, **about)
    return mark_safe("".join(str(html) for _, html in answers if html))  # their templates'
