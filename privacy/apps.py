from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrivacyConfig(AppConfig):
    """A person's data rights (docs/site.md, "Your data (LGPD)"): the copy of
    their data (``/accounts/export/``), the deletion of their account
    (``/accounts/delete/``), the privacy notice and terms, the names held after
    a deletion and the data requests staff carry out in the admin.

    Above the feature apps (arenas, quick, replays, lobby, puzzles, people,
    rooms, records, games), whose selectors and services it calls; below
    `timers`, whose sweeper runs its retention (`privacy.services.retention_sweep`).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "privacy"
    verbose_name = _("Your data")

    def ready(self) -> None:
        # (app loading: models are ready only now)
        from domino_site.removed import name_held
        from privacy.selectors import on_name_held

        name_held.connect(on_name_held, dispatch_uid="privacy.name_held")
