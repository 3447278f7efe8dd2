"""``analysis_queued``: sent after the commit of a change that queued a round's
analysis (`analysis.queue`); ``timers`` wakes the analysis worker on it."""

from django.dispatch import Signal

analysis_queued = Signal()
