"""The what-if's scoring on request, in a child process below play
(docs/decisions.md, "The what-if: computed below play, cached per position").

A position the stored analysis did not score (a bot's or an automatic move, a
round not analysed yet) is scored when a person asks for it: tens of
milliseconds of pure-Python CPU, which on a play server's thread would hold the
interpreter lock while the sockets wait. So it runs in one child process per
server, started on first use, that puts itself below play
(`domino_site.below_play.go_below_play`) and keeps the budget of a person's
analysis (`ASKED_SHARE` of a core while the machine is busy, `Budget`). No
Django here: the child imports only this, the pure what-if and the budget.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from analysis import whatif
from domino_site.below_play import ASKED_SHARE, Budget, ChildPool
from games.engine import RuleSet

CHILD = ChildPool()
_budget: Budget | None = None  # in the child: one budget across its requests


def paced_score(
    rules: dict[str, Any],
    deal: dict[str, Any],
    moves: list[tuple[int, dict[str, Any], str]],
    seq: int,
    seed: int,
    work: int | None,
) -> tuple[list[float], int, int]:
    """Every choice's value at move ``seq`` (`analysis.whatif.score_position`),
    the best's index and the CPU milliseconds it took, paced to a person's share."""
    global _budget
    if _budget is None:
        _budget = Budget(share=ASKED_SHARE)
    started = time.process_time()
    rnd, seat, played = whatif.position_before(RuleSet.from_dict(rules), deal, moves, seq)
    values, best = whatif.score_position(rnd, seat, played, seq, seed=seed, work=work)
    cpu_ms = int((time.process_time() - started) * 1000)
    _budget.step()
    return values, best, cpu_ms


def submit(*args: Any) -> Future[tuple[list[float], int, int]]:
    """`paced_score` (its arguments) in the child; a child that died is
    replaced (here, or at the next request after `forget`)."""
    pool = CHILD.get()
    try:
        return pool.submit(paced_score, *args)
    except BrokenProcessPool:
        forget(pool)
        return CHILD.get().submit(paced_score, *args)


def forget(pool: ProcessPoolExecutor | None = None) -> None:
    """Drop the child's pool (``pool``, or whichever is current) after it
    broke: the next request starts a new child."""
    CHILD.forget(pool)
