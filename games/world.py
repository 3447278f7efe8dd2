"""Where the site gets time and chance: one object, injected.

Every service takes ``now`` as an argument and falls back on ``world().now()``;
bots and random timeout picks draw from ``world().rng()``, deals from
``world().server_seed()`` (the server seed of a verifiable deal); the in-process
scheduler reads its clock from the same object. The site runs on `World`, the
real clock and the system's randomness. Another world is installed with
`use_world` (a test's seeded deals and movable clock, a replay tool), and the
whole site follows it, not one module at a time.

>>> from datetime import UTC, datetime
>>> class Frozen(World):
...     def now(self):
...         return datetime(2026, 1, 1, tzinfo=UTC)
>>> previous = use_world(Frozen())
>>> world().now().year
2026
>>> _ = use_world(previous)
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime

from django.utils import timezone


class World:
    """The real one: the wall clock (aware, UTC) and the system's randomness."""

    def now(self) -> datetime:
        return timezone.now()

    def rng(self) -> random.Random:
        """A generator for one decision (a bot's choice, a random pick)."""
        return secrets.SystemRandom()

    def server_seed(self) -> str:
        """A verifiable deal's server seed: 32 bytes from the system's randomness
        (`secrets`), as 64 lowercase hex digits (docs/rules.md, "Verifiable deals")."""
        return secrets.token_hex(32)


_current: World = World()


def world() -> World:
    """The world the site runs in now."""
    return _current


def use_world(new: World) -> World:
    """Run the whole site in ``new`` from now on; returns the world it replaces."""
    global _current
    previous, _current = _current, new
    return previous


def new_server_seed() -> str:
    """A fresh server seed from the world (the default of a room's next one)."""
    return _current.server_seed()


def now_or(now: datetime | None) -> datetime:
    """``now`` when the caller gave one, else the world's clock."""
    return now if now is not None else _current.now()
