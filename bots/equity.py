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
"""

from __future__ import annotations

from collections.abc import Mapping


class MatchEquity:
    """``win(ours, theirs)``: the chance that the side at ``ours`` wins the match.

    ``target`` is the points goal (the first side to reach it wins); ``wins``
    maps the points a round's winner scores to their frequency (any scale; a
    zero entry means a round that changes nothing and is ignored).
    """

    __slots__ = ("target", "_table")

    def __init__(self, target: int, wins: Mapping[int, float]) -> None:
        if target < 1:
            raise ValueError(f"the target must be a positive number of points, got {target}")
        gains = {points: weight for points, weight in wins.items() if points > 0 and weight > 0}
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
        return self._table[max(ours, 0)][max(theirs, 0)]
