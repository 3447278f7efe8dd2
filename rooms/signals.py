"""What the rooms announce to the apps above them (docs/architecture.md, "Layers and their import contracts").

``match_over``: sent by `rooms.services.rounds` after the commit of a match's
end (a result, a forfeit, a walkover, an annulment), with ``match_id`` and
``room_id``. Whoever runs matches above the rooms subscribes in its own
``apps.py`` (the arenas score their matches and pair their players again).

``page_parts``: sent by the rooms' views while they build a page, with
``page`` (``"table"`` and ``"closed"``, with ``room`` and ``request``: the
viewer). A receiver returns a
piece of HTML rendered from its own templates (or ``""``); the page shows the
pieces where the apps above have their say (the arenas: the way back to a
table's arena), so no template of the rooms loads another app's tags. The
profile is the records' page, with its own signal
(`records.signals.profile_parts`).

``chat_hidden``: sent by a table socket the first time a quick-chat phrase of
another account reaches it, with ``user_id`` (the socket's viewer). A
receiver returns the ids of the accounts whose phrases this viewer does not
see (the people's answer: those the viewer blocks); the socket drops their
phrases from then on.

``kept_apart``: sent by the seat-taking service (`rooms.services.seating`,
every way to take a seat: the table's ``sit``, the invite's POST, and the
tables the quick match, the arenas and the challenges open through it) with
``user_ids`` (the account taking a seat and the accounts already at the
table). A receiver returns who blocks whom among them, ``(blocker, blocked)``
pairs of ids (the people's answer, `people.selectors.blocks_among`); a block
either way refuses the seat with ``blocked``.
"""

from django.dispatch import Signal

match_over = Signal()
page_parts = Signal()
chat_hidden = Signal()
kept_apart = Signal()
