"""What the rooms announce to the apps above them (docs/architecture.md, "Layers and their import contracts").

``match_over``: sent by `rooms.services.rounds` after the commit of a match's
end (a result, a forfeit, a walkover, an annulment), with ``match_id`` and
``room_id``. Whoever runs matches above the rooms subscribes in its own
``apps.py`` (the arenas score their matches and pair their players again).
"""

from django.dispatch import Signal

match_over = Signal()
