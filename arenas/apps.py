from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenasConfig(AppConfig):
    """Arenas: timed tournaments over the rooms (docs/site.md, "Arenas").

    Above rooms, under timers: an arena creates rooms and seats its players
    through the rooms' services, and hears of a match's end through
    `games.signals.match_over` (the timers wake the arena up).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "arenas"
    verbose_name = _("Arenas")
