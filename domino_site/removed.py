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

from django.core.exceptions import ValidationError
from django.dispatch import Signal
from django.utils.translation import gettext, gettext_lazy

#: Asked with ``name=``: is this name held (a removed account's, for 90 days)?
#: Sent by whoever lets a person choose a name (the sign-up form, the rename
#: after a name reset: `validate_not_held`), answered by the privacy app
#: (`privacy.selectors.on_name_held`, connected in privacy/apps.py), which
#: sits above them all.
name_held = Signal()

HELD_NAME = gettext_lazy("This name belonged to an account removed recently: choose another one.")

TOMBSTONE_WORDS = "Jogador removido"  # the site's default language (pt-BR): the admin reads it
TOMBSTONE = re.compile(re.escape(TOMBSTONE_WORDS) + r" \d+")


def tombstone_name(user_id: int) -> str:
    """The username a removed account is given (unique: its id)."""
    return f"{TOMBSTONE_WORDS} {user_id}"


def is_tombstone(name: object) -> bool:
    """Whether ``name`` is a removed account's tombstone."""
    return isinstance(name, str) and TOMBSTONE.fullmatch(name) is not None


def validate_not_held(name: str) -> None:
    """Refuse ``name`` when an app answers `name_held` that it is held (the
    same name, in any case, or one confusable with it)."""
    if any(answer is True for _receiver, answer in name_held.send(sender=None, name=name)):
        raise ValidationError(HELD_NAME, code="held")


def shown_name(name: str) -> str:
    """``name`` as pages show it: a removed account's is "Removed player" in the
    active language; any other name is itself."""
    return gettext("Removed player") if is_tombstone(name) else name
