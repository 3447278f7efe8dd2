"""The analysis' scoring within its CPU budget (docs/decisions.md, "Background
work below play"): `analysis.scoring` paced by `domino_site.below_play.Budget`,
a step after each decision. No Django here: the embedded server's child
process runs it as it is.

The share of a core the analysis may take while play keeps the machine busy
depends on who waits for it (`SHARES`, by `analysis.AnalysisJob` priority).
"""

from __future__ import annotations

from typing import Any

from analysis import scoring
from domino_site.below_play import ASKED_SHARE, BACKGROUND_SHARE, Budget

#: By job priority (asked, opened, rated, when idle): a core's share while busy.
SHARES = (ASKED_SHARE, ASKED_SHARE, 0.25, BACKGROUND_SHARE)


def share_of(priority: int | None) -> float:
    """The budget of a job of ``priority`` (None: a round analysed outside the
    queue, by a command or a test: no budget)."""
    return 1.0 if priority is None else SHARES[min(priority, len(SHARES) - 1)]


def paced_score_round(
    *args: Any, share: float = 1.0, **kwargs: Any
) -> tuple[list[scoring.Decision], int]:
    """`analysis.scoring.timed_score_round` (its arguments), paced to ``share``
    of a core while the machine is busy. The CPU time it reports is the
    scoring's own: the sleeps are not in it."""
    budget = Budget(share=share)
    return scoring.timed_score_round(*args, between=budget.step, **kwargs)
