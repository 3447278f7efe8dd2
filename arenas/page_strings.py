"""The arena page script's strings, translated here and rendered into the page
(the keys are the English source strings, as `static/js/util.js` ``makeT`` reads them)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def arena_strings() -> dict[str, str]:
    return {
        "Starts in %(time)s": _("Starts in %(time)s"),
        "Ends in %(time)s": _("Ends in %(time)s"),
        "Finished": _("Finished"),
        "Cancelled": _("Cancelled"),
        "Back to your table": _("Back to your table"),
        "Rank": _("Rank"),
        "Player": _("Player"),
        "Score": _("Score"),
        "Matches": _("Matches"),
        "%(n)s wins in a row: the next win counts double": _(
            "%(n)s wins in a row: the next win counts double"
        ),
        "Nobody has joined yet.": _("Nobody has joined yet."),
        "left the arena": _("left the arena"),
        "playing": _("playing"),
        "Podium": _("Podium"),
        "Connection lost; reconnecting…": _("Connection lost; reconnecting…"),
        "Your new table is ready.": _("Your new table is ready."),
    }
