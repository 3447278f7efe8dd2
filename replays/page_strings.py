"""Every string the replay page's scripts show (static/js/replay.js and
board.js, replay_analysis.js, analysis_queue.js), handed over translated by
replays/views.py through ``rooms.page_strings.translated`` (the replay page also
gets the table's, ``rooms.page_strings.TABLE``); ``makemessages`` finds them
here. tests/site/test_views_strings.py checks that every ``t("...")`` of the
scripts is listed.
"""

from django.utils.translation import gettext_noop as _

# The replay page (static/js/replay.js); it also gets TABLE (seat names, the log).
REPLAY: tuple[str, ...] = (
    _("The hands as dealt"),
    _("Deal (move 0 of %(total)s)"),
    _("Move %(n)s of %(total)s"),
)

# One's own blunder as a puzzle (static/js/replay_train.js, replays/training.py).
TRAIN: tuple[str, ...] = (
    _("Train this position"),
    _("You blundered here: try to find the best move as a puzzle."),
)

# The replay page's analysis (static/js/replay_analysis.js; labels: analysis.scoring).
ANALYSIS: tuple[str, ...] = (
    _("Analysis"),
    _("Accuracy"),
    _("round %(r)s · match %(m)s"),
    _("round %(r)s"),
    _("Inaccuracy"),
    _("Mistake"),
    _("Blunder"),
    _("Best move"),
    _("Good move"),
    _("Loss: %(loss)s points"),
    _("Best: %(action)s"),
    _("Expected points of each choice"),
    _("Not analysed: no choice, a bot, or an automatic move."),
    _("pass"),
    _("draw"),
    _("%(tile)s on end %(end)s"),
    _("Points for the mover's side, from what the mover could see."),
)

# Until the round is analysed (static/js/analysis_queue.js; analysis.queue).
ANALYSIS_QUEUE: tuple[str, ...] = (
    _("Analysis: in the queue (no. %(n)s)"),
    _("Analysing…"),
    _("This round is not in the analysis queue."),
    _("Ask for the analysis"),
    _("The analysis is ready: showing it…"),
)

# The replay's what-if (static/js/replay_whatif.js; analysis.whatif_answers).
WHATIF: tuple[str, ...] = (
    _("What if…?"),
    _("Go to a move to try another action there."),
    _("Move %(n)s: %(name)s played %(action)s. Try another:"),
    _("The only legal action: nothing else to try. Its expected points:"),
    _("pass"),
    _("draw"),
    _("%(tile)s on end %(end)s"),
    _("played"),
    _("This choice"),
    _("Played"),
    _("Best"),
    _("Expected points"),
    _("The table after it"),
    _("What it does"),
    _("Computing…"),
    _("Points for the mover's side, from what the mover could see."),
    _("Seat %(n)s"),
)
