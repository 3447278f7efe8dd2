from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TimersConfig(AppConfig):
    """Timers, the in-process ticker and the sweeper's task: above rooms and games.

    Rooms announce a round's next due time through `games.signals.round_due`
    (after commit); this app listens and wakes the round up at that time, so that
    nothing below it has to know which scheduler runs.
    """

    name = "timers"
    verbose_name = _("Timers")

    def ready(self) -> None:
        from games.signals import (
            round_due,
            round_finished,
        )  # (app loading: models are ready only now)
        from timers.scheduling import on_round_due, on_round_finished  # (app loading, as above)

        round_due.connect(on_round_due, dispatch_uid="timers.schedule_due")
        round_finished.connect(on_round_finished, dispatch_uid="timers.schedule_analysis")
