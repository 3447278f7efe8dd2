"""The quick chat's fixed phrases and emotes (docs/site.md, "Watching and quick chat").

No free text, so there is nothing to moderate: a client sends a key of
`PHRASES` (``rooms.messages`` refuses any other), the server passes the key on to the
table, and each page shows the words in its own language. Bots never chat.
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

#: key -> (English source of the words, or None for an emote, emote).
PHRASES: dict[str, tuple[str | None, str]] = {
    "oi": (_("Hi!"), ""),
    "boa": (_("Nice one!"), ""),
    "valeu": (_("Thanks"), ""),
    "que_azar": (_("Bad luck"), ""),
    "joga_logo": (_("Your move!"), ""),
    "bom_jogo": (_("Good game"), ""),
    "mais_uma": (_("One more?"), ""),
    "ops": (_("Oops"), ""),
    "joinha": (None, "👍"),
    "risada": (None, "😂"),
    "suor": (None, "😅"),
    "pensando": (None, "🤔"),
    "palmas": (None, "👏"),
    "surpresa": (None, "😮"),
}

#: The keys a client may send.
CHAT_PHRASES = frozenset(PHRASES)

#: Seconds between two messages of one seat (rate_limited otherwise).
CHAT_EVERY = 3.0


def phrase_list() -> list[dict[str, str | bool]]:
    """The phrases for the page, in the active language: ``[{key, text, emote}]``."""
    return [
        {"key": key, "text": gettext(words) if words else emote, "emote": bool(emote)}
        for key, (words, emote) in PHRASES.items()
    ]
