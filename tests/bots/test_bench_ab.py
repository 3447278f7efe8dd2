"""bench/hard_ab.py: settings of the hard player's knobs on the same duplicate pairs."""

import pytest

from bench import hard_ab
from bots import belief, search


def test_a_setting_names_constants_of_the_search_or_the_belief():
    assert hard_ab.knobs("MARGIN=1,belief.BETA=2") == {"MARGIN": 1.0, "belief.BETA": 2.0}
    assert hard_ab.knobs("-") == {}
    with pytest.raises(SystemExit):
        hard_ab.knobs("NO_SUCH_KNOB=1")


def test_each_setting_starts_from_the_defaults(monkeypatch):
    monkeypatch.setattr(search, "MARGIN", search.MARGIN)
    monkeypatch.setattr(belief, "BETA", belief.BETA)
    monkeypatch.setattr(belief, "_LIKING", belief._LIKING)
    defaults = {"MARGIN": search.MARGIN, "belief.BETA": belief.BETA}
    liking = dict(belief._LIKING)
    hard_ab.apply({"MARGIN": 1.0, "belief.BETA": 2.0}, defaults)
    assert search.MARGIN == 1.0 and belief.BETA == 2.0
    assert belief._LIKING != liking  # the liking follows the belief's constants
    hard_ab.apply({}, defaults)
    assert search.MARGIN == defaults["MARGIN"] and belief.BETA == defaults["belief.BETA"]
    assert belief._LIKING == pytest.approx(liking)


def test_every_setting_plays_the_same_pairs(capsys, monkeypatch):
    monkeypatch.setattr(search, "MARGIN", search.MARGIN)
    hard_ab.main(["--preset", "duelo", "--pairs", "2", "--budget", "2", "-", "MARGIN=1"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["pair 0", "pair 1"]
    assert "2 pairs; [-]" in lines[-1] and "[MARGIN=1]" in lines[-1] and "diff" in lines[-1]
