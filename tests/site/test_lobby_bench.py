"""bench/lobby.py runs on a small public list, and its two ways of telling the
lobby see the same change stream."""

from __future__ import annotations

import argparse

import pytest

from bench import lobby as bench

pytestmark = pytest.mark.django_db


def test_the_lobby_bench_runs_and_tells_less_after(capsys):
    args = argparse.Namespace(
        tables=12, playing=3, sockets=6, seconds=3.0, move_every=1.0, churn=1.0,
        rated_every=4, seed=1,
    )  # fmt: skip
    figures = bench.run(args)
    assert 0 < figures["after_worst_bps"] < figures["before_bps"]
    assert figures["before_mps"] > 0 and figures["after_mps"] > 0
    assert "before" in capsys.readouterr().out
