"""The lobby's pages (docs/protocol.md, "HTTP"): the lobby page (``/``), the
create-room form it posts (``POST /rooms/``) and ``GET /api/rooms/``. Thin:
reads go through `lobby.selectors`, writes through `rooms.services`; the
create-room form validates with the engine's `RuleSet` (`rooms.forms`)."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from domino_site.client_ip import request_ip_hash
from domino_site.guests import guest_token_of, remember_guest
from domino_site.jsonbody import BadJSON, request_json
from lobby import page_strings as lobby_strings
from lobby.listing import NO_CLOCK, PAGE_SIZE, BadView, View
from lobby.selectors import lobby_count, lobby_entries
from rooms import limits
from rooms import selectors as room_selectors
from rooms import services as room_services
from rooms.errors import ServiceError
from rooms.forms import PRESET_LABELS, CreateRoomForm, preset_info
from rooms.models import MOVE_SECONDS_CHOICES
from rooms.page_strings import translated


def _person(request: HttpRequest) -> tuple[Any, str | None]:
    """(user or None, guest token or None) of this browser (as the rooms' pages)."""
    if request.user.is_authenticated:
        return request.user, None
    return None, guest_token_of(request.COOKIES)


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
            "strings": translated(lobby_strings.LOBBY),
        },
    }
    return render(request, "lobby/lobby.html", context, status=status)


def _page_of(view: View) -> tuple[list[dict[str, Any]], bool, str | None]:
    """``view``'s rows, whether a next page exists, and its cursor."""
    entries = lobby_entries(view, view.page_size + 1)
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
            room = room_services.room_create(
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
        remember_guest(response, request, fresh_token)
    return response


def _posted(request: HttpRequest, wants_json: bool) -> dict | None:
    if not wants_json:
        return request.POST
    try:
        data = request_json(request, empty={})
    except BadJSON:  # not JSON, or nested too deep: a bad message, not a 500
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
    actor = room_selectors.viewer_seat(room=room, user=user, guest_token=token)
    for index in range(1, room.ruleset.seats):
        room_services.bot_add(room=room, actor=actor, index=index, level=level)
    room_services.match_start_on_seeds(room=room, actor=actor)


@require_GET
def api_rooms(request: HttpRequest) -> JsonResponse:
    """``GET /api/rooms/``: one page of the public, open rooms, filtered by the query
    string (`lobby.listing.View.from_query`). The body stays the list of rows;
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
    response["X-Total-Count"] = str(lobby_count(view))
    if more:
        response["X-Next-Cursor"] = str(next_cursor)
        response["Link"] = f'<{request.path}{_page_href(view, next_cursor)}>; rel="next"'
    return response
