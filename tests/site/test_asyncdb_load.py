"""`domino_site.asyncdb.db_load`: the seconds of database calls a second this
process made lately, an exponentially decaying mean over about a second."""

from __future__ import annotations

import time

import pytest

from domino_site import asyncdb

# (each call closes obsolete connections in its thread, as every database call does)
pytestmark = pytest.mark.django_db


@pytest.fixture
def load(monkeypatch):
    fresh = asyncdb._Load()
    monkeypatch.setattr(asyncdb, "_load", fresh)
    return fresh


async def test_a_call_adds_its_length_and_the_load_decays_after(load):
    def busy():
        end = time.perf_counter() + 0.1
        while time.perf_counter() < end:
            pass

    assert asyncdb.db_load() == pytest.approx(0.0, abs=1e-6)
    await asyncdb.db_async(busy)()
    level = asyncdb.db_load()
    assert 0.08 < level <= 0.2, "about a tenth of a second in the last second"
    load.at -= asyncdb.LOAD_WINDOW  # a window later
    assert asyncdb.db_load() == pytest.approx(level / 2.718281828, rel=0.05)


async def test_a_failing_call_counts_too(load):
    def fails():
        time.sleep(0.05)
        raise ValueError("no")

    with pytest.raises(ValueError):
        await asyncdb.db_async(fails)()
    assert asyncdb.db_load() > 0.03
