from django.apps import AppConfig


class InfraConfig(AppConfig):
    """The plumbing's hooks into Django (domino_site.infra), and the error
    reports (domino_site.error_reports: only with ``SENTRY_DSN``)."""

    name = "domino_site.infra"
    label = "infra"
    verbose_name = "Infrastructure"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from domino_site.infra.psycopg_pool import on_connection_created

        connection_created.connect(on_connection_created, dispatch_uid="infra.cheap_pool_check")

        from django.conf import settings

        from domino_site.error_reports import start

        start(settings)
