from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RecordsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "records"
    verbose_name = _("Records")

    def ready(self) -> None:
        # A login clears that account's failed-login count from that address
        # (domino_site.throttling): the people's side of the login throttle.
        from django.contrib.auth.signals import user_logged_in

        from domino_site.throttling import forget_account_failures

        user_logged_in.connect(forget_account_failures, dispatch_uid="forget_account_failures")
