"""The embedded server's CPU-heavy pure work, in a child process.

The embedded server is one process: a round's analysis (a second or two of
pure-Python CPU, docs/site.md "Round analysis"), or a puzzle's deeper check
(`puzzles.cutting`, as long), run on one of its threads
would hold the interpreter lock and hold up every socket's event loop. The
scoring imports no Django (`analysis.scoring`, its own import contract), so it
runs in one child process below play (`domino_site.below_play`); only the reading and the
writing stay here. In production the Celery worker does the whole job.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from analysis import pacing, scoring
from analysis.queue import waiting_jobs
from analysis.services import analysis_drain
from domino_site.below_play import ChildPool
from puzzles import cutting
from puzzles import pacing as puzzle_pacing
from puzzles.services import puzzles_drain

CHILD = ChildPool()


def score_in_child(*args: Any, **kwargs: Any) -> tuple[list[scoring.Decision], int]:
    """`analysis.pacing.paced_score_round` in the child process."""
    return CHILD.run(
        pacing.paced_score_round, *args, **kwargs
    )  # a broken child: the sweeper retries


def drain_analyses() -> int:
    """The embedded ticker's job: the analysis queue drained (the Celery task's
    twin), each round scored in the child process."""
    work = getattr(settings, "DOMINO_ANALYSIS_WORK", None)
    return analysis_drain(work=work, scorer=score_in_child)


def check_in_child(*args: Any, **kwargs: Any) -> cutting.Verdict:
    """`puzzles.pacing.paced_deep_check` (a puzzle's deeper check) in the child process."""
    return CHILD.run(puzzle_pacing.paced_deep_check, *args, **kwargs)


def drain_puzzles() -> int:
    """The embedded ticker's job once no analysis waits: the puzzles cut and
    checked (`puzzles.services.puzzles_drain`), each check in the child
    process; it stops as soon as an analysis waits."""
    return puzzles_drain(checker=check_in_child, more_urgent=waiting_jobs)
