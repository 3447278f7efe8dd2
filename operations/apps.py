from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OperationsConfig(AppConfig):
    """What the site is doing, for its operators (docs/scaling.md, "Metrics";
    docs/site.md, "Admin"): ``/metrics`` (Prometheus' text format) and the
    admin's "Saúde do site". Reads only: the readings are `operations.selectors`,
    which both pages use. The top layer: it reads the apps below (rooms, games,
    people, analysis) and nothing imports it."""

    name = "operations"
    verbose_name = _("Operations")
