"""Fixtures and helpers for the services/selectors tests.

* Deals are known: the world (`games.world`) deals from seeded generators.
* Every round left in the database at the end of a test must rebuild from its
  deal and its Moves into exactly its stored snapshot (docs/architecture.md: the
  snapshot is a cache of the Move log).
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Round
from games.world import use_world
from tests.worlds import TestWorld

T0 = datetime(2026, 11, 29, 21, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def seeded_world():
    world = TestWorld(seed=1)
    previous = use_world(world)
    yield world
    use_world(previous)


@pytest.fixture(autouse=True)
def rounds_replay_to_snapshot(request):
    """After each database test: every Round equals Round.replay(deal, moves)."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None:
        yield
        return
    request.getfixturevalue("_django_db_helper")  # so this check runs before the flush
    yield
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
