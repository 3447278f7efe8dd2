"""Where a finished round is seen again (docs/site.md, "Accounts, records, ranking"): the replay
page (``/r/<code>/rounds/<n>/``), the round's JSON (``/api/rooms/<code>/rounds/<n>/``)
and, on the page, its analysis or where that stands in the queue. Who may see a
room's rounds is the rooms' rule (`rooms.selectors.may_see_rounds`)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from analysis import selectors as analysis
from domino_site.guests import guest_token_of
from domino_site.removed import shown_name
from games.presets import PRESET_LABELS
from games.selectors import finished_round, replay_export, replay_fair, replay_positions
from rooms import selectors
from rooms.errors import ServiceError
from rooms.page_strings import TABLE, translated

from . import page_strings, training
from .analysis_requests import played, replay_opened
from .whatif_page import whatif_boot


def person_of_request(request: HttpRequest) -> tuple[Any, str | None]:
    """(user or None, guest token or None) of this browser (as the rooms' pages)."""
    if request.user.is_authenticated:
        return request.user, None
    return None, guest_token_of(request.COOKIES)


def _visible_round(request: HttpRequest, code: str, number: int) -> Any:
    """The finished round this visitor may see (rooms.selectors.may_see_rounds),
    or Http404: an unknown code, a round that does not exist and a room the
    visitor may not see all answer alike. A round still in play raises
    ServiceError (``round_in_play``) for those who may see the room."""
    room = selectors.room_for_code(code)
    user, token = person_of_request(request)
    if room is None or not selectors.may_see_rounds(room=room, user=user, guest_token=token):
        raise Http404(_("There is no room with this code."))
    match = request.GET.get("match")
    match_number = int(match) if match and match.isdigit() else None
    rnd = finished_round(room=room, number=number, match_number=match_number)
    if rnd is None:
        raise Http404(_("There is no such round."))
    return rnd


@require_GET
def api_round(request: HttpRequest, code: str, number: int) -> JsonResponse:
    """``GET /api/rooms/<code>/rounds/<n>/[?match=m]``: a finished round's hands as
    dealt, moves and result (never the boneyard); 403 while it is played; 404 for
    whoever may not see the room's rounds."""
    rnd = round_for_api(request, code, number)
    if isinstance(rnd, JsonResponse):
        return rnd
    return JsonResponse({**replay_export(rnd), "analysis": analysis.round_analysis(rnd=rnd)})


def round_for_api(request: HttpRequest, code: str, number: int) -> Any:
    """The finished round this visitor may see, or the JSON refusal: 404 for
    whoever may not see it (as the replay), 403 while it is played."""
    try:
        return _visible_round(request, code, number)
    except Http404:
        return JsonResponse({"error": "not_found"}, status=404)
    except ServiceError as exc:
        return JsonResponse({"error": exc.reason or exc.code, "message": exc.message}, status=403)


@require_GET
def replay(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """``GET /r/<code>/rounds/<n>/[?match=m]``: the replay page of a finished round
    (the table's drawing, every hand face up, the log beside it)."""
    try:
        rnd = _visible_round(request, code, number)
    except ServiceError as exc:
        return render(request, "rooms/invite_failed.html", {"message": exc.message}, status=403)
    room = rnd.room
    user, token = person_of_request(request)
    replay_opened(rnd, user, token)  # its analysis comes first (analysis.queue)
    players = rnd.players or []
    boot = {
        "code": room.code,
        "match": rnd.match.number,
        "number": rnd.number,
        "rules": rnd.state["rules"],
        "seats": [
            {
                "index": p.get("index"),
                "kind": p.get("kind"),
                "name": shown_name(p.get("name") or ""),
                "bot_level": p.get("bot_level"),
            }
            for p in players
        ],
        "positions": replay_positions(rnd),
        "strings": translated(TABLE + page_strings.REPLAY),
    }
    context = {
        "room": room,
        "round": rnd,
        "preset_label": PRESET_LABELS.get(room.preset, room.preset),
        "boot": boot,
        "table_url": reverse("rooms:table", args=[room.code]),
        "json_url": reverse("replays:api_round", args=[room.code, rnd.number])
        + f"?match={rnd.match.number}",
        "fair_boot": replay_fair(rnd),  # the deal checked again in the browser
        # "Train this position" on the viewer's own blunders (templates/replays/_replay_train.html).
        "train": training.train_boot(rnd, user, analysis.round_analysis(rnd=rnd)),
        # Its own island and script (templates/replays/_replay_analysis.html).
        "analysis": analysis_boot(rnd),
        "analysis_queue": analysis_queue_boot(rnd, user, token),
        "whatif": whatif_boot(rnd),  # templates/replays/_replay_whatif.html
    }
    return render(request, "replays/replay.html", context)


def analysis_boot(rnd: Any) -> dict[str, Any] | None:
    """The round's analysis for the replay page's script, with its strings."""
    found = analysis.round_analysis(rnd=rnd)
    if found is None:
        return None
    return {**found, "strings": translated(page_strings.ANALYSIS)}


def analysis_queue_boot(rnd: Any, user: Any, token: str | None) -> dict[str, Any] | None:
    """Until the round is analysed: where its analysis stands, where to ask
    again, and whether this visitor may ask for it (a player of the round)."""
    status = analysis.analysis_status(round_id=rnd.pk)
    if status["state"] == "done" or rnd.result is None:
        return None
    url = reverse("replays:api_round_analysis", args=[rnd.room.code, rnd.number])
    return {
        **status,
        "url": f"{url}?match={rnd.match.number}",
        "may_ask": played(rnd, user, token),
        "strings": translated(page_strings.ANALYSIS_QUEUE),
    }
