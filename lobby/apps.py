from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LobbyConfig(AppConfig):
    """The lobby: the public list of rooms, live (docs/site.md, docs/protocol.md).

    Above rooms, beside arenas, quick and replays: the lobby page (``/``) and
    its create-room form (``POST /rooms/``, through `rooms.services.room_create`),
    ``GET /api/rooms/`` and the lobby socket (``ws/lobby/``). The public list's
    rows are the rooms' own read (`rooms.selectors.public_listing`), and the
    rooms tell the group ``lobby`` which rows changed (`rooms.events.lobby_notice`);
    nothing below imports the lobby.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "lobby"
    verbose_name = _("Lobby")
