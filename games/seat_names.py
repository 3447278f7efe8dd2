"""The one name a seat shows everywhere (docs/site.md, "Names at the table").

A person's seat shows the person's name (a removed account's in the viewer's
words, `domino_site.removed.shown_name`; a nameless guest "Convidado"). A bot's
seat shows the bot's own name, a Brazilian one, and its small picture: both
follow from the room's code and the seat's number alone, so the same bot keeps
its name through a match and a level change, and a round's replay, its what-if,
its JSON and the table name it alike, even for rounds played before bots had
names (the round keeps who sat where, `Round.players`). The table's state
(`rooms.selectors`), the replay page and the round's JSON
(`games.selectors.replay_export`) all ask `display_name`; nothing else composes
a seat's name.

>>> bot_name("ABCDEF", 1) == bot_name("ABCDEF", 1)
True
>>> len({bot_name("ABCDEF", i) for i in range(4)})  # four bots at one table: four names
4
>>> display_name(kind="empty", name="", index=2, code="ABCDEF")
''
"""

from __future__ import annotations

import hashlib

from django.templatetags.static import static
from django.utils.translation import gettext as _

from domino_site.removed import shown_name

#: The bots' names: how a table in a Brazilian square calls its regulars. A
#: table's seats take consecutive names from a place the room's code picks, so
#: no two bots at one table share one.
BOT_NAMES = (
    "Seu Tonho",
    "Dona Cida",
    "Tião",
    "Dona Lurdinha",
    "Seu Bené",
    "Dona Neide",
    "Juca",
    "Dona Zezé",
    "Seu Vavá",
    "Dona Nena",
    "Seu Dito",
    "Dona Tereza",
    "Seu Nonô",
    "Dona Socorro",
    "Chico",
    "Dona Iracema",
    "Seu Lino",
    "Dona Marlene",
    "Quinzinho",
    "Dona Dalva",
    "Seu Osvaldo",
    "Dona Rosinha",
    "Seu Geraldo",
    "Dona Fia",
)

#: How many pictures there are (static/icons/bots/bot-<n>.svg): a robot's face
#: in as many colours; a bot's follows from its name.
BOT_PICTURES = 6


def _place(code: str) -> int:
    """Where in `BOT_NAMES` a room's seats start (stable across processes,
    unlike ``hash``)."""
    digest = hashlib.sha256(code.encode()).digest()
    return int.from_bytes(digest[:4], "big") % len(BOT_NAMES)


def _bot_number(code: str, index: int) -> int:
    return (_place(code) + index) % len(BOT_NAMES)


def bot_name(code: str, index: int) -> str:
    """The name of the bot at seat ``index`` of room ``code``."""
    return BOT_NAMES[_bot_number(code, index)]


def bot_avatar(code: str, index: int) -> str:
    """The URL of the picture of the bot at seat ``index`` of room ``code``
    (a static SVG: no request leaves the site, the CSP's ``img-src 'self'``)."""
    return static(f"icons/bots/bot-{_bot_number(code, index) % BOT_PICTURES}.svg")


def display_name(*, kind: str, name: str | None, index: int, code: str) -> str:
    """The name a seat shows: a person's (a nameless guest: "Guest" in the
    viewer's language), the bot's own, and nothing for an empty seat (the page
    says "Empty seat" or "Seat 3" where it needs to)."""
    if kind == "bot":
        return bot_name(code, index)
    if kind == "human":
        return shown_name(name or "") or _("Guest")
    return ""


def avatar(*, kind: str, index: int, code: str) -> str | None:
    """A seat's picture: a bot's; None for a person (the page shows their initial)."""
    return bot_avatar(code, index) if kind == "bot" else None
