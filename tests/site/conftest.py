"""Fixtures and helpers for the services/selectors tests.

* Deals are known: `games.services.rng_factory` gives seeded generators.
* Every round left in the database at the end of a test must rebuild from its
  deal and its Moves into exactly its stored snapshot (architecture.md: the
  snapshot is a cache of the Move log).
"""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

import pytest

T0 = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def seeded_rng(monkeypatch):
    from games import services

    seeds = itertools.count(1)
    monkeypatch.setattr(services, "rng_factory", lambda: random.Random(next(seeds)))


@pytest.fixture(autouse=True)
def rounds_replay_to_snapshot(request):
    """After each database test: every Round equals Round.replay(deal, moves)."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None:
        yield
        return
    request.getfixturevalue("_django_db_helper")  # so this check runs before the flush
    yield
    from games.models import Round

    for rnd in Round.objects.all():
        assert rnd.replay_matches_snapshot(), f"round {rnd.pk} differs from its Moves"


class Clock:
    """An injectable `now` that tests move by hand."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def make_user(django_user_model):
    counter = itertools.count(1)

    def make(name: str | None = None):
        return django_user_model.objects.create_user(
            username=name or f"player{next(counter)}", password="x"
        )

    return make
