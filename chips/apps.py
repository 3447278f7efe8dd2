from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChipsConfig(AppConfig):
    """The play chips ("fichas", docs/site.md "Fichas"): a ledger per person, the
    stakes of a table's match, their settlement. Between the records and the
    games (docs/architecture.md): the records' rulebook holds and settles stakes."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "chips"
    verbose_name = _("Chips")

    def ready(self) -> None:
        # A login tops a low balance up once a day (the daily allowance): Django's
        # signal, connected at start-up.
        from django.contrib.auth.signals import user_logged_in

        from chips.services import allowance_on_login

        user_logged_in.connect(allowance_on_login, dispatch_uid="chips_allowance_on_login")
