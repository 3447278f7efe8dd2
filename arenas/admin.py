"""Admin for arenas: admins schedule public arenas here (through
`arenas.services.arena_create`), see their players and matches, and cancel one
(`arenas.services.arena_cancel`). Nothing else is written from here."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from arenas import services
from arenas.models import Arena, ArenaMatch, ArenaPlayer, Schedule, Season, SeasonBadge
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
    fields = ("name", "preset", "move_seconds", "starts_at", "minutes", "visibility", "rated")

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
            rated=obj.rated,
            created_by=request.user,
        )
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(ArenaMatch)
class ArenaMatchAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("arena", "room", "started_at", "ended_at")
    list_filter = ("arena",)


# ------------------------------------------------------- the calendar (issue 54)


class ScheduleForm(forms.ModelForm):
    """A weekly schedule needs its weekday; a duration as an arena's (1 min to 24 h)."""

    class Meta:
        model = Schedule
        fields = (
            "name",
            "preset",
            "every",
            "at",
            "weekday",
            "move_seconds",
            "minutes",
            "rated",
            "active",
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("every") == Schedule.Every.WEEK and data.get("weekday") is None:
            self.add_error("weekday", _("A weekly tournament needs its weekday."))
        minutes = data.get("minutes")
        if minutes is not None and not 1 <= minutes <= services.MAX_MINUTES:
            self.add_error("minutes", _("An arena lasts from 1 minute to 24 hours."))
        return data


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):
    """The recurring tournaments: set once here, their arenas are created
    ahead by the sweeper (`arenas.schedules`). Turning one off (or deleting
    it) creates no more; the arenas it already created stay (cancel them in
    Arenas). A schedule is only settings: saved as it is, no service behind."""

    form = ScheduleForm
    list_display = (
        "name",
        "preset",
        "every",
        "at",
        "weekday",
        "move_seconds",
        "minutes",
        "rated",
        "active",
    )
    list_filter = ("active", "every", "preset", "rated")
    list_editable = ("active",)
    fields = (
        "name",
        "preset",
        "every",
        "at",
        "weekday",
        "move_seconds",
        "minutes",
        "rated",
        "active",
    )


class BadgeInline(ReadOnlyMixin, admin.TabularInline):
    model = SeasonBadge
    extra = 0
    can_delete = False
    fields = ("preset", "place", "user", "points")


@admin.register(Season)
class SeasonAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The seasons closed by the sweeper, with the badges stored then."""

    list_display = ("__str__", "starts_on", "closed_at")
    inlines = [BadgeInline]
