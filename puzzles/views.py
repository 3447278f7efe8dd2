"""The puzzle pages (docs/site.md, "Puzzles"): ``/problemas/`` (a puzzle for
you), ``/problemas/<id>/``, ``/problemas/diario/`` (the day's), the answer
(``POST /problemas/<id>/resposta/``, JSON) and ``POST /problemas/treinar/<round>/<seq>/``
(one's own blunder from the replay). Each view is one selector or service call."""

from __future__ import annotations

import secrets
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from domino_site.client_ip import request_ip_hash
from domino_site.guests import guest_token_of, remember_guest
from domino_site.jsonbody import BadJSON, bad_json_response, request_json
from games.world import world
from puzzles import selectors, services
from puzzles.errors import PuzzleError
from puzzles.models import Puzzle
from rooms.page_strings import translated

from . import page_strings


def _user(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _page(request: HttpRequest, puzzle: Puzzle | None, *, daily: bool = False) -> HttpResponse:
    user = _user(request)
    today = services.puzzle_of_the_day(day=world().now().date())
    boot = None
    if puzzle is not None:
        boot = {
            "puzzle": selectors.puzzle_payload(puzzle),
            "answer_url": reverse("puzzles:answer", args=[puzzle.pk]),
            "next_url": reverse("puzzles:next") + f"?after={puzzle.pk}",
            "signed_in": user is not None,
            "strings": translated(page_strings.PUZZLE),
        }
    context = {
        "boot": boot,
        "daily": daily,
        "daily_url": reverse("puzzles:daily") if today is not None else None,
        "summary": selectors.player_summary(user=user) if user is not None else None,
    }
    return render(request, "puzzles/page.html", context)


@require_GET
def next_puzzle(request: HttpRequest) -> HttpResponse:
    """``GET /problemas/[?after=<id>]``: a puzzle for you."""
    after = request.GET.get("after", "")
    puzzle = selectors.next_puzzle(
        user=_user(request), after=int(after) if after.isdigit() else None
    )
    return _page(request, puzzle)


@require_GET
def puzzle_page(request: HttpRequest, puzzle_id: int) -> HttpResponse:
    puzzle = selectors.visible_puzzle(puzzle_id=puzzle_id, user=_user(request))
    if puzzle is None:
        raise Http404(_("There is no such puzzle."))
    return _page(request, puzzle)


@require_GET
def daily(request: HttpRequest) -> HttpResponse:
    puzzle = services.puzzle_of_the_day(day=world().now().date())
    return _page(request, puzzle, daily=True)


@require_POST
def answer(request: HttpRequest, puzzle_id: int) -> JsonResponse:
    """``POST /problemas/<id>/resposta/`` with ``{"action": {...}}``: whether it
    is the best move, the solution and the ratings (docs/protocol.md). A guest
    is known by the guest cookie (set here when the browser had none): their
    try is recorded by it before the solution is shown to them."""
    try:
        body = request_json(request)
    except BadJSON:
        return bad_json_response("bad_action")
    data = body.get("action") if isinstance(body, dict) else None
    user = _user(request)
    token = guest_token_of(request.COOKIES)
    fresh = None
    if user is None and token is None:
        token = fresh = secrets.token_urlsafe(18)
    try:
        result = services.puzzle_try(
            puzzle_id=puzzle_id,
            user=user,
            answer=data,
            guest_token=token,
            ip_hash=request_ip_hash(request),
        )
    except PuzzleError as exc:
        return JsonResponse({"error": exc.code, "message": exc.message}, status=exc.status)
    response = JsonResponse(result.to_dict())
    if fresh is not None:
        remember_guest(response, request, fresh)
    return response


@require_POST
def train(request: HttpRequest, round_id: int, seq: int) -> HttpResponse:
    """``POST /problemas/treinar/<round>/<seq>/``: your own blunder as a puzzle."""
    user = _user(request)
    if user is None:
        return redirect(f"{reverse('login')}?next={reverse('puzzles:next')}")
    try:
        puzzle = services.training_puzzle(user=user, round_id=round_id, seq=seq)
    except PuzzleError as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        return render(
            request, "rooms/invite_failed.html", {"message": exc.message}, status=exc.status
        )
    return redirect("puzzles:puzzle", puzzle_id=puzzle.pk)
