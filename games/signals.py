"""What games announce to the layers above them (docs/architecture.md, "Layers and their import contracts").

``round_due``: sent after the commit of a change, with ``round_id``,
``version``, ``due_at`` and ``kind`` (the round's ``due_kind``), when the round
has an action due. The timers (``timers.scheduling``) listen and wake
``rooms.services.round_due_fire`` up at ``due_at``; nobody below them needs to
know whether Celery or the in-process ticker does it.

``round_finished``: sent after the commit of the move that ended a round with a
result, with ``round_id``. The timers listen and have the round analysed
(docs/site.md, "Round analysis"), never before that commit.

A match's end is the rooms' to tell (`rooms.signals.match_over`): they end it.
"""

from django.dispatch import Signal

round_due = Signal()
round_finished = Signal()
