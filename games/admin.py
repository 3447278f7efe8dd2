"""Admin for matches, rounds and moves: inspection, read-only move logs, and a
round's replay page (rebuilt from the deal and the moves, checked against the
stored snapshot)."""

from __future__ import annotations

from django.contrib import admin
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from domino_site.admin_base import ReadOnlyMixin
from games.models import Match, Move, Round
from games.selectors import replay_steps


def replay_link(rnd: Round) -> str:
    """The admin's move-by-move table and, for a finished round, the site's replay
    page (the table's drawing, every hand face up; admins may open any room's)."""
    url = reverse("admin:games_round_replay", args=[rnd.pk])
    if rnd.finished_at is None:
        return format_html('<a href="{}">{}</a>', url, _("Replay"))
    page = reverse("replays:replay", args=[rnd.room.code, rnd.number])
    return format_html(
        '<a href="{}">{}</a> · <a href="{}?match={}" data-replay-page>{}</a>',
        url,
        _("Replay"),
        page,
        rnd.match.number,
        _("Replay page"),
    )


class MoveInline(ReadOnlyMixin, admin.TabularInline):
    model = Move
    extra = 0
    can_delete = False
    fields = ("seq", "seat", "action", "by", "created_at")
    ordering = ("seq",)


class RoundInline(ReadOnlyMixin, admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ("number", "version", "started_at", "finished_at", "replay")
    ordering = ("number",)

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "replay"]

    @admin.display(description=_("Replay"))
    def replay(self, rnd: Round) -> str:
        return replay_link(rnd) if rnd.pk else ""


@admin.register(Match)
class MatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("room", "number", "over", "winner", "ended_by", "annulled", "created_at")
    list_filter = ("over", "annulled", "ended_by", "room__preset", "room__status", "created_at")
    search_fields = ("room__code", "room__name", "room__seats__user__username")
    date_hierarchy = "created_at"
    list_select_related = ("room",)
    inlines = (RoundInline,)


@admin.register(Round)
class RoundAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "id", "room", "match_number", "number", "version", "due_kind", "started_at",
        "finished_at", "replay",
    )  # fmt: skip
    list_filter = ("room__preset", "room__status", "due_kind", "started_at", "finished_at")
    search_fields = ("room__code", "room__seats__user__username", "room__seats__display_name")
    date_hierarchy = "started_at"
    list_select_related = ("room", "match")
    inlines = (MoveInline,)
    # The server seed is shown by `revealed_seed`, only once its round has ended.
    exclude = ("server_seed",)

    def get_readonly_fields(self, request, obj=None):
        fields = [f for f in super().get_readonly_fields(request, obj) if f != "server_seed"]
        return [*fields, "revealed_seed", "replay"]

    @admin.display(description=_("server seed"))
    def revealed_seed(self, rnd: Round) -> str:
        """Told to nobody, admins included, before the round has ended (docs/rules.md)."""
        if not rnd.fair_version:
            return "—"
        return rnd.server_seed if rnd.has_ended else str(_("revealed when the round ends"))

    @admin.display(description=_("Match"), ordering="match__number")
    def match_number(self, rnd: Round) -> int:
        return rnd.match.number

    @admin.display(description=_("Replay"))
    def replay(self, rnd: Round) -> str:
        return replay_link(rnd)

    def get_urls(self):
        own = [
            path(
                "<int:round_id>/replay/",
                self.admin_site.admin_view(self.replay_view),
                name="games_round_replay",
            )
        ]
        return own + super().get_urls()

    def replay_view(self, request, round_id: int):
        rnd = get_object_or_404(Round.objects.select_related("room", "match"), pk=round_id)
        if not self.has_view_permission(request, rnd):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        replay = replay_steps(rnd)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": rnd,
            "title": _("Replay of %(round)s") % {"round": rnd},
            "round": rnd,
            "replay": replay,
            "seats": list(range(rnd.engine().rules.seats)),
        }
        return TemplateResponse(request, "admin/games/round/replay.html", context)


@admin.register(Move)
class MoveAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("round", "seq", "seat", "action", "by", "created_at")
    list_filter = ("by", "created_at", "round__room__preset")
    search_fields = ("round__room__code", "round__room__seats__user__username")
    list_select_related = ("round",)
