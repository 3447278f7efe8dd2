"""What the quick match announces to the timers above it: ``quick_due`` (``at``, a
datetime), sent after the commit of a change to the quick-match queue, when a
pairing pass should run (``timers.scheduling`` wakes `quick.services.quick_pair`)."""

from django.dispatch import Signal

quick_due = Signal()
