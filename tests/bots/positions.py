"""Positions the bots' tests share."""

from games.engine import PASS, PRESETS, Play, Round, Tile


def only_five_five_left() -> Round:
    """A ``sem_monte`` duel where seat 1 has passed against 0/1, 3/1, 3/2, 4/2 and
    4/6 with one tile left: it can only be 5-5. Seat 0, to play, holds 4-5 and 0-6."""
    rnd = Round.from_hands(
        PRESETS["sem_monte"],
        hands=[["0-1", "0-3", "1-2", "3-4", "2-6", "4-5", "0-6"], ["5-5"]],
        opener=0,
    )
    for tile, end in [("0-1", None), ("0-3", "A"), ("1-2", "B"), ("3-4", "A"), ("2-6", "B")]:
        rnd.apply(0, Play(Tile.parse(tile), end))
        rnd.apply(1, PASS)
    return rnd
