"""Reading a view: voids from passes and draws, what an opening proves."""

import random

from bots.knowledge import read_view, tile_mask
from bots.sampling import sample_deal
from games.engine import DRAW, PASS, PRESETS, Play, Round, Tile

T = Tile.parse


def bits(*numbers):
    return sum(1 << n for n in numbers)


def parceria_with_a_pass():
    """Seat 1 cannot follow 6-6: it passes, so it holds no 6."""
    rnd = Round.from_hands(
        PRESETS["parceria"],
        hands=[
            ["6-6", "0-0", "0-2", "0-4", "0-5", "2-2", "4-4"],
            ["1-1", "1-2", "1-3", "1-4", "1-5", "2-3", "0-1"],
            ["1-6", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5"],
            ["3-6", "4-5", "4-6", "5-5", "5-6", "0-3", "0-6"],
        ],
    )
    rnd.apply(0, Play(T("6-6")))
    rnd.apply(1, PASS)
    return rnd


def test_a_pass_means_no_tile_of_either_end():
    rnd = parceria_with_a_pass()
    know = read_view(rnd.view(2))
    assert know.voids()[1] == bits(6)
    assert know.voids()[3] == 0
    assert know.partner == 0
    assert len(know.unseen()) == 28 - 7 - 1


def test_sampled_deals_respect_counts_and_voids():
    rnd = parceria_with_a_pass()
    rnd.apply(2, Play(T("1-6"), "A"))  # ends 1 and 6
    rnd.apply(3, Play(T("3-6"), "B"))  # ends 1 and 3
    rnd.apply(0, PASS)  # seat 0 holds no 1 and no 3
    know = read_view(rnd.view(1))
    rng = random.Random(1)
    for _ in range(50):
        deal = sample_deal(know, rng)
        assert [len(h) for h in deal.hands] == know.counts
        assert deal.hands[1] == know.hand
        for tile in deal.hands[0]:
            assert not tile_mask(tile) & bits(1, 3)
        assert not any(t.has(6) for t in deal.hands[1])
        dealt = [t for h in deal.hands for t in h]
        assert len(set(dealt)) == len(dealt)
        assert not set(dealt) & {link.tile for link in rnd.chain}


def test_draws_keep_only_what_they_prove():
    """Seat 1 draws twice against 6/6 and plays the second tile drawn: the first one drawn
    holds no 6, and its other tiles (dealt) hold no 6."""
    rnd = Round.from_hands(
        PRESETS["duelo"],
        hands=[["6-6", "0-0"], ["1-2", "3-4"]],
        boneyard=["1-5", "5-6", "2-2"],
    )
    rnd.apply(0, Play(T("6-6")))
    rnd.apply(1, DRAW)
    rnd.apply(1, DRAW)
    rnd.apply(1, Play(T("5-6"), "A"))
    know = read_view(rnd.view(0))
    assert know.counts[1] == 3
    assert know.groups[1] == [[2, bits(6)], [1, bits(6)]]
    assert know.voids()[1] == bits(6)


def test_a_later_draw_brings_tiles_that_may_show_old_voids():
    """Seat 1 lacked 6 at the start, but the tile it drew later against 1/0 may be a 6."""
    rnd = Round.from_hands(
        PRESETS["duelo"],
        hands=[["6-6", "0-6", "0-0", "5-5"], ["2-3", "3-4"]],
        boneyard=["1-6", "2-6", "0-5", "4-4"],
        opener=0,
    )
    rnd.apply(0, Play(T("6-6")))
    rnd.apply(1, DRAW)  # 1-6 fits and must be played
    rnd.apply(1, Play(T("1-6"), "A"))  # ends 1 and 6
    rnd.apply(0, Play(T("0-6"), "B"))  # ends 1 and 0
    rnd.apply(1, DRAW)  # 2-6: no fit
    rnd.apply(1, DRAW)  # 0-5 fits
    rnd.apply(1, Play(T("0-5"), "B"))
    know = read_view(rnd.view(0))
    assert know.groups[1] == [[2, bits(0, 1, 6)], [1, bits(0, 1)]]
    assert know.voids()[1] == bits(0, 1)


def test_a_mandatory_highest_double_proves_no_hand_holds_a_higher_one():
    rnd = Round.from_hands(
        PRESETS["duelo"], hands=[["4-4", "1-2"], ["0-1", "3-5"]], boneyard=["5-5", "6-6"]
    )
    rnd.apply(0, Play(T("4-4")))
    know = read_view(rnd.view(1))
    assert know.not_in_hands == {T("5-5"), T("6-6")}
    rng = random.Random(2)
    for _ in range(20):
        deal = sample_deal(know, rng)
        assert not {T("5-5"), T("6-6")} & set(deal.hands[0])
