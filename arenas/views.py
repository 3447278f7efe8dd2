"""The arenas' pages (docs/protocol.md, "Arenas"): the list, an arena's page,
join and leave (POST, CSRF, logged in), a private arena's form and invite."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from arenas import selectors, services
from arenas.forms import ArenaForm
from arenas.models import Arena
from arenas.page_strings import arena_strings
from domino_site.client_ip import request_ip_hash
from games.world import world
from rooms.errors import ServiceError


@require_GET
def arena_list(request: HttpRequest) -> HttpResponse:
    return render(request, "arenas/list.html", {"arenas": selectors.public_arenas()})


def _arena(arena_id: int, user: Any) -> Arena:
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None or not selectors.arena_visible(arena, user):
        raise Http404(_("There is no such arena."))
    return arena


def _render(
    request: HttpRequest, arena: Arena, join_url: str, status: int = 200, error: str = ""
) -> HttpResponse:
    frame = selectors.arena_frame(arena)
    uid = request.user.pk if request.user.is_authenticated else None
    frame["you"] = selectors.you(selectors.viewers_part(arena), uid)
    invite = None
    if arena.visibility == Arena.Visibility.PRIVATE:
        invite = request.build_absolute_uri(reverse("arenas:invite", args=[arena.invite_token]))
    context = {
        "arena": arena,
        "frame": frame,
        "join_url": join_url,
        "invite_url": invite,
        "error": error,
        "boot": {"frame": frame, "strings": arena_strings(), "socket": f"/ws/arenas/{arena.pk}/"},
    }
    return render(request, "arenas/detail.html", context, status=status)


@require_GET
def arena_page(request: HttpRequest, arena_id: int) -> HttpResponse:
    arena = _arena(arena_id, request.user)
    return _render(request, arena, reverse("arenas:join", args=[arena.pk]))


def _back(arena: Arena) -> HttpResponse:
    return redirect("arenas:detail", arena_id=arena.pk)


@require_POST
def arena_join_view(request: HttpRequest, arena_id: int) -> HttpResponse:
    arena = _arena(arena_id, request.user)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('arenas:detail', args=[arena.pk])}")
    return _join(request, arena)


def _join(request: HttpRequest, arena: Arena) -> HttpResponse:
    try:
        services.arena_join(arena=arena, user=request.user, ip_hash=request_ip_hash(request))
    except ServiceError as exc:
        arena.refresh_from_db()
        join_url = reverse("arenas:join", args=[arena.pk])
        status = 429 if exc.code == "rate_limited" else 409  # too many joins: wait, or over
        return _render(request, arena, join_url, status=status, error=exc.message)
    return _back(arena)


@require_POST
@login_required
def arena_leave_view(request: HttpRequest, arena_id: int) -> HttpResponse:
    arena = _arena(arena_id, request.user)
    services.arena_leave(arena=arena, user=request.user)
    return _back(arena)


@require_http_methods(["GET", "POST"])
def arena_invite(request: HttpRequest, token: str) -> HttpResponse:
    """A private arena's invite link: GET shows the arena and a join button
    (nobody joins by opening a link), POST joins."""
    arena = Arena.objects.filter(invite_token=token, visibility=Arena.Visibility.PRIVATE).first()
    if arena is None:
        raise Http404(_("This invitation does not exist."))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        return _join(request, arena)
    return _render(request, arena, request.path)


@login_required
@require_http_methods(["GET", "POST"])
def arena_new(request: HttpRequest) -> HttpResponse:
    """A private arena, created by a logged-in player (who joins it)."""
    form = ArenaForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            arena = services.arena_create(
                name=data["name"],
                preset=data["preset"],
                move_seconds=data["move_seconds"],
                minutes=data["minutes"],
                starts_at=world().now() + timedelta(minutes=data["starts_in"]),
                visibility=Arena.Visibility.PRIVATE,
                created_by=request.user,
            )
            services.arena_join(arena=arena, user=request.user, ip_hash=request_ip_hash(request))
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return _back(arena)
    return render(request, "arenas/new.html", {"form": form})
