"""The chips' operator knobs (settings) and the pot's arithmetic, pure.

The rounding rule (docs/site.md, "Fichas"): the winners' part of a pot is the
pot less the bank's share, rounded down to a whole chip; it is split equally
between the winning seats, rounded down; every chip left over by either
rounding goes to the bank.

>>> split_pot(total=20, winners=1, share=Fraction(2, 5))
(12, 8)
>>> split_pot(total=40, winners=2, share=Fraction(2, 5))
(12, 16)
>>> split_pot(total=4 * 25, winners=2, share=Fraction(2, 5))
(30, 40)
>>> split_pot(total=2 * 5, winners=1, share=Fraction(2, 5))
(6, 4)
>>> split_pot(total=3, winners=2, share=Fraction(2, 5))
(0, 3)
"""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings

DEFAULT_STAKES = (10, 50, 100, 500)


def welcome_amount() -> int:
    """The chips a new account starts with (``CHIPS_WELCOME``)."""
    return int(getattr(settings, "CHIPS_WELCOME", 1000))


def daily_floor() -> int:
    """The daily allowance tops a balance up to this (``CHIPS_DAILY_FLOOR``)."""
    return int(getattr(settings, "CHIPS_DAILY_FLOOR", 200))


def stakes() -> tuple[int, ...]:
    """The stakes a host may pick (``CHIPS_STAKES``), the smallest first."""
    return tuple(sorted(int(s) for s in getattr(settings, "CHIPS_STAKES", DEFAULT_STAKES)))


def smallest_stake() -> int:
    """The smallest stake: the ranking asks a balance to cover it."""
    return min(stakes(), default=0)


def bank_share() -> Fraction:
    """The bank's part of a pot (``BANK_SHARE``, 0.40), exactly."""
    return Fraction(str(getattr(settings, "BANK_SHARE", "0.40")))


def split_pot(*, total: int, winners: int, share: Fraction) -> tuple[int, int]:
    """``(each winning seat's part, the bank's part)`` of a pot of ``total``
    chips won by ``winners`` seats (the rounding rule above)."""
    paid = int(total * (1 - share))  # int() of a non-negative Fraction rounds down
    each = paid // max(winners, 1)
    return each, total - each * winners
