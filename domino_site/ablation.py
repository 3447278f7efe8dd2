"""Parts of the live path that bench/load.py turns off one at a time, to
measure what each is worth in one run (``DOMINO_OFF``: a comma-separated list).

Temporary: the parts that do not pay are deleted with this module.
"""

from __future__ import annotations

import os

PARTS = (
    "read_ahead",
    "prepared",
    "begin_ride",
    "pool_check",
    "inbox_reader",
    "local_delivery",
    "lua_send",
)

OFF = frozenset(p.strip() for p in os.environ.get("DOMINO_OFF", "").split(",") if p.strip())
unknown = OFF - set(PARTS)
if unknown:
    raise RuntimeError(f"DOMINO_OFF: unknown parts {sorted(unknown)} (known: {PARTS})")


def off(part: str) -> bool:
    """Whether ``part`` of the live path is switched off."""
    return part in OFF
