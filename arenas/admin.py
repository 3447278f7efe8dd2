"""Admin for arenas: admins schedule public arenas here (through
`arenas.services.arena_create`), see their players and matches, and cancel one
(`arenas.services.arena_cancel`). Nothing else is written from here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from arenas import services
from arenas.models import Arena, ArenaMatch, ArenaPlayer
from domino_site.admin_base import ReadOnlyMixin


class PlayerInline(ReadOnlyMixin, admin.TabularInline):
    model = ArenaPlayer
    extra = 0
    can_delete = False
    fields = ("user", "active", "score", "streak", "matches", "wins", "rank", "table", "joined_at")


class MatchInline(ReadOnlyMixin, admin.TabularInline):
    model = ArenaMatch
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ("room", "users", "winners", "points", "started_at", "ended_at")


@admin.action(description=_("Cancel the selected arenas"), permissions=["change"])
def cancel_arenas(modeladmin, request, queryset):
    done = 0
    for arena in queryset.exclude(status__in=[Arena.Status.FINISHED, Arena.Status.CANCELLED]):
        services.arena_cancel(arena=arena)
        done += 1
    modeladmin.message_user(
        request,
        ngettext("%(n)d arena cancelled.", "%(n)d arenas cancelled.", done) % {"n": done},
        messages.SUCCESS,
    )


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "preset",
        "visibility",
        "status",
        "starts_at",
        "minutes",
        "move_seconds",
    )
    list_filter = ("status", "preset", "visibility", "starts_at")
    search_fields = ("name", "players__user__username")
    actions = [cancel_arenas]
    fields = ("name", "preset", "move_seconds", "starts_at", "minutes", "visibility")

    def get_inlines(self, request: Any, obj: Any = None) -> list:
        return [PlayerInline, MatchInline] if obj is not None else []

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        if obj is None:  # scheduling a new one
            return []
        return [f.name for f in Arena._meta.fields]

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def save_model(self, request: Any, obj: Arena, form: Any, change: bool) -> None:
        if change:
            return  # nothing is edited here (cancel is an action)
        created = services.arena_create(
            name=obj.name,
            preset=obj.preset,
            move_seconds=obj.move_seconds,
            starts_at=obj.starts_at,
            minutes=obj.minutes,
            visibility=obj.visibility,
            created_by=request.user,
        )
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(ArenaMatch)
class ArenaMatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("arena", "room", "started_at", "ended_at")
    list_filter = ("arena",)
