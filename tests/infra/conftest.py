"""The infrastructure tests use the services tests' fixtures (tests/site)."""

from tests.site.conftest import (  # noqa: F401 - fixtures, found by name
    clock,
    make_user,
    rounds_replay_to_snapshot,
    seeded_world,
)
