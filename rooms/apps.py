from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomsConfig(AppConfig):
    """Rooms: tables, seats, the play flow, their sockets and pages (docs/site.md).

    Above analysis and records: the profile (`records.views.player`) asks who
    may see a room's rounds through `records.signals.rounds_visible`, which the
    rooms answer here (`rooms.views.on_rounds_visible`).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "rooms"
    verbose_name = _("Rooms")

    def ready(self) -> None:
        from records.signals import rounds_visible  # (app loading: models are ready only now)
        from rooms.views import on_rounds_visible  # (app loading, as above)

        rounds_visible.connect(on_rounds_visible, dispatch_uid="rooms.rounds_visible")
