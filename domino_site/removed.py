"""A removed account's name (docs/site.md, "Your data (LGPD)").

A deleted account keeps its row, so that its place in other people's matches,
replays and ratings stays: its username becomes a tombstone
(`tombstone_name`: ``Jogador removido <id>``, which no sign-up can take:
Django's name rule refuses the spaces, and `domino_site.validators.reserved_name`
refuses its look-alikes), and every name the site stored for it (a seat's
name, a round's players, a cool-down's name) becomes that tombstone too. Every
page, JSON and admin column that shows a name passes it through `shown_name`,
which turns a tombstone into "Removed player" in the viewer's language
("Jogador removido" in pt-BR). The admin's own columns (``str(user)``) show the
tombstone as it is, which reads the same words.

>>> tombstone_name(42)
'Jogador removido 42'
>>> is_tombstone("Jogador removido 42"), is_tombstone("ana"), is_tombstone(None)
(True, False, False)
"""

from __future__ import annotations

import re

from django.utils.translation import gettext

TOMBSTONE_WORDS = "Jogador removido"  # the site's default language (pt-BR): the admin reads it
TOMBSTONE = re.compile(re.escape(TOMBSTONE_WORDS) + r" \d+")


def tombstone_name(user_id: int) -> str:
    """The username a removed account is given (unique: its id)."""
    return f"{TOMBSTONE_WORDS} {user_id}"


def is_tombstone(name: object) -> bool:
    """Whether ``name`` is a removed account's tombstone."""
    return isinstance(name, str) and TOMBSTONE.fullmatch(name) is not None


def shown_name(name: str) -> str:
    """``name`` as pages show it: a removed account's is "Removed player" in the
    active language; any other name is itself."""
    return gettext("Removed player") if is_tombstone(name) else name
