from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """A person's account beyond name and password (docs/site.md, "Accounts"):
    the email address (confirmed by a link, the only way to recover the
    account), the mail the site sends (an outbox, sent after the commit by the
    timers: a Celery task, or the in-process ticker), password recovery, the
    signed-in sessions, and the "Conta" page that gathers a person's settings.

    It sits beside arenas, quick, replays, lobby and puzzles, above people (the
    Conta page shows who may challenge the person, through `people.challenges`),
    and below timers, which send its mail (`accounts.signals.mail_queued`).
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out  # (app loading)

        from accounts.sessions import on_logged_out  # (app loading: models are ready only now)

        user_logged_out.connect(on_logged_out, dispatch_uid="accounts.session_forget")
