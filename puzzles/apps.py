from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PuzzlesConfig(AppConfig):
    """Puzzles cut from analysed public rounds, and a player's own blunders to
    train on (docs/site.md, "Puzzles"): beside the arenas, the quick match, the
    replays and the lobby, above the rooms. The profile shows the puzzle rating
    and the tries through `records.signals.profile_parts`, connected here
    (`puzzles.pages`)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "puzzles"
    verbose_name = _("Puzzles")

    def ready(self) -> None:
        from puzzles.pages import on_profile_parts  # (app loading: models are ready only now)
        from records.signals import profile_parts  # (app loading, as above)

        profile_parts.connect(on_profile_parts, dispatch_uid="puzzles.profile_parts")
