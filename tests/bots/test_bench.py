"""bench/bots.py: the `dominoes` package's player, mirrored into our rounds, plays legally."""

import random

import pytest

pytest.importorskip("dominoes")

from bench import bots as bench  # noqa: E402
from bots.knowledge import read_view  # noqa: E402
from games.engine import PRESETS, Round, action_from_dict  # noqa: E402


def test_the_package_player_plays_a_whole_match_against_medium():
    package = bench.package_player(start_move=12, sample_size=2)
    medium = bench.bot("medium", None)
    winner = bench.play_match((package, medium), "test", "test-bots")
    assert winner in (0, 1, None)
    assert package.rounds >= 1 and package.times_ms


def test_the_mirror_offers_the_package_exactly_our_legal_plays():
    rng = random.Random(8)
    game_class = bench._parceria_game_class()
    rnd = Round.deal(PRESETS["parceria"], rng)
    checked = 0
    while not rnd.is_over:
        view = rnd.view(rnd.turn)
        legal = [action_from_dict(d) for d in view["legal"]]
        if view["ends"] and legal[0].type == "play":
            game = bench._mirror(view, game_class)
            ours = {(a.tile, a.end) for a in legal}
            for domino, left in game.valid_moves:
                action = bench._our_action(view, bench.Tile(domino.first, domino.second), left)
                assert (action.tile, action.end) in ours
            assert {a.tile for a in legal} == {
                bench.Tile(d.first, d.second) for d, _ in game.valid_moves
            }
            voids = read_view(view).voids()
            for seat, missing in enumerate(game.missing_values()):
                if seat != view["seat"]:  # the package replays the passes as we read them
                    assert missing == {n for n in range(7) if voids[seat] >> n & 1}
            checked += 1
        rnd.apply(rnd.turn, legal[0])
    assert checked > 5


def test_pairs_shared_among_processes_give_the_figures_of_one_process():
    setup = bench.Setup("medium", "easy", 150, 12, 2, cpu_clock=False)
    lines = [bench.duel(setup, pairs=3, seed=5, log=lambda _: None, jobs=jobs) for jobs in (1, 2)]
    one, two = (line.split("; ms/decision")[0] for line in lines)
    assert one == two
    assert "6 matches" in one
