"""Validators for text that people type (room names, user names, passwords).

Names shown to other people must look like what they are: one line (no
control characters, no line or paragraph separators), no bidi controls (a
right-to-left override turns "moc.evil" into "live.com"), no invisible
characters (a zero-width space makes two different names look alike; the
zero-width joiner and the emoji variation selector only inside emoji), no
marks stacked past two on one letter (Zalgo text spills over the lines around
it), and a new username whose confusable skeleton (Unicode TR39: ``аlice``
with a Cyrillic ``а`` against ``alice``; taken under NFKC, small capitals as
their letters: ``ᴀlice``) matches an existing account is refused. The names
a moderator's name reset gives (``player-<id>``:
`people.moderation.reset_names`) are nobody's to take: a name of that form,
in any case or confusable with one (``PLAYER-7``, ``pIayer-7``,
``player‐７``), is refused at sign-up and at a rename (`validate_not_reserved`).
So is a name that reads as a removed account's tombstone (``Jogador removido
7``, ``removed_player``: `domino_site.removed`), and, for 90 days, the name a
removed account had (`privacy.selectors.held_names`, asked by the sign-up form).

A JSON body may carry a lone surrogate (``"\\ud800"``): a valid Python string
that no UTF-8 encoder accepts, so the database, the password hasher or the
response would fail on it with a 500. Form posts cannot carry one (Django
decodes their bytes with replacement characters, U+FFFD), but the replacement
character itself says the same thing: the browser sent bytes that were not
text. Forms refuse both before anything is written.
"""

from __future__ import annotations

import re
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
STACKED_MARKS = _("A letter may carry two accents or marks at most.")
RESERVED_NAME = _(
    "Names like “player-123” are kept for the names the moderators give: choose another one."
)
REMOVED_NAME = _("This name is kept for removed accounts: choose another one.")
RESERVED_PREFIX = "player-"  # a name reset's: player-<id> (people.moderation)

ZERO_WIDTH_JOINER = "\u200d"  # between emoji (👨‍👩‍👧): allowed
EMOJI_PRESENTATION = "\ufe0f"  # VS16, after an emoji's base (❤️, 1️⃣): allowed
# The bases of emoji presentation sequences are symbols (categories So, Sm) but
# for these: the keycap bases and a few punctuation marks and letters.
EMOJI_BASES_NOT_SYMBOLS = frozenset("#*0123456789\u203c\u2049\u2139\u3030\u303d")
# Line and paragraph separators (U+2028, U+2029) break a line as a new line does.
LINE_BREAKS = frozenset({"Cc", "Zl", "Zp"})
MOST_MARKS = 2  # on one letter: "ệ" and "ở" carry two (Vietnamese), Zalgo dozens
# "ᴀ" (LATIN LETTER SMALL CAPITAL A), "ᶫ" (MODIFIER LETTER SMALL CAPITAL L):
# neither NFKC nor the confusables data take them to their letter.
SMALL_CAPITAL = re.compile(r"(?:LATIN|MODIFIER)(?: CAPITAL)? LETTER SMALL CAPITAL ([A-Z])")
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
    escapes) nor line or paragraph separators: for names shown to other people
    on one line."""
    validate_encodable(value)
    if isinstance(value, str) and any(unicodedata.category(ch) in LINE_BREAKS for ch in value):
        raise ValidationError(CONTROL_CHARACTERS, code="control_characters")


def _invisible(ch: str) -> bool:
    """Bidi controls and marks (U+202A-202E, U+2066-2069, U+200E/F, U+061C), zero
    widths (U+200B, U+2060, U+FEFF) and every other format character, but the
    zero-width joiner (`_hidden_at` judges it by its neighbours); and invisible
    letters."""
    return (unicodedata.category(ch) == "Cf" and ch != ZERO_WIDTH_JOINER) or ch in INVISIBLE


def _variation_selector(ch: str) -> bool:
    """U+FE00-FE0F and U+E0100-E01EF: they change how the character before them
    is drawn and show nothing themselves."""
    return "\ufe00" <= ch <= "\ufe0f" or "\U000e0100" <= ch <= "\U000e01ef"


def _emoji_base(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sm") or ch in EMOJI_BASES_NOT_SYMBOLS


def _skin_tone(ch: str) -> bool:
    """U+1F3FB-1F3FF: after an emoji (👩🏽), before a joiner (👩🏽‍💻)."""
    return "\U0001f3fb" <= ch <= "\U0001f3ff"


def _emoji_before(value: str, i: int) -> bool:
    """An emoji ends just before ``value[i]`` (its presentation selector and skin
    tone aside)."""
    while i > 0 and (value[i - 1] == EMOJI_PRESENTATION or _skin_tone(value[i - 1])):
        i -= 1
    return i > 0 and unicodedata.category(value[i - 1]) == "So"


def _hidden_at(value: str, i: int) -> bool:
    """``value[i]`` is invisible where it stands: ``_invisible``, a zero-width
    joiner but between two emoji, U+FE0F but after an emoji's base, and every
    other variation selector."""
    ch = value[i]
    if ch == ZERO_WIDTH_JOINER:
        after = value[i + 1 : i + 2]
        return not (_emoji_before(value, i) and after and unicodedata.category(after) == "So")
    if ch == EMOJI_PRESENTATION:
        return not (i > 0 and _emoji_base(value[i - 1]))
    return _variation_selector(ch) or _invisible(ch)


def _most_marks(value: str) -> int:
    """The most combining marks on one character, decomposed (a precomposed
    "ở" carries two, which more marks after it would join)."""
    run = most = 0
    for ch in unicodedata.normalize("NFD", value):
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def validate_visible_text(value: object) -> None:
    """``validate_plain_text``, nothing invisible or direction-changing, and no
    stacks of marks: for names (rooms, arenas, players)."""
    validate_plain_text(value)
    if not isinstance(value, str):
        return
    if any(_hidden_at(value, i) for i in range(len(value))):
        raise ValidationError(INVISIBLE_CHARACTERS, code="invisible_characters")
    if _most_marks(value) > MOST_MARKS:
        raise ValidationError(STACKED_MARKS, code="stacked_marks")


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


@cache
def _small_capital(ch: str) -> str:
    """The letter a small capital stands for ("ᴀ": "a"), else ``ch``."""
    match = SMALL_CAPITAL.fullmatch(unicodedata.name(ch, ""))
    return match[1].lower() if match else ch


def _folded(name: str) -> str:
    """``name`` under NFKC (fullwidth ``ＡＬＩＣＥ``, superscript ``ᴬ`` and the
    other compatibility forms become their letters) with small capitals as
    their letters."""
    return "".join(_small_capital(ch) for ch in unicodedata.normalize("NFKC", name))


def _mapped(text: str) -> str:
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(prototypes.get(ch, ch) for ch in decomposed if not _invisible(ch))


def skeletons(name: str) -> frozenset[str]:
    """The TR39 skeletons of ``name`` (decomposed, each character replaced by its
    confusable class, decomposed again), taken with case folded before and after
    the mapping: case does not count either (``Iogan`` looks like ``logan``,
    ``ALICE`` like ``alice``), nor do invisible characters, compatibility forms
    or small capitals (``ＡＬＩＣＥ``, ``ᴬlice``, ``ᴀlice``: `_folded`)."""
    name = _folded(name)
    once = _mapped(name.casefold())
    twice = _mapped(_mapped(name).casefold())
    return frozenset(unicodedata.normalize("NFD", s) for s in (once, twice))


def confusable_with(name: str, existing: Iterable[str]) -> str | None:
    """The first of ``existing`` whose skeletons meet ``name``'s, or None."""
    mine = skeletons(name)
    return next((other for other in existing if mine & skeletons(other)), None)


# ------------------------------------------------------------------ reserved names


@cache
def _reserved_skeleton() -> re.Pattern[str]:
    """``player-<digits>[-<digits>]`` as its skeletons read (`skeletons`): the
    prefix's, then the digits' and the hyphen's confusable classes."""
    prefixes = "|".join(re.escape(p) for p in sorted(skeletons(RESERVED_PREFIX)))
    digits = "".join(sorted(set().union(*(skeletons(d) for d in "0123456789"))))
    hyphens = "|".join(re.escape(h) for h in sorted(skeletons("-")))
    number = f"[{re.escape(digits)}]+"
    return re.compile(f"(?:{prefixes}){number}(?:(?:{hyphens}){number})?")


RESERVED_FOLDED = re.compile(r"player-\d+(?:-\d+)?")  # \d: any script's digits


def reserved_name(name: str) -> bool:
    """Whether ``name`` is, or looks like, a name a name reset gives
    (``player-<id>``, or ``player-<id>-<n>`` when that one was taken): in any
    case, under NFKC, without invisible characters, in any script's digits, or
    confusable with one (TR39 skeletons, as `confusable_with`).

    >>> [reserved_name(n) for n in ("player-7", "Player-12", "pIayer-7", "player-7-2")]
    [True, True, True, True]
    >>> [reserved_name(n) for n in ("player", "player-one", "player_7", "players-7")]
    [False, False, False, False]
    """
    folded = "".join(ch for ch in _folded(name).casefold() if not _invisible(ch))
    if RESERVED_FOLDED.fullmatch(folded):
        return True
    pattern = _reserved_skeleton()
    return any(pattern.fullmatch(skeleton) for skeleton in skeletons(name))


# A removed account's tombstone and its look-alikes, in either language, letters only.
REMOVED_FOLDED = re.compile(r"(?:jogadorremovido|removedplayer)\d*")


def removed_lookalike(name: str) -> bool:
    """Whether ``name`` reads as a removed account's tombstone
    (`domino_site.removed`): "Jogador removido" or "Removed player", with or
    without a number, whatever the case, spaces, punctuation or look-alike
    letters.

    >>> [removed_lookalike(n) for n in ("Jogador_Removido", "removed.player.3", "jogadorremovid0")]
    [True, True, False]
    >>> removed_lookalike("jogador")
    False
    """
    for form in {_folded(name).casefold(), *skeletons(name)}:
        letters = "".join(ch for ch in form if ch.isalnum())
        if REMOVED_FOLDED.fullmatch(letters):
            return True
    return False


def validate_not_reserved(value: object) -> None:
    """Refuse a name of the name resets' form (`reserved_name`) or one that reads
    as a removed account's (`removed_lookalike`): for user names chosen by their
    owner (sign-up, the rename after a reset)."""
    if isinstance(value, str) and reserved_name(value):
        raise ValidationError(RESERVED_NAME, code="reserved")
    if isinstance(value, str) and removed_lookalike(value):
        raise ValidationError(REMOVED_NAME, code="removed")
