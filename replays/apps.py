from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReplaysConfig(AppConfig):
    """Where a finished round is seen again: the replay page, the round's JSON
    and its analysis (docs/site.md, "Accounts, records, ranking" and "Round analysis").

    Above rooms, beside arenas and quick: it reads who may see a room's rounds
    (`rooms.selectors.may_see_rounds`), the round (`games.selectors`) and its
    analysis (`analysis.selectors`, `analysis.queue`). Nothing below imports it;
    the pages below link to it by URL name (``replays:replay``).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "replays"
    verbose_name = _("Replay")
