"""The medium player's judgement on small positions."""

from bots.heuristics import (
    W_GOAT_DOUBLE,
    W_OWN_ALMOST,
    W_OWN_NUMBER,
    Table,
    easy_choice,
    medium_choice,
    medium_scores,
)
from games.engine import PASS, Play, Tile

T = Tile.parse


def table(seats=4, goat=False, voids=None):
    return Table(
        seats=seats,
        partnership=seats == 4,
        goat=goat,
        voids=voids or [0] * seats,
        shown=[[0] * 7 for _ in range(seats)],
        on_table=[0] * 7,
        table_pips=0,
        table_tiles=0,
        counts=[7] * seats,
    )


def bits(*numbers):
    return sum(1 << n for n in numbers)


def test_medium_makes_the_next_opponent_pass_rather_than_shed_the_heavier_tile():
    hand = [T("0-2"), T("5-6"), T("3-3")]
    legal = [Play(T("0-2"), "A"), Play(T("5-6"), "B")]
    plain = medium_choice(legal, hand, (2, 5), seat=0, table=table())
    assert plain == Play(T("5-6"), "B")
    knowing = medium_choice(legal, hand, (2, 5), seat=0, table=table(voids=[0, bits(0, 5), 0, 0]))
    assert knowing == Play(T("0-2"), "A")


def test_medium_keeps_an_end_only_its_own_hand_can_follow():
    hand = [T("2-3"), T("5-6"), T("3-4")]
    legal = [Play(T("2-3"), "A"), Play(T("5-6"), "B")]
    # 5-6 sheds more, while 2-3 leaves a 3 end: with five 3s on the table the
    # last one is this hand's 3-4, so nobody else can follow there.
    assert medium_choice(legal, hand, (2, 5), 0, table()) == Play(T("5-6"), "B")
    threes_out = table()
    threes_out.on_table[3] = 4  # (2-3 makes five, 3-4 is the sixth and last outside)
    scores = medium_scores(legal, hand, (2, 5), 0, threes_out)
    plain = medium_scores(legal, hand, (2, 5), 0, table())
    assert scores[0] - plain[0] == W_OWN_ALMOST
    threes_out.on_table[3] = 5
    scores = medium_scores(legal, hand, (2, 5), 0, threes_out)
    assert scores[0] - plain[0] == W_OWN_NUMBER
    assert medium_choice(legal, hand, (2, 5), 0, threes_out) == Play(T("2-3"), "A")


def test_medium_sheds_a_lone_double_under_goat_scoring():
    hand = [T("0-0"), T("0-4")]
    legal = [Play(T("0-0"), "A"), Play(T("0-4"), "A")]
    goat = medium_scores(legal, hand, (0, 3), 0, table(goat=True))
    plain = medium_scores(legal, hand, (0, 3), 0, table())
    assert goat[0] - plain[0] == W_GOAT_DOUBLE
    assert goat[1] == plain[1]
    assert medium_choice(legal, hand, (0, 3), 0, table(goat=True)) == legal[0]


def test_forced_actions_pass_through():
    assert medium_choice([PASS], [T("1-2")], (3, 4), 0, table()) == PASS
    assert easy_choice([PASS]) == PASS
    assert easy_choice([Play(T("1-2"), "A"), Play(T("3-4"), "B")]) == Play(T("3-4"), "B")


def test_the_last_tile_is_always_played():
    legal = [Play(T("1-1"), "A")]
    assert medium_scores(legal, [T("1-1")], (1, 3), 0, table()) == [1000.0]
