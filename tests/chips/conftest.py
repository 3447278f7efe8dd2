"""Fixtures of the chips' tests (docs/site.md, "Fichas"): those of tests/site
(a seeded world, a clock, ``make_user``) and the sockets' ``live``."""

from __future__ import annotations

from tests.realtime.conftest import live  # noqa: F401  (the sockets' fixture)
from tests.site.conftest import (  # noqa: F401  (the services' fixtures)
    clock,
    make_user,
    rounds_replay_to_snapshot,
    seeded_world,
)
