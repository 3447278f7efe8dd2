from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenasConfig(AppConfig):
    """Arenas: timed tournaments over the rooms (docs/site.md, "Arenas").

    Above rooms, under timers: an arena creates rooms and seats its players
    through the rooms' services, and hears of a match's end through
    `rooms.signals.match_over`, connected here: it asks the timers for a tick
    (`arenas.signals.arena_due`). Its parts of the pages below (a table's way
    back, a profile's arenas) answer `rooms.signals.page_parts` and
    `records.signals.profile_parts` (`arenas.pages`).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "arenas"
    verbose_name = _("Arenas")

    def ready(self) -> None:
        from arenas.events import on_match_over  # (app loading: models are ready only now)
        from arenas.pages import on_page_parts, on_profile_parts  # (app loading, as above)
        from records.signals import profile_parts  # (app loading, as above)
        from rooms.signals import match_over, page_parts  # (app loading, as above)

        match_over.connect(on_match_over, dispatch_uid="arenas.match_over")
        page_parts.connect(on_page_parts, dispatch_uid="arenas.page_parts")
        profile_parts.connect(on_profile_parts, dispatch_uid="arenas.profile_parts")
