from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    """The analysis of finished rounds (docs/site.md, "Round analysis"): above
    games and the bots' policies, under rooms, which shows it. Above records:
    the profile shows the accuracy per preset through
    `records.signals.profile_parts`, connected here (`analysis.pages`)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"
    verbose_name = _("Round analysis")

    def ready(self) -> None:
        from analysis.pages import on_profile_parts  # (app loading: models are ready only now)
        from records.signals import profile_parts  # (app loading, as above)

        profile_parts.connect(on_profile_parts, dispatch_uid="analysis.profile_parts")
