"""bench/medium.py: the medium player against a copy of itself with changed weights."""

import pytest

from bench import medium as bench
from games.engine import PRESETS


def test_an_unchanged_copy_scores_exactly_level():
    assert bench.duel(PRESETS["parceria"], bench.changed({}), 50, seed=1) == (0.0, 0.0)


def test_a_changed_weight_changes_the_play():
    gap, error = bench.duel(PRESETS["duelo"], bench.changed({"W_OWN_NUMBER": -40.0}), 50, 1)
    assert gap != 0.0 and error > 0.0


def test_a_name_that_is_not_a_weight_is_refused():
    with pytest.raises(SystemExit, match="no weight W_NOPE"):
        bench.changed({"W_NOPE": 1.0})
