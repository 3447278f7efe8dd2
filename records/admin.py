"""Admin for ratings and their history: inspection only (records.services writes
them when a rated match finishes)."""

from __future__ import annotations

from django.contrib import admin

from domino_site.admin_base import ReadOnlyMixin
from records.models import MatchLineup, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "user",
        "preset",
        "ordinal",
        "mu",
        "sigma",
        "matches",
        "wins",
        "xp",
        "updated_at",
    )
    list_filter = ("preset", "updated_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "match",
        "user",
        "preset",
        "seat",
        "won",
        "xp",
        "mu_before",
        "mu_after",
        "created_at",
    )
    list_filter = ("preset", "won", "created_at")
    search_fields = ("user__username", "match__room__code")
    list_select_related = ("user", "match")


@admin.register(MatchLineup)
class MatchLineupAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("match", "rated", "reason", "users")
    list_filter = ("rated", "reason")
    search_fields = ("match__room__code",)
