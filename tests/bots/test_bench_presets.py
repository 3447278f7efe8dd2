"""bench/bots.py --preset: tournaments at the partida de 6 and the game of points."""

import pytest

from bench import bots as bench


@pytest.mark.parametrize("preset", ["partida", "pontos"])
def test_a_duel_plays_whole_matches_of_the_preset(preset):
    setup = bench.Setup("medium", "easy", 150, 12, 2, cpu_clock=False, preset=preset)
    assert setup.rules.scoring in ("how_won", "fives")
    line = bench.duel(setup, pairs=2, seed=5, log=lambda _: None)
    assert "4 matches" in line


def test_the_default_preset_is_parceria():
    assert bench.Setup("medium", "easy", 150, 12, 2, cpu_clock=False).rules.target == 50


def test_the_package_player_is_refused_away_from_parceria(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--preset", "partida", "--duels", "hard:dominoes", "--pairs", "1"])
    assert "mirrors parceria only" in capsys.readouterr().err
