"""Pages and JSON endpoints (protocol.md, "HTTP"). Thin: reads go through
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
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import records
from games.selectors import round_replay
from rooms import limits, selectors, services
from rooms.errors import ServiceError

from . import page_strings
from .errors import RULE_ERRORS
from .forms import PRESET_LABELS, CreateRoomForm, preset_info

GUEST_COOKIE = "domino_guest"
GUEST_SALT = "domino.guest"
GUEST_COOKIE_AGE = 60 * 60 * 24 * 30  # a month: private rooms live 7 days without activity


# ------------------------------------------------------------------ guests


def guest_token(request: HttpRequest) -> str | None:
    """The guest seat token of the signed cookie (contract.md, "Guests")."""
    return request.get_signed_cookie(GUEST_COOKIE, default=None, salt=GUEST_SALT)


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
    """Public rooms (live over ws/lobby/) and the create-room form."""
    guest = not request.user.is_authenticated
    rooms = selectors.public_rooms()
    context = {
        "form": form or CreateRoomForm(guest=guest),
        "rooms": rooms,
        "guest": guest,
        "lobby_boot": {
            "rooms": rooms,
            "presets": preset_info(),
            "strings": page_strings.translated(page_strings.LOBBY),
        },
    }
    return render(request, "rooms/lobby.html", context, status=status)


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
    refusal = limits.room_create_refusal(user=user, guest_token=token)
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
        response = JsonResponse(
            {"code": room.code, "url": url, "invite_url": room.invite_path}, status=302
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
    except ValueError:
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
    return lobby(request, form=form, status=status)


def _fill_with_bots_and_start(room: Any, user: Any, token: str | None, level: str) -> None:
    """Play alone: every other seat gets a bot, then the match starts."""
    actor = selectors.viewer_seat(room=room, user=user, guest_token=token)
    for index in range(1, room.ruleset.seats):
        services.bot_add(room=room, actor=actor, index=index, level=level)
    services.match_start(room=room, actor=actor)


# ------------------------------------------------------------------ table


def table_context(
    *,
    code: str,
    name: str,
    preset: str,
    visibility: str,
    snapshot: dict | None,
    sample: bool = False,
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
            "sample": sample,
            "snapshot": snapshot,
            "errors": page_strings.error_messages(),
            "rule_errors": {field: str(text) for field, text in RULE_ERRORS.items()},
            "options": preset_info().get(preset, {}).get("options", []),
        },
    }


@require_GET
def table(request: HttpRequest, code: str) -> HttpResponse:
    """``GET /r/<code>/``: the table page."""
    room = selectors.room_for_code(code)
    if room is None:
        raise Http404(_("There is no room with this code."))
    if room.status == "closed":
        return render(request, "rooms/closed.html", {"room": room}, status=410)
    user, token = _person(request)
    seat = selectors.viewer_seat(room=room, user=user, guest_token=token)
    if room.visibility == "public" and user is None and seat is None:
        return redirect(f"{settings.LOGIN_URL}?next={request.path}")
    if room.visibility == "private" and seat is None:
        # Same rule as the table socket: a private table is for the people
        # seated at it, who came through the invite link.
        message = _("This table is private: ask the host for the invite link.")
        return render(request, "rooms/invite_failed.html", {"message": message}, status=403)
    snapshot = selectors.room_state(room=room, viewer=seat)
    context = table_context(
        code=room.code,
        name=room.name,
        preset=room.preset,
        visibility=room.visibility,
        snapshot=snapshot,
    )
    context["boot"]["autosit"] = request.GET.get("sit") == "1"
    return render(request, "rooms/table.html", context)


@require_GET
def invite(request: HttpRequest, token: str) -> HttpResponse:
    """``GET /i/<invite>/``: the first free seat (or this browser's seat again),
    then the table."""
    user, guest = _person(request)
    fresh = None
    if user is None and guest is None:
        guest = fresh = secrets.token_urlsafe(18)
    try:
        seat = services.seat_take_by_invite(token=token, user=user, guest_token=guest)
    except ServiceError as exc:
        status = {"room_full": 409, "room_closed": 410}.get(exc.code, 404)
        return render(
            request,
            "rooms/invite_failed.html",
            {"message": exc.message, "code": exc.code},
            status=status,
        )
    response = redirect("rooms:table", code=seat.room.code)
    if fresh:
        _remember_guest(response, request, fresh)
    return response


# ------------------------------------------------------------------ JSON


@require_GET
def api_rooms(request: HttpRequest) -> JsonResponse:
    """``GET /api/rooms/``: the public, open rooms."""
    return JsonResponse(selectors.public_rooms(), safe=False)


@require_GET
def api_round(request: HttpRequest, code: str, number: int) -> JsonResponse:
    """``GET /api/rooms/<code>/rounds/<n>/[?match=m]``: a finished round's deal and
    moves; 403 while it is played."""
    room = selectors.room_for_code(code)
    if room is None:
        return JsonResponse({"error": "not_found"}, status=404)
    match = request.GET.get("match")
    try:
        replay = round_replay(room=room, number=number, match_number=int(match) if match else None)
    except ValueError:
        return JsonResponse({"error": "bad_message"}, status=400)
    except ServiceError as exc:
        return JsonResponse({"error": exc.reason or exc.code, "message": exc.message}, status=403)
    if replay is None:
        return JsonResponse({"error": "not_found"}, status=404)
    return JsonResponse(replay)


# ------------------------------------------------------------------ records


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    """``/players/<username>/``: record and recent matches."""
    person = get_user_model().objects.filter(username=username).first()
    if person is None:
        raise Http404(_("There is no player with this name."))
    context = {"person": person, "stats": records.player_stats(person), "labels": PRESET_LABELS}
    return render(request, "rooms/player.html", context)


@require_GET
def ranking(request: HttpRequest) -> HttpResponse:
    """``/ranking/``: experience points from finished matches."""
    return render(request, "rooms/ranking.html", {"rows": records.ranking()})
