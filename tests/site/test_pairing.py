"""The quick match's pairing rule (quick/pairing.py, docs/site.md "Quick
match"): close ratings first, a window that widens with the wait, bots only
after the wait and never for "people only", balanced partnerships."""

from __future__ import annotations

import doctest
from datetime import UTC, datetime, timedelta
from itertools import permutations

from quick import pairing
from quick.pairing import Waiting, plan
from records import services as records

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def _keys(tables):
    return [[w.key if w else None for w in table] for table in tables]


def test_the_docstring_examples():
    assert doctest.testmod(pairing).failed == 0
    assert doctest.testmod(records).failed == 0


def test_far_apart_pair_once_the_window_has_widened():
    ana, caio = Waiting("ana", 0, T0), Waiting("caio", 500, T0)
    assert plan([ana, caio], 2, T0 + timedelta(seconds=5), bots_after=60) == []
    gap = (500 - pairing.WINDOW_BASE) / pairing.WINDOW_PER_SECOND
    later = T0 + timedelta(seconds=gap)
    assert _keys(plan([ana, caio], 2, later, bots_after=60)) == [["ana", "caio"]]


def test_the_closest_is_chosen_and_the_oldest_served_first():
    old = Waiting("old", 1000, T0)
    near = Waiting("near", 1020, T0 + timedelta(seconds=3))
    nearish = Waiting("nearish", 1060, T0 + timedelta(seconds=1))
    tables = plan([near, nearish, old], 2, T0 + timedelta(seconds=3), bots_after=60)
    assert _keys(tables)[0] == ["old", "near"]


def test_bots_only_after_the_wait_and_never_for_people_only():
    ana = Waiting("ana", 0, T0)
    shy = Waiting("shy", 0, T0, people_only=True)
    assert plan([ana], 4, T0 + timedelta(seconds=19), bots_after=20) == []
    assert _keys(plan([ana], 4, T0 + timedelta(seconds=20), bots_after=20)) == [
        ["ana", None, None, None]
    ]
    assert plan([shy], 4, T0 + timedelta(hours=1), bots_after=20) == []
    # a person who minds bots is not put at a table with them
    tables = plan([ana, shy], 4, T0 + timedelta(seconds=30), bots_after=20)
    assert _keys(tables) == [["ana", None, None, None]]


def test_the_partnerships_are_the_most_balanced_of_every_seating():
    ratings = [1500, 900, 1200, 1000]
    group = [Waiting(r, r, T0) for r in ratings]
    seats = [w.rating for w in pairing.arrange(group, 4)]

    def gap(order):
        return abs(order[0] + order[2] - order[1] - order[3])

    assert gap(seats) == min(gap(p) for p in permutations(ratings))


def test_a_bot_counts_as_its_level_in_a_partnership():
    strong, weak = Waiting("strong", 800, T0), Waiting("weak", 0, T0)
    seats = pairing.arrange([strong, weak], 4)
    assert seats[0] is not None and seats[0].key == "strong"
    # medium bots (400, the people's mean) against strong + weak (800): even sides
    assert pairing.bot_level([strong, weak]) == "medium"
    assert seats[2] is not None and seats[2].key == "weak"
    assert seats[1] is None and seats[3] is None
