"""The puzzles in the admin, read-only: only `puzzles.services` writes them."""

from __future__ import annotations

from django.contrib import admin

from domino_site.admin_base import ReadOnlyMixin
from puzzles.models import DailyPuzzle, Puzzle, PuzzlePlayer, PuzzleTry


@admin.register(Puzzle)
class PuzzleAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "state", "preset", "gap", "themes", "tries", "solved", "check_cpu_ms")
    list_filter = ("state", "preset", "drop_reason")


@admin.register(PuzzlePlayer)
class PuzzlePlayerAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("user", "mu", "sigma", "streak", "best_streak", "tries")


@admin.register(PuzzleTry)
class PuzzleTryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "user", "guest_key", "puzzle", "correct", "rated", "moved_puzzle", "rating_before",
        "rating_after", "created_at",
    )  # fmt: skip


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("day", "puzzle")
