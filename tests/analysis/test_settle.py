"""A decision's analysis stops once its answer is clear (analysis.scoring,
`Evidence`; docs/decisions.md, "The analysis queue and its cost"): the label
of the chosen action cannot change and the best is known, and a candidate
that cannot be the best is no longer played out."""

from __future__ import annotations

import random

from analysis import scoring
from analysis.scoring import Evidence
from tests.analysis.planted import BLUNDER, DECISION_SEQ, HANDS, position


def _fill(evidence: Evidence, draws, n=12, seed=1):
    rng = random.Random(seed)
    for _ in range(n):
        evidence.add({i: draw(rng) for i, draw in draws.items()})


def test_a_clear_blunder_settles_with_its_label():
    evidence = Evidence(3, chosen=0)
    _fill(
        evidence,
        {0: lambda r: r.gauss(-10, 2), 1: lambda r: r.gauss(8, 2), 2: lambda r: r.gauss(0, 2)},
    )
    low, high = evidence.loss_bounds()
    assert scoring.label_for(low) == scoring.label_for(high) == "capivarada"
    assert evidence.settled()


def test_a_loss_that_straddles_a_threshold_is_not_settled():
    evidence = Evidence(2, chosen=0)
    _fill(evidence, {0: lambda r: 0.0, 1: lambda r: r.gauss(3.0, 6)})
    low, high = evidence.loss_bounds()
    assert scoring.label_for(low) != scoring.label_for(high)
    assert not evidence.settled()


def test_a_candidate_that_cannot_be_the_best_is_played_out_no_more():
    evidence = Evidence(3, chosen=1)
    _fill(
        evidence,
        {0: lambda r: r.gauss(5, 1), 1: lambda r: r.gauss(4, 1), 2: lambda r: r.gauss(-20, 1)},
    )
    assert evidence.in_play() == [0, 1]  # the chosen one always stays: losses are measured from it


def test_the_settled_analysis_of_the_planted_blunder_is_the_full_ones():
    rnd, _moves = position(HANDS)
    settled = scoring.score_decision(rnd.clone(), 0, BLUNDER, DECISION_SEQ, seed=3, work=20000)
    full = scoring.score_decision(
        rnd.clone(), 0, BLUNDER, DECISION_SEQ, seed=3, work=20000, settle=False
    )
    assert settled is not None and full is not None
    assert settled.label == full.label and settled.best == full.best
    assert [o.action for o in settled.options] == [o.action for o in full.options]
