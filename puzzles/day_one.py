"""The day-one puzzles (docs/site.md, "Puzzles"; docs/decisions.md, "Day-one
puzzles"): a set the project makes from bot rounds with the analysis' own
cutting and checking (tools/make_day_one_puzzles.py, seeded, deterministic),
commits as `DATA_FILE` and loads in a migration, so a fresh site has puzzles
and a puzzle of the day before anybody has played.

Pure (the engine, the bots' reading of a view, the analysis' scoring; no
Django), as `puzzles.cutting` is: the generator, the migration's loader and
the tests share it.

Each entry of the file keeps the round it was cut from (its rules, deal and
moves, the mover's seat and the move number) beside what a puzzle row holds
(the mover's view, the solution, the options and gap of the deeper check, the
themes, the starting rating), so `recheck` runs the same deeper check on it
again and a bad entry fails a test.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.engine import Action, Play, RuleSet, action_from_dict
from puzzles import cutting
from puzzles.themes import themes_of

#: The committed set (its header says the recipe and the seed).
DATA_FILE = Path(__file__).resolve().parent / "data" / "day_one.json"
#: ``Puzzle.origin_key`` of an entry: this prefix and the entry's ``key``.
KEY_PREFIX = "day_one:"
#: The first check's seed parts start with this; the entry's preset and round follow.
SEED_TAG = "day-one"
#: The rating a puzzle starts at, by the weakest bot level that finds its
#: answer (none: `UNSOLVED_RATING`), before `OPTION_STEP` per legal option
#: beyond two (at most `MAX_OPTION_STEPS`).
RATING_BY_LEVEL = {"easy": 1200, "medium": 1450}
UNSOLVED_RATING = 1700
OPTION_STEP = 50
MAX_OPTION_STEPS = 4


def read(path: Path = DATA_FILE) -> dict[str, Any]:
    """The file: its header fields and ``puzzles``, the entries."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def origin_key(entry: dict[str, Any]) -> str:
    return KEY_PREFIX + str(entry["key"])


def seed_parts(entry: dict[str, Any]) -> tuple[object, ...]:
    """The deeper check's seed parts (`cutting.deep_check`'s ``seed_parts``)."""
    return (SEED_TAG, entry["preset"], entry["round_seed"])


def moves_of(entry: dict[str, Any]) -> list[tuple[int, dict[str, Any], str]]:
    return [(int(seat), dict(action), str(by)) for seat, action, by in entry["moves"]]


def same_answer(view: dict[str, Any], action: Action, best: Action) -> bool:
    """Whether ``action`` counts as ``best`` (`puzzles.services.is_solution`'s
    rule: the move itself, or the same tile on an end showing the same number
    when the scoring does not count the ends)."""
    if action == best:
        return True
    if type(action) is not Play or type(best) is not Play or action.tile != best.tile:
        return False
    if view["rules"].get("scoring") == "fives":
        return False
    ends = view["ends"] or {}
    return ends.get(action.end or "A") == ends.get(best.end or "A")


def starting_rating(view: dict[str, Any], solved_by: str | None) -> int:
    """The rating shown for a new puzzle (``mu x 60``): by the weakest bot level
    that finds its answer (``solved_by``; None: neither the easy nor the medium
    bot), harder the more legal moves it offers. A guess the tries correct:
    every puzzle's rating moves on established accounts' answers.

    >>> starting_rating({"legal": [{}, {}]}, "easy"), starting_rating({"legal": [{}] * 9}, None)
    (1200, 1900)
    """
    base = RATING_BY_LEVEL.get(solved_by or "", UNSOLVED_RATING)
    extra = min(MAX_OPTION_STEPS, max(0, len(view["legal"]) - 2))
    return base + OPTION_STEP * extra


def entry_fields(entry: dict[str, Any], scale: float) -> dict[str, Any]:
    """A puzzle row's fields from an entry (``scale``: the shown rating over
    ``mu``, `records.rating.SCALE`): published, public, no round behind it."""
    return {
        "origin": "day_one",
        "origin_key": origin_key(entry),
        "round": None,
        "seq": entry["seq"],
        "seat": entry["seat"],
        "preset": entry["preset"],
        "view": entry["view"],
        "solution": entry["solution"],
        "options": entry["options"],
        "gap": entry["gap"],
        "themes": entry["themes"],
        "state": "published",
        "mu": entry["rating"] / scale,
    }


def load(puzzle_model: Any, *, path: Path = DATA_FILE, scale: float = 60.0) -> int:
    """Store the file's puzzles not stored yet (by ``origin_key``) with
    ``puzzle_model`` (the migration's historical model or the real one);
    returns how many it added: loading twice adds nothing."""
    entries = read(path)["puzzles"]
    have = set(puzzle_model.objects.filter(origin="day_one").values_list("origin_key", flat=True))
    rows = [puzzle_model(**entry_fields(e, scale)) for e in entries if origin_key(e) not in have]
    puzzle_model.objects.bulk_create(rows)
    return len(rows)


def recheck(entry: dict[str, Any]) -> list[str]:
    """What is wrong with an entry (nothing: ``[]``), checked as the analysis
    worker checks a candidate: its view is the mover's view of the stored
    round at that move, its themes are `themes_of` that view, its options are
    that position's legal moves, and the deeper check
    (`puzzles.cutting.deep_check`, with its seed) keeps its solution as the
    best by the gap."""
    rules = RuleSet.from_dict(entry["rules"])
    moves = moves_of(entry)
    problems = []
    position = cutting.position(rules, entry["deal"], moves, entry["seq"])
    view = position.view(entry["seat"])
    if position.is_over or position.turn != entry["seat"]:
        problems.append("not the mover's turn")
    if json.loads(json.dumps(view)) != entry["view"]:
        problems.append("the view is not the mover's view of the round")
    solution = entry["solution"]
    others = [cutting.action_of(o) for o in entry["options"]]
    others = [o for o in others if o != solution]
    if themes_of(view, solution, others) != entry["themes"]:
        problems.append("the themes are not the position's")
    legal = [action_from_dict(a, spinner=True) for a in view["legal"]]
    if action_from_dict(solution, spinner=True) not in legal:
        problems.append("the solution is not a legal move")
    verdict = cutting.deep_check(
        entry["rules"],
        entry["deal"],
        moves,
        seq=entry["seq"],
        seat=entry["seat"],
        solution=solution,
        seed_parts=seed_parts(entry),
    )
    if not verdict.kept:
        problems.append(f"the deeper check drops it: {verdict.reason}")
    return problems


def spread(entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How a set spreads: puzzles per preset and per theme, the lowest and
    highest starting rating."""
    presets: dict[str, int] = {}
    themes: dict[str, int] = {}
    for e in entries:
        presets[e["preset"]] = presets.get(e["preset"], 0) + 1
        for t in e["themes"] or ["(none)"]:
            themes[t] = themes.get(t, 0) + 1
    ratings = [e["rating"] for e in entries]
    return {
        "presets": presets,
        "themes": themes,
        "ratings": [min(ratings), max(ratings)] if ratings else [],
    }
