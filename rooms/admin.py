"""Admin for rooms and seats: inspection only (game state is written by services),
plus an action that closes rooms through `rooms.services.room_close`."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from domino_site.admin_base import ReadOnlyMixin
from games.models import Match
from rooms import services
from rooms.models import QuickEntry, Room, Seat


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    fields = (
        "index", "kind", "display_name", "user", "guest_token", "bot_level", "substitute",
        "connected", "last_seen", "reserved_user", "reserved_name", "leaving", "ready",
        "seated_at",
    )  # fmt: skip


class MatchInline(ReadOnlyMixin, admin.TabularInline):
    model = Match
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ("number", "over", "winner", "ended_by", "annulled", "created_at", "finished_at")


@admin.action(description=_("Close the selected rooms"), permissions=["change"])
def close_rooms(modeladmin, request, queryset):
    closed = 0
    for room in queryset.exclude(status=Room.Status.CLOSED):
        services.room_close(room=room, reason="admin")
        closed += 1
    modeladmin.message_user(
        request,
        ngettext("%(n)d room closed.", "%(n)d rooms closed.", closed) % {"n": closed},
        messages.SUCCESS,
    )


@admin.register(Room)
class RoomAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "code", "name", "preset", "visibility", "status", "paused", "host_seat", "created_at",
        "last_activity_at",
    )  # fmt: skip
    list_filter = ("status", "preset", "visibility", "paused", "created_at")
    search_fields = ("code", "name", "seats__display_name", "seats__user__username")
    date_hierarchy = "created_at"
    inlines = (SeatInline, MatchInline)
    actions = (close_rooms,)
    # The next deal's server seed is shown to nobody: its commitment only.
    exclude = ("next_server_seed",)

    def get_readonly_fields(self, request, obj=None):
        fields = super().get_readonly_fields(request, obj)
        return [*(f for f in fields if f != "next_server_seed"), "next_commitment"]

    @admin.display(description=_("next deal's commitment"))
    def next_commitment(self, room: Room) -> str:
        return room.next_fair()["commitment"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("room", "index", "kind", "display_name", "user", "bot_level", "connected")
    list_filter = ("kind", "connected", "substitute", "room__status", "room__preset")
    search_fields = ("room__code", "display_name", "user__username")
    list_select_related = ("room", "user")


@admin.register(QuickEntry)
class QuickEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The quick-match queue as it is now (people wait seconds: nothing to edit)."""

    list_display = ("user", "preset", "move_seconds", "people_only", "rating", "joined_at")
    list_filter = ("preset", "move_seconds", "people_only")
    search_fields = ("user__username",)
    list_select_related = ("user",)
