"""Every string static/js/lobby.js shows, handed over translated by
lobby/views.py as rooms/page_strings.py does for the other pages
(``rooms.page_strings.translated``); ``makemessages`` finds them here.
tests/site/test_views_strings.py checks that every ``t("...")`` of lobby.js is
listed.
"""

from django.utils.translation import gettext_noop as _

LOBBY: tuple[str, ...] = (
    _("paused"),
    _("waiting for players"),
    _("playing"),
    _("between rounds"),
    _("%(n)s s a move"),
    _("no clock"),
    _("Watch"),
    _("Sit"),
    _("%(taken)s/%(total)s seats"),
    _("No open rooms right now."),
    _("Competitive"),
    _("Rated table: the match moves ratings and experience."),
    # Issue 26: the lobby's pages (static/js/lobby.js).
    _("Previous page"),
    _("Next page"),
)

# Issue 29 (docs/table-rules.md): friendly or competitive tables.
LOBBY_RULES: tuple[str, ...] = (
    _("Rated"),
    _("Friendly"),
    _("Friendly table: never rated."),
    _("Competitive table: rated when every seat is an account and no two share an address."),
)
LOBBY = LOBBY + LOBBY_RULES
