"""The chips' words, in the reader's language: "1 ficha", "0 fichas" (zero is
plural in pt-BR), and the notice every page that shows chips carries."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

#: Shown wherever chips appear (a Brazilian site stays clear of real-money gaming).
PLAY_CHIPS_ONLY = _("Play chips only: they cannot be bought, sold, cashed out or transferred.")


def chips_label(n: int) -> str:
    """ "1 ficha", "100 fichas" ("1 chip", "100 chips")."""
    return ngettext("%(n)d chip", "%(n)d chips", n) % {"n": n}
