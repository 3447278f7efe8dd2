"""Tiles: notation, normalisation and the 28-tile set."""

import copy
import pickle

import pytest

from games.engine import ALL_TILES, Tile


def test_tiles_normalise_and_print_smaller_half_first():
    assert Tile(5, 2) == Tile(2, 5)
    assert Tile.parse("5-2") == Tile(2, 5)
    assert str(Tile(5, 2)) == "2-5"
    assert (Tile(5, 2).a, Tile(5, 2).b) == (2, 5)


def test_tile_values():
    assert Tile(2, 5).pips == 7
    assert Tile(6, 6).pips == 12 and Tile(6, 6).is_double
    assert Tile(0, 0).pips == 0
    assert Tile(2, 5).has(5) and not Tile(2, 5).has(3)
    assert Tile(2, 5).other(5) == 2 and Tile(4, 4).other(4) == 4
    with pytest.raises(ValueError):
        Tile(2, 5).other(3)


def test_the_set_has_28_sorted_distinct_tiles():
    assert len(ALL_TILES) == 28 == len(set(ALL_TILES))
    assert list(ALL_TILES) == sorted(ALL_TILES)
    assert all(sum(t.has(n) for t in ALL_TILES) == 7 for n in range(7))


@pytest.mark.parametrize("bad", ["7-1", "1", "a-b", "1-2-3", "", "-1-2"])
def test_bad_notation_is_refused(bad):
    with pytest.raises(ValueError):
        Tile.parse(bad)


@pytest.mark.parametrize(("a", "b"), [(7, 0), (-1, 2), (1.0, 2), ("1", 2)])
def test_bad_halves_are_refused(a, b):
    with pytest.raises(ValueError):
        Tile(a, b)


def test_tiles_are_immutable_hashable_and_survive_copies():
    tile = Tile(3, 4)
    with pytest.raises(AttributeError):
        tile.a = 1
    assert {tile: 1}[Tile(4, 3)] == 1
    assert pickle.loads(pickle.dumps(tile)) == tile
    assert copy.deepcopy(tile) == tile


def test_tiles_print_and_format_in_notation_and_are_always_true():
    assert f"{Tile(0, 0)}" == "0-0" and f"{Tile(6, 2):>5}" == "  2-6"
    assert bool(Tile(0, 0)) is True
    assert repr(Tile(1, 0)) == "Tile(0, 1)"
    assert sorted([Tile(3, 4), Tile(0, 6), Tile(1, 1)]) == [Tile(0, 6), Tile(1, 1), Tile(3, 4)]
