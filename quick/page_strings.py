"""Every string static/js/quick.js shows (issue 26: the quick match), handed
over translated by quick/views.py as rooms/page_strings.py does for the other
pages (``rooms.page_strings.translated``); ``makemessages`` finds them here.
tests/site/test_views_strings.py checks that every ``t("...")`` of quick.js is
listed.
"""

from django.utils.translation import gettext_noop as _

QUICK: tuple[str, ...] = (
    _("%(playing)s playing now · %(queued)s in the queue"),
    _("Waiting for players: %(n)s in this queue · %(time)s"),
    _("Looking for players…"),
    _("Leave the queue"),
    _("Play now with people"),
    _("Found a table: taking you there…"),
    _("You left the queue."),
    _("The connection dropped: try again."),
    _("You are in the middle of a match."),
    _("Go back to your table"),
)
