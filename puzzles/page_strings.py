"""Every string the puzzle page's script shows (static/js/puzzles.js), handed
over translated by puzzles/views.py through ``rooms.page_strings.translated``;
``makemessages`` finds them here. tests/site/test_views_strings.py checks
that every ``t("...")`` of the scripts is listed."""

from django.utils.translation import gettext_noop as _

PUZZLE: tuple[str, ...] = (
    _("Your move"),
    _("Find the best move for %(side)s."),
    _("Your hand"),
    _("Seat %(n)s"),
    _("you"),
    _("partner"),
    _("Boneyard: %(n)s"),
    _("passed"),
    _("drew"),
    _("played %(tile)s"),
    _("What happened so far"),
    _("Nothing has been played yet."),
    _("pass"),
    _("draw"),
    _("%(tile)s on end %(end)s"),
    _("Which end?"),
    _("End %(end)s (shows %(n)s)"),
    _("Correct!"),
    _("Not the best move."),
    _("The best move: %(action)s"),
    _("Your rating: %(before)s → %(after)s"),
    _("Not rated: %(why)s"),
    _("you had tried this puzzle before"),
    _("log in to get a puzzle rating"),
    _("your own positions are not rated"),
    _("its answer had been shown on this browser or connection before"),
    _("Puzzle rating: %(r)s"),
    _("Streak: %(n)s"),
    _("Next puzzle"),
    _("Try again"),
    _("Expected points of each choice"),
    _("Themes"),
    _("endgame"),
    _("blocking"),
    _("following the partner"),
    _("leaving the right end"),
    _("Sending…"),
    _("Could not send the answer: try again."),
    _("your side"),
)
