"""Admin for ratings and their history: inspection only (records.services writes
them when a rated match finishes); abandonment cool-downs, which an admin may
lift (through `records.services.cooldown_lift`)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from domino_site.admin_base import ReadOnlyMixin
from records import services
from records.models import Cooldown, MatchLineup, Rating, RatingChange


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


@admin.register(Cooldown)
class CooldownAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "reason", "started_at", "until", "step", "running", "lifted_at")
    list_filter = ("reason", "started_at", "lifted_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    actions = ("lift",)

    @admin.display(boolean=True, description=_("running"))
    def running(self, obj: Cooldown) -> bool:
        return obj.lifted_at is None and obj.until > timezone.now()

    @admin.action(description=_("Lift the selected cool-downs"))
    def lift(self, request, queryset) -> None:
        count = 0
        for row in queryset.filter(lifted_at__isnull=True):
            services.cooldown_lift(cooldown=row, by=request.user)
            count += 1
        message = ngettext("%(n)d cool-down lifted.", "%(n)d cool-downs lifted.", count)
        self.message_user(request, message % {"n": count}, messages.SUCCESS)
