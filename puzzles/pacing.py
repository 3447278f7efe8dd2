"""The deeper check within the analysis worker's CPU budget (docs/decisions.md,
"Background work below play"): `puzzles.cutting.deep_check` followed by one
step of `domino_site.below_play.Budget` at the background share (nobody waits
for a puzzle). No Django: the embedded server's analysis child runs it."""

from __future__ import annotations

from typing import Any

from domino_site.below_play import BACKGROUND_SHARE, Budget
from puzzles.cutting import Verdict, deep_check


def paced_deep_check(*args: Any, share: float = BACKGROUND_SHARE, **kwargs: Any) -> Verdict:
    """`deep_check` (its arguments), then a sleep while the machine is busy so
    that its CPU stays under ``share`` of a core."""
    budget = Budget(share=share)
    verdict = deep_check(*args, **kwargs)
    budget.step()
    return verdict
