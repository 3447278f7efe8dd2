"""What rooms announce to the timers above them: ``quick_due`` (``at``, a
datetime), sent after the commit of a change to the quick-match queue, when a
pairing pass should run (``timers.scheduling`` wakes `rooms.services.quick_pair`)."""

from django.dispatch import Signal

quick_due = Signal()
