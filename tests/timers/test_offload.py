"""The embedded server scores a round in a child process (timers/offload.py):
the same decisions as in the server's own process, computed elsewhere."""

from __future__ import annotations

import multiprocessing
import os

from analysis import scoring
from tests.analysis.planted import BLUNDER, HANDS, RULES, position
from timers import offload


def _planted_round():
    rnd, moves = position(HANDS)
    rnd.apply(0, BLUNDER)
    moves.append((0, rnd.history[-1][1].to_dict(), "person"))
    return rnd.initial, moves


def test_the_child_scores_as_this_process_does():
    deal, moves = _planted_round()
    here, _ = scoring.timed_score_round(RULES, deal, moves, seed=7, work=2000)
    there, cpu_ms = offload.score_in_child(RULES, deal, moves, seed=7, work=2000)
    assert there == here
    assert cpu_ms >= 0


def test_the_scoring_runs_in_a_child_process_below_play():
    deal, moves = _planted_round()
    offload.score_in_child(RULES, deal, moves, seed=7, work=200)
    children = [c.pid for c in multiprocessing.active_children()]
    assert children and all(os.sched_getscheduler(pid) == os.SCHED_IDLE for pid in children)
    assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the server's own process is untouched
