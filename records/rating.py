"""The skill rating: openskill's Plackett-Luce model, team-aware (partners are a
team), with its default prior (mu 25, sigma 25/3). Pure: no Django.

People see one conservative number, ``(mu - 3 sigma) x SCALE`` (the skill the
player very probably has at least: 0 for a newcomer, growing as wins come and the
uncertainty shrinks), with its uncertainty ``sigma x SCALE`` beside it. SCALE only
puts the numbers on a familiar, chess-like range (mu 25 shows as 1500).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

SCALE = 60
MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The conservative number people see."""
        return shown(self.mu, self.sigma)

    @property
    def uncertainty(self) -> int:
        return round(self.sigma * SCALE)


def shown(mu: float, sigma: float) -> int:
    return round((mu - 3 * sigma) * SCALE)


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """New skills after one match: ``teams`` in side order, ``ranks`` one per team
    (0 = first; equal ranks tie)."""
    model_teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    rated = MODEL.rate(model_teams, ranks=list(ranks))
    return [[Skill(mu=r.mu, sigma=r.sigma) for r in team] for team in rated]
