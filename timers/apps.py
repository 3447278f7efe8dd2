from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TimersConfig(AppConfig):
    """Timers, the in-process ticker and the sweeper's task: above rooms and games.

    Rooms announce a round's next due time through `games.signals.round_due`
    (after commit); this app listens and wakes the round up at that time, so that
    nothing below it has to know which scheduler runs. The quick-match queue
    announces a pairing pass the same way (`quick.signals.quick_due`).
    """

    name = "timers"
    verbose_name = _("Timers")

    def ready(self) -> None:
        from accounts.signals import mail_queued  # (app loading: models are ready only now)
        from analysis.signals import analysis_queued  # (app loading, as above)
        from arenas.signals import arena_due  # (app loading, as above)
        from games.signals import round_due, round_finished  # (app loading, as above)
        from quick.signals import quick_due  # (app loading, as above)
        from timers.scheduling import (
            on_analysis_queued,  # (app loading, as above)
            on_arena_due,  # (app loading, as above)
            on_mail_queued,  # (app loading, as above)
            on_quick_due,  # (app loading, as above)
            on_round_due,  # (app loading, as above)
            on_round_finished,  # (app loading, as above)
        )

        round_due.connect(on_round_due, dispatch_uid="timers.schedule_due")
        round_finished.connect(on_round_finished, dispatch_uid="timers.schedule_analysis")
        quick_due.connect(on_quick_due, dispatch_uid="timers.schedule_quick")
        arena_due.connect(on_arena_due, dispatch_uid="timers.schedule_arena")
        analysis_queued.connect(on_analysis_queued, dispatch_uid="timers.wake_analysis")
        mail_queued.connect(on_mail_queued, dispatch_uid="timers.wake_mail")
