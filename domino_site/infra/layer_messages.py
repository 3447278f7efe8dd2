"""What both channel layers share: who of a group a change's message goes to."""

from __future__ import annotations


def recipients(how: str, members: list[str], told: set[str]) -> list[str]:
    """Who of a group's ``members`` a ``"group"`` message goes to (all of them) or
    a ``"group_others"`` one (those not ``told`` already in the same change).

        >>> recipients("group_others", ["a", "b", "c"], {"b"})
        ['a', 'c']
    """
    return members if how == "group" else [m for m in members if m not in told]
