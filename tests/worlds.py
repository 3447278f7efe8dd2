"""The tests' world (`games.world`): a clock that moves by hand, deals that repeat.

``TestWorld(seed=1)`` draws its server seeds and other chance from
``random.Random(1)``, ``Random(2)``, ... in turn, so a test's deals are known;
without a seed it draws like the site.
``advance(seconds)`` moves its clock, which runs on from the real one.
"""

from __future__ import annotations

import itertools
import random
import secrets
from datetime import datetime, timedelta

from django.utils import timezone

from games.world import World


class TestWorld(World):
    __test__ = False  # not a test class, whatever pytest thinks of its name

    def __init__(self, seed: int | None = None) -> None:
        self.offset = timedelta(0)
        self._seeds = itertools.count(seed) if seed is not None else None

    def now(self) -> datetime:
        return timezone.now() + self.offset

    def rng(self) -> random.Random:
        if self._seeds is None:
            return secrets.SystemRandom()
        return random.Random(next(self._seeds))

    def server_seed(self) -> str:
        """Seeded: the next seeded generator's 32 bytes (the deals repeat)."""
        if self._seeds is None:
            return super().server_seed()
        return random.Random(next(self._seeds)).randbytes(32).hex()

    def advance(self, seconds: float) -> None:
        self.offset += timedelta(seconds=seconds)
