"""Weighing deals by the plays: a skipped heavy tile makes a deal less likely."""

import random

from bots import belief
from bots.belief import PlayModel, sample_weighted
from bots.knowledge import read_view
from bots.sampling import Sampler, sample_deal
from games.engine import PRESETS, Play, Round, Tile

T = Tile.parse

HANDS = [
    ["6-6", "0-0", "0-2", "0-4", "0-5", "2-2", "4-4"],
    ["1-6", "5-6", "1-2", "1-3", "1-4", "2-3", "0-1"],
    ["1-1", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"],
    ["3-6", "4-5", "4-6", "5-5", "1-5", "0-3", "0-6"],
]


def after_1_6():
    """Seat 1 answers 6-6 with 1-6 although it holds 5-6: a light play."""
    rnd = Round.from_hands(PRESETS["parceria"], hands=HANDS)
    rnd.apply(0, Play(T("6-6")))
    rnd.apply(1, Play(T("1-6"), "A"))
    return rnd


def test_a_deal_where_the_seat_skipped_a_heavier_fitting_tile_weighs_less():
    model = PlayModel(read_view(after_1_6().view(2)))
    skipped = [[], [T("5-6"), T("0-1")], [], []]
    nothing_better = [[], [T("0-2"), T("0-1")], [], []]
    non_fitting_heavy = [[], [T("5-5"), T("0-1")], [], []]  # 5-5 could not follow a 6
    assert model.weight(skipped) < model.weight(nothing_better)
    assert model.weight(non_fitting_heavy) == model.weight(nothing_better)


def test_the_opening_and_the_viewers_own_plays_are_not_weighed():
    rnd = Round.from_hands(PRESETS["parceria"], hands=HANDS)
    rnd.apply(0, Play(T("6-6")))
    assert not PlayModel(read_view(rnd.view(1))).informative  # only the opening so far
    assert not PlayModel(read_view(after_1_6().view(1))).informative  # its own play


def test_plays_before_a_draw_are_not_weighed():
    know = read_view(after_1_6().view(2))
    history = [
        {"seat": 1, "type": "play", "tile": "1-6", "end": "A", "ends_before": {"A": 6, "B": 6}},
        {"seat": 1, "type": "draw", "ends_before": {"A": 1, "B": 6}},
    ]
    assert not PlayModel(know, history).informative


def test_weighted_deals_stay_consistent_and_lean_to_the_likely_ones(monkeypatch):
    know = read_view(after_1_6().view(2))
    model = PlayModel(know)
    monkeypatch.setattr(belief, "PROPOSALS", 8)
    rng = random.Random(3)
    weighted = plain = 0
    for _ in range(400):
        deal = sample_weighted(Sampler(know), model, rng)
        for seat in (0, 1, 3):
            assert len(deal.hands[seat]) == know.counts[seat]
        assert sorted(deal.hands[2]) == sorted(know.hand)
        weighted += T("5-6") in deal.hands[1]
        plain += T("5-6") in sample_deal(know, rng).hands[1]
    # Unweighted, 5-6 lies with seat 1 a third of the time; seat 1 skipping it is unlikely.
    assert weighted < 0.6 * plain
