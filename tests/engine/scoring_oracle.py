"""The partida's and the game of points' scores worked out again from a round's
public move log (``Round.view(seat)["history"]``: each play's tile, end and the
ends before it), without the engine's own classifier or counter: the tests hold
the engine to this second reading (docs/rules.md, "How a round is won" and "The
game of points")."""

from __future__ import annotations

from typing import Any

WAYS = ("simples", "carroca", "la_e_lo", "cruzada")


def halves(text: str) -> tuple[int, int]:
    a, b = text.split("-")
    return int(a), int(b)


def plays(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [entry for entry in history if entry["type"] == "play"]


def way_of_winning(history: list[dict[str, Any]]) -> str:
    """How the last play of the log won: by the tile and the two ends it met."""
    last = plays(history)[-1]
    a, b = halves(last["tile"])
    before = last["ends_before"]
    if before is None:
        return "carroca" if a == b else "simples"
    x, y = before["A"], before["B"]
    fits_a = x in (a, b)
    fits_b = y in (a, b)
    if a == b:
        return "cruzada" if fits_a and fits_b else "carroca"
    return "la_e_lo" if fits_a and fits_b else "simples"


def fives_made(
    history: list[dict[str, Any]], side_of: Any, sides: int, spinner: bool = False
) -> list[int]:
    """The points made by plays, per side: after each play the open ends are added
    up (an end whose outer tile is a double counts twice, a lone first tile counts
    its pips; a spinner's side C or D only once a tile lies on it) and a multiple
    of 5 scores for the player's side."""
    made = [0] * sides
    for entry, count in zip(plays(history), counts(history, spinner), strict=True):
        if count and count % 5 == 0:
            made[side_of(entry["seat"])] += count
    return made


def first_to_reach(
    history: list[dict[str, Any]],
    side_of: Any,
    scores: tuple[int, ...],
    target: int,
    spinner: bool = False,
) -> tuple[int, int] | None:
    """The game of points in a match at ``scores``: the first play whose points
    take its side to ``target``, as (its number among the plays, the side), or
    None. Play points count the moment they are made (docs/rules.md, "The game
    of points")."""
    totals = list(scores)
    for number, (entry, count) in enumerate(
        zip(plays(history), counts(history, spinner), strict=True)
    ):
        if count and count % 5 == 0:
            side = side_of(entry["seat"])
            totals[side] += count
            if totals[side] >= target:
                return number, side
    return None


def counts(history: list[dict[str, Any]], with_spinner: bool = False) -> list[int]:
    """The count after each play of the log (with a spinner, the first double
    opens C and D once a tile lies on each of its line sides)."""
    ends: dict[str, int] = {}
    outer_double: dict[str, bool] = {}
    played: set[str] = set()
    spinner: dict[str, Any] = {}
    result = []
    for entry in plays(history):
        a, b = halves(entry["tile"])
        end = entry["end"]
        if entry["ends_before"] is None:
            ends = {"A": a, "B": b}
            outer_double = {"A": a == b, "B": a == b}
            if a == b and with_spinner:
                spinner = {"number": a, "waiting": {"A", "B"}}
            result.append(a + b)
            continue
        touching = ends[end]
        ends[end] = b if a == touching else a
        outer_double[end] = a == b
        played.add(end)
        if with_spinner and not spinner and a == b:
            spinner = {"number": a, "waiting": {end}}
        elif spinner and end in spinner["waiting"]:
            spinner["waiting"].discard(end)
            if not spinner["waiting"]:
                ends["C"] = ends["D"] = spinner["number"]
        count = 0
        for name, number in ends.items():
            if name in ("C", "D") and name not in played:
                continue
            count += 2 * number if outer_double[name] else number
        result.append(count)
    return result


def nearest_five(pips: int) -> int:
    """Round to the nearest multiple of 5 (12 -> 10, 13 -> 15)."""
    return (pips + 2) // 5 * 5
