"""The exact end of a round on one guessed deal: alpha-beta over every play.

Near the end of a round without a boneyard few tiles are left and the game
tree of a deal is small: `solve` finds the value of a position for one side
when every seat plays its best with every hand in view. The hard player
(`bots.search`) averages these values over deals drawn by belief
(`bots.belief`), which is what weighs the solve by what the seats revealed.

The tree is searched through the engine itself (``Round.clone`` and
``Round.apply``), so every preset's scoring is the engine's. A node budget
bounds the work: `OutOfNodes` tells the caller to fall back on playouts.

>>> from games.engine import PRESETS, Play, Round, Tile
>>> rnd = Round.from_hands(PRESETS["sem_monte"], hands=[["1-2", "5-6"], ["2-5", "1-1"]], opener=0)
>>> rnd.apply(0, Play(Tile(1, 2), None))
>>> best_action(rnd, side=1, utility=lambda result: result.points[1] - result.points[0])
Play(tile=Tile(1, 1), end='A')

(2-5 is heavier, but it opens a 5 for 5-6: seat 0 would domino first.)
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine import Action, Play, Round, RoundResult

Utility = Callable[[RoundResult], float]


class OutOfNodes(Exception):
    """The node budget ran out before the solve finished."""


class Budget:
    """Nodes left to visit (shared by the solves of one decision)."""

    __slots__ = ("left",)

    def __init__(self, nodes: int) -> None:
        self.left = nodes


def solve(
    rnd: Round,
    side: int,
    utility: Utility,
    budget: Budget,
    alpha: float = -1e18,
    beta: float = 1e18,
) -> float:
    """The value of ``rnd`` for ``side`` with best play by all (raises `OutOfNodes`)."""
    if rnd.is_over:
        assert rnd.result is not None
        return utility(rnd.result)
    turn = rnd.turn
    if turn is None:  # a pick-off is blind: no exact value
        raise OutOfNodes("a pick-off")
    budget.left -= 1
    if budget.left < 0:
        raise OutOfNodes("node budget spent")
    maximise = rnd.rules.side_of(turn) == side
    best = -1e18 if maximise else 1e18
    for action in ordered(rnd.legal_actions(), rnd.ends, rnd.rules.scoring == "fives"):
        child = rnd.clone()
        child.apply(turn, action)
        value = solve(child, side, utility, budget, alpha, beta)
        if maximise:
            if value > best:
                best = value
            alpha = max(alpha, value)
        else:
            if value < best:
                best = value
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


def ordered(legal: list[Action], ends: tuple[int, int] | None, fives: bool = False) -> list[Action]:
    """Heaviest tiles first (good plays first cut the search), mirror images once
    (under ``fives`` scoring both ends always: a double at one counts twice)."""
    if type(legal[0]) is not Play:
        return legal
    seen = set()
    plays = []
    mirrored = ends is not None and ends[0] == ends[1] and not fives
    for action in legal:
        assert type(action) is Play
        key = action.tile if mirrored else (action.tile, action.end)
        if key not in seen:
            seen.add(key)
            plays.append(action)
    plays.sort(key=lambda p: -p.tile.pips)
    return list(plays)


def best_action(rnd: Round, side: int, utility: Utility, nodes: int = 100_000) -> Action:
    """The legal action of the seat to move with the best exact value for ``side``."""
    turn = rnd.turn
    assert turn is not None
    budget = Budget(nodes)
    best: tuple[float, Action] | None = None
    for action in ordered(rnd.legal_actions(), rnd.ends, rnd.rules.scoring == "fives"):
        child = rnd.clone()
        child.apply(turn, action)
        value = solve(child, side, utility, budget)
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None
    return best[1]
