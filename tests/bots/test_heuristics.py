"""The medium player's judgement on small positions."""

from bots.heuristics import W_GOAT_DOUBLE, Table, easy_choice, medium_choice, medium_scores
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


def test_medium_avoids_ends_its_partner_lacks():
    hand = [T("1-4"), T("1-5"), T("4-5")]
    legal = [Play(T("1-4"), "A"), Play(T("1-5"), "A")]
    # 1-5 sheds more, but leaves a 5 that the partner (seat 2) has shown it lacks.
    assert medium_choice(legal, hand, (1, 0), 0, table()) == Play(T("1-5"), "A")
    partner_lacks_5 = table(voids=[0, 0, bits(5), 0])
    assert medium_choice(legal, hand, (1, 0), 0, partner_lacks_5) == Play(T("1-4"), "A")


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
