"""The puzzles' reads: the next puzzle for a player, a puzzle as a solver may
see it (its payload: the mover's view and nothing about where it came from),
a player's rating, streak and tries."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Func

from games.presets import PRESET_LABELS
from puzzles.models import Puzzle, PuzzlePlayer, PuzzleTry
from puzzles.ratings import shown_rating
from records.rating import MU, SCALE

PUBLIC = {"state": Puzzle.State.PUBLISHED, "owner__isnull": True}


def visible_puzzle(*, puzzle_id: int, user: Any) -> Puzzle | None:
    """The puzzle this person may open: a published one, or their own training
    position (None for anything else, alike)."""
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        return None
    if puzzle.state == Puzzle.State.PUBLISHED and puzzle.owner_id is None:
        return puzzle
    if puzzle.state == Puzzle.State.TRAINING and user is not None and puzzle.owner_id == user.pk:
        return puzzle
    return None


def next_puzzle(*, user: Any, after: int | None = None) -> Puzzle | None:
    """A published puzzle for ``user``: one they have not tried, of the rating
    nearest theirs; a guest gets the next one after ``after`` (by id)."""
    public = Puzzle.objects.filter(**PUBLIC)
    if user is None:
        later = public.filter(pk__gt=after) if after else public
        return later.order_by("id").first() or public.order_by("id").first()
    mu = PuzzlePlayer.objects.filter(user=user).values_list("mu", flat=True).first() or MU
    untried = public.exclude(pk__in=PuzzleTry.objects.filter(user=user).values("puzzle_id"))
    if after:
        untried = untried.exclude(pk=after)
    return (
        untried.annotate(distance=Func(F("mu") - mu, function="ABS"))
        .order_by("distance", "id")
        .first()
    )


def puzzle_payload(puzzle: Puzzle) -> dict[str, Any]:
    """What a solver's page gets: the mover's view (`Round.view(seat)` as it
    was), the puzzle's rating and themes; never the players, the room or the
    round it came from, nor its answer."""
    return {
        "id": puzzle.pk,
        "view": puzzle.view,
        "rating": shown_rating(puzzle.mu),
        "themes": list(puzzle.themes),
        "preset": PRESET_LABELS.get(puzzle.preset, puzzle.preset),
        "training": puzzle.state == Puzzle.State.TRAINING,
    }


def player_summary(*, user: Any) -> dict[str, Any]:
    """A player's puzzle rating, its uncertainty, streak, best streak, tries."""
    row = PuzzlePlayer.objects.filter(user=user).first()
    if row is None:
        return {
            "rating": shown_rating(MU),
            "streak": 0,
            "best_streak": 0,
            "tries": 0,
            "uncertainty": None,
        }
    return {
        "rating": shown_rating(row.mu),
        "uncertainty": round(row.sigma * SCALE),
        "streak": row.streak,
        "best_streak": row.best_streak,
        "tries": row.tries,
    }


def tries_of(*, user: Any, limit: int = 20) -> list[dict[str, Any]]:
    """A player's latest rated tries, newest first."""
    rows = PuzzleTry.objects.filter(user=user, rated=True).order_by("-created_at", "-id")[:limit]
    return [
        {
            "puzzle": t.puzzle_id,
            "correct": t.correct,
            "rating_before": t.rating_before,
            "rating_after": t.rating_after,
            "at": t.created_at,
        }
        for t in rows
    ]
