"""The game of points' count, read from the ends and the tiles at them
(`Round.fives_count`'s quick path, the bots' inner loop), against the count
walked over the whole history: on two ends and on a spinner's four."""

import random

import pytest

from games.engine import PRESETS, Round


@pytest.mark.parametrize("spinner", [False, True])
def test_the_count_from_the_ends_is_the_count_from_the_history(spinner):
    checked = on_sides = 0
    for seed in range(300):
        rules = (
            PRESETS["pontos"]
            if seed % 3
            else PRESETS["pontos"].replace(seats=2, hand_size=9, partnership=False)
        ).replace(spinner=spinner)
        rnd = Round.deal(rules, random.Random(seed))
        rng = random.Random(seed)
        while not rnd.is_over:
            legal = rnd.legal_actions()
            rnd.apply(rnd.turn, legal[rng.randrange(len(legal))])
            walked = rnd._play_counts()
            assert rnd.fives_count() == (walked[-1] if walked else 0)
            checked += 1
            on_sides += "C" in rnd.public_view()["ends"]
    assert checked > 5000
    assert (on_sides > 1000) == spinner
