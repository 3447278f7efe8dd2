"""Validators for text that people type (room names, user names, passwords).

Names shown to other people must look like what they are: no bidi controls
(a right-to-left override turns "moc.evil" into "live.com"), no invisible
characters (a zero-width space makes two different names look alike), and a
new username whose confusable skeleton (Unicode TR39: ``аlice`` with a
Cyrillic ``а`` against ``alice``) matches an existing account is refused.

A JSON body may carry a lone surrogate (``"\\ud800"``): a valid Python string
that no UTF-8 encoder accepts, so the database, the password hasher or the
response would fail on it with a 500. Form posts cannot carry one (Django
decodes their bytes with replacement characters, U+FFFD), but the replacement
character itself says the same thing: the browser sent bytes that were not
text. Forms refuse both before anything is written.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache

from confusable_homoglyphs.confusables import confusables_data
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

REPLACEMENT_CHARACTER = "\ufffd"

INVALID_TEXT = _("This text contains characters that are not valid. Type it again.")
CONTROL_CHARACTERS = _("Use letters, digits, spaces and punctuation only.")
INVISIBLE_CHARACTERS = _("Names may not hold invisible or direction-changing characters.")
CONFUSABLE_NAME = _("This name looks like the name of another player: choose another one.")

ZERO_WIDTH_JOINER = "\u200d"  # inside emoji sequences (👨‍👩‍👧): allowed
# Invisible letters and marks that are not format characters (category Cf):
# the Hangul fillers, the combining grapheme joiner, Khmer's inherent vowels.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u2800")


def _has_surrogate(value: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in value)


def validate_encodable(value: object) -> None:
    """Refuse a lone surrogate or a replacement character (text that was not
    valid Unicode when it arrived). For passwords, which may hold anything else."""
    if not isinstance(value, str):
        return
    if _has_surrogate(value) or REPLACEMENT_CHARACTER in value:
        raise ValidationError(INVALID_TEXT, code="invalid_text")


def validate_plain_text(value: object) -> None:
    """``validate_encodable``, and no control characters (tabs, new lines,
    escapes): for names shown to other people on one line."""
    validate_encodable(value)
    if isinstance(value, str) and any(unicodedata.category(ch) == "Cc" for ch in value):
        raise ValidationError(CONTROL_CHARACTERS, code="control_characters")


def _invisible(ch: str) -> bool:
    """Bidi controls and marks (U+202A-202E, U+2066-2069, U+200E/F, U+061C), zero
    widths (U+200B, U+2060, U+FEFF) and every other format character, but the
    joiner of emoji sequences; and invisible letters."""
    return (unicodedata.category(ch) == "Cf" and ch != ZERO_WIDTH_JOINER) or ch in INVISIBLE


def validate_visible_text(value: object) -> None:
    """``validate_plain_text``, and nothing invisible or direction-changing: for
    names (rooms, players)."""
    validate_plain_text(value)
    if isinstance(value, str) and any(_invisible(ch) for ch in value):
        raise ValidationError(INVISIBLE_CHARACTERS, code="invisible_characters")


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's representative (Unicode's confusables.txt, as
    the pinned ``confusable-homoglyphs`` ships it): the characters it links
    (single code points only) are joined into classes, and the class is named
    by its smallest member (the ASCII letter where there is one)."""
    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        root = ch
        while parent.get(root, root) != root:
            root = parent[root]
        parent[ch] = root
        return root

    for source, targets in confusables_data.items():
        if len(source) != 1:
            continue
        for target in targets:
            other = target["c"].replace("\u200e", "")  # the data marks RTL with LRMs
            if len(other) != 1:
                continue
            a, b = find(source), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {ch: find(ch) for ch in list(parent)}


def _mapped(text: str) -> str:
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(prototypes.get(ch, ch) for ch in decomposed if not _invisible(ch))


def skeletons(name: str) -> frozenset[str]:
    """The TR39 skeletons of ``name`` (decomposed, each character replaced by its
    confusable class, decomposed again), taken with case folded before and after
    the mapping: case does not count either (``Iogan`` looks like ``logan``,
    ``ALICE`` like ``alice``), nor do invisible characters."""
    once = _mapped(name.casefold())
    twice = _mapped(_mapped(name).casefold())
    return frozenset(unicodedata.normalize("NFD", s) for s in (once, twice))


def confusable_with(name: str, existing: Iterable[str]) -> str | None:
    """The first of ``existing`` whose skeletons meet ``name``'s, or None."""
    mine = skeletons(name)
    return next((other for other in existing if mine & skeletons(other)), None)
