"""The analyses in the admin, read-only: only `analysis.services` writes them."""

from __future__ import annotations

from django.contrib import admin

from analysis.models import AnalysisJob, RoundAnalysis, SeatAccuracy
from domino_site.admin_base import ReadOnlyMixin


class SeatAccuracyInline(ReadOnlyMixin, admin.TabularInline):
    model = SeatAccuracy
    extra = 0
    can_delete = False
    fields = ("seat", "user", "preset", "decisions", "accuracy", "loss")


@admin.register(RoundAnalysis)
class RoundAnalysisAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("round", "created_at", "work", "cpu_ms")
    list_select_related = ("round",)
    inlines = (SeatAccuracyInline,)


@admin.register(SeatAccuracy)
class SeatAccuracyAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("analysis", "seat", "user", "preset", "decisions", "accuracy")
    list_filter = ("preset",)


@admin.register(AnalysisJob)
class AnalysisJobAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The analysis queue (analysis.queue): where each round's analysis stands."""

    list_display = (
        "round",
        "state",
        "priority",
        "person",
        "queued_at",
        "started_at",
        "finished_at",
    )
    list_filter = ("state", "priority")
    list_select_related = ("round",)
    ordering = ("state", "priority", "queued_at")
