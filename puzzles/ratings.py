"""The puzzle rating people see (pure).

A player and a puzzle are rated as a duel by the project's rating library
(`records.rating.rate`, openskill's Plackett-Luce model, its default prior):
the solver wins a correct try, the puzzle a wrong one. People see ``mu x
SCALE`` (1500 to start), not the conservative ``mu - 3 sigma`` of the match
rating: a try always moves the shown number the way it went (a wrong answer
lowers it), as Lichess shows a puzzle rating.

>>> shown_rating(25.0)
1500
"""

from __future__ import annotations

from records.rating import SCALE


def shown_rating(mu: float) -> int:
    return round(mu * SCALE)
