"""The chance of winning a two-side points match from given scores.

A round's worth to the hard player is not its points but what they do to the
match: 10 points at 0-0 to 50 are a small step, the same 10 points at 42-45
win it. ``MatchEquity`` prices every score pair once, by dynamic programming
over a model of one round: either side wins it with even chance and scores
``points`` with the measured frequency ``wins[points]`` (a round that scores
nothing just repeats the state).

>>> equity = MatchEquity(50, {10: 0.5, 30: 0.5})
>>> equity.win(0, 0)
0.5
>>> equity.win(40, 0) > equity.win(20, 0) > 0.5
True
>>> equity.win(50, 10), equity.win(10, 50)
(1.0, 0.0)

In the game of points both sides score in a round (the plays' points), so its
model is of pairs instead (``rounds``: (one side's points, the other's) to
their frequency, each pair also taken the other way round), counted in steps
of ``unit`` points (5 there: every score is a multiple of 5):

>>> fives = MatchEquity(150, rounds={(40, 15): 1.0}, unit=5)
>>> round(fives.win(0, 0), 3), fives.win(120, 100) > fives.win(100, 120)
(0.5, True)
"""

from __future__ import annotations

from collections.abc import Mapping


class MatchEquity:
    """``win(ours, theirs)``: the chance that the side at ``ours`` wins the match.

    ``target`` is the points goal (the first side to reach it wins); ``wins``
    maps the points a round's winner scores to their frequency (any scale; a
    zero entry means a round that changes nothing and is ignored).
    """

    __slots__ = ("target", "_table", "_unit")

    def __init__(
        self,
        target: int,
        wins: Mapping[int, float] | None = None,
        *,
        rounds: Mapping[tuple[int, int], float] | None = None,
        unit: int = 1,
    ) -> None:
        if target < 1:
            raise ValueError(f"the target must be a positive number of points, got {target}")
        self._unit = unit
        if rounds is not None:
            self.target = target
            self._table = _pair_table(-(-target // unit), rounds, unit)
            return
        gains = {p: weight for p, weight in (wins or {}).items() if p > 0 and weight > 0}
        total = sum(gains.values())
        if not gains:
            raise ValueError("the round model needs at least one round that scores points")
        steps = [(points, weight / total / 2.0) for points, weight in sorted(gains.items())]
        self.target = target
        # _table[a][b]: chance of winning from a (ours) against b (theirs), both below target.
        table = [[0.0] * target for _ in range(target)]
        for a in range(target - 1, -1, -1):
            row = table[a]
            for b in range(target - 1, -1, -1):
                value = 0.0
                for points, half in steps:
                    value += half * (1.0 if a + points >= target else table[a + points][b])
                    if b + points < target:
                        value += half * row[b + points]
                row[b] = value
        self._table = table

    def win(self, ours: int, theirs: int) -> float:
        """The chance of winning from these scores (1 or 0 once one side reached the target)."""
        if ours >= self.target or theirs >= self.target:
            if ours == theirs:
                return 0.5
            return 1.0 if ours > theirs else 0.0
        unit = self._unit
        return self._table[max(ours, 0) // unit][max(theirs, 0) // unit]


def _pair_table(
    target: int, rounds: Mapping[tuple[int, int], float], unit: int
) -> list[list[float]]:
    """The chances of winning below ``target`` (in units) when a round adds
    ``(ours, theirs)`` with the frequencies of ``rounds``, either way round with
    even chance; a round that reaches the target for both goes to the higher."""
    steps: dict[tuple[int, int], float] = {}
    for (x, y), weight in rounds.items():
        if weight > 0 and (x > 0 or y > 0):
            for pair in ((x // unit, y // unit), (y // unit, x // unit)):
                steps[pair] = steps.get(pair, 0.0) + weight
    total = sum(steps.values())
    if not total:
        raise ValueError("the round model needs at least one round that scores points")
    moves = [(x, y, weight / total) for (x, y), weight in sorted(steps.items())]
    table = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        row = table[a]
        for b in range(target - 1, -1, -1):
            value = 0.0
            for x, y, chance in moves:
                ours, theirs = a + x, b + y
                if ours >= target or theirs >= target:
                    value += chance * (0.5 if ours == theirs else float(ours > theirs))
                else:
                    value += chance * table[ours][theirs]
            row[b] = value
    return table
