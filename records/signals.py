"""What the records ask of the apps above them (docs/architecture.md, "Layers
and their import contracts"). The profile (`records.views.player`) is the
records' page, but two of its answers belong to apps above the records, which
it may not import; it sends these signals, and those apps connect their
receivers in their own ``apps.py``.

``rounds_visible``: sent with ``room`` and ``request`` (the viewer) for each
room whose rounds the profile would show (its recent matches' replay links,
the accuracy's rooms). A receiver answers ``True`` when this viewer may see
that room's finished rounds; the rooms' rule (`rooms.selectors.may_see_rounds`,
connected in ``rooms.apps``) is the one that answers. Without a ``True``
answer the rounds stay hidden.

``profile_parts``: sent while the profile is built, once for each ``place``
of `PROFILE_PLACES` (``"people"``: after the record, where the people's
friends and requests go; ``"after_history"``: after the rating's history, where
the analysis' accuracy goes; ``"end"``: after the recent matches, where the
arenas' list goes), with ``person`` (the profile's account), ``request`` and
``may_see_rounds`` (the viewer's right per room, as above). A receiver returns
a piece of HTML rendered from its own templates (or ``""``); the page shows
the pieces at that place, in the receivers' order, so no template of the
records loads another app's tags.

``rated_restriction``: sent by the rulebook (`records.rulebook.cooldown_for`)
with ``user_id`` and ``now``: is this account kept from rated play by an app
above (the people's suspension, docs/site.md "Reports and moderation")? A
receiver returns a `records.rulebook.ActiveCooldown` or None; the rulebook
treats the one ending last as it treats an abandonment cool-down, at every
rated entry point.

``win_trading``: sent by the records after the commit of a rated result
(`records.services.match_finished`), for each two of its people on opposite
sides whose rated matches look like one losing on purpose
(`records.rulebook.win_trading`: `WIN_TRADING_MATCHES` or more within
`WIN_TRADING_WINDOW`, one of them winning `WIN_TRADING_PERCENT` % or more), with
``winner_id``, ``loser_id``, ``match_ids`` (those matches) and ``now``. The
people's moderation answers: one entry in the reports' queue per pair
(`people.moderation.on_win_trading`). Sent again at every such result; the
receiver keeps one entry.
"""

from django.dispatch import Signal

PROFILE_PLACES = ("people", "after_history", "end")

rounds_visible = Signal()
profile_parts = Signal()
rated_restriction = Signal()
win_trading = Signal()
