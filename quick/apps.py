from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuickConfig(AppConfig):
    """Quick match: "Jogar agora com pessoas" (docs/site.md, "Quick match").

    Above rooms, under timers, beside arenas: the queue's pairing pass opens
    tables and seats people through the rooms' services, and announces its next
    pass through `quick.signals.quick_due` (the timers run it). The queue's rows
    (`rooms.models.QuickEntry`) stay in the rooms' models and migrations.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "quick"
    verbose_name = _("Quick match")
