"""What arenas announce to the timers above them: ``arena_due`` (``arena_id``,
``at``), sent after commit when the arena wants a tick at ``at`` (its start,
its end, a pairing round). ``timers.scheduling`` wakes `arena_tick` then."""

from django.dispatch import Signal

arena_due = Signal()
