"""A two-seat round without boneyard (sem_monte) with a planted blunder.

Seat 0 reaches ends 6 and 5 holding 6-5 and 5-5, six tiles with a 6 on the
table, after seat 1 passed (so seat 1 holds no 5 and no 6):

* 5-5 on B, or 6-5 on A, wins next turn (seat 1 can never answer): the best;
* 6-5 on B puts the seventh 6 down with 6 at both ends: the game is locked
  at once with seat 0 holding the 5-5, heavier than any tile seat 1 may hold,
  so seat 1 wins it: the planted blunder.

Seat 0's earlier plays (turns with one legal action) are forced.
"""

from __future__ import annotations

from games.engine import PASS, PRESETS, Play, Round, Tile

RULES = PRESETS["sem_monte"]
HANDS = [
    ["6-6", "1-6", "3-1", "6-3", "4-5", "6-5", "5-5"],
    ["6-2", "2-0", "0-6", "6-4", "0-1"],
]
SCRIPT = [
    (0, "6-6", None), (1, "6-2", "B"), (0, "1-6", "A"), (1, "2-0", "B"), (0, "3-1", "A"),
    (1, "0-6", "B"), (0, "6-3", "A"), (1, "6-4", "B"), (0, "4-5", "B"),
]  # fmt: skip
BLUNDER = Play(Tile.parse("6-5"), "B")
BEST = Play(Tile.parse("5-5"), "B")
DECISION_SEQ = len(SCRIPT) + 2  # after seat 1's forced pass


def position(hands: list[list[str]] = HANDS) -> tuple[Round, list[tuple[int, dict, str]]]:
    """The round at seat 0's decision and the moves that led there (all "person")."""
    rnd = Round.from_hands(RULES, hands=hands, opener=0)
    moves = []
    for seat, tile, end in SCRIPT:
        rnd.apply(seat, Play(Tile.parse(tile), end))
        moves.append((seat, rnd.history[-1][1].to_dict(), "person"))
    rnd.apply(1, PASS)
    moves.append((1, PASS.to_dict(), "person"))
    return rnd, moves
