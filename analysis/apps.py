from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    """The analysis of finished rounds (docs/site.md, "Round analysis"): above
    games and the bots' policies, under rooms, which shows it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = _("Round analysis")
