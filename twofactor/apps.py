from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class TwofactorConfig(AppConfig):
    name = "twofactor"
    verbose_name = _("Two-step sign-in")
    default = True


class TwoFactorAdminConfig(admin_apps.AdminConfig):
    """Django's admin (``INSTALLED_APPS``), on the site that asks staff for a
    second factor when DEBUG is off: ``admin.site`` is that site, so every
    app's ``admin.register`` lands on it."""

    default = False
    default_site = "twofactor.admin_site.TwoFactorAdminSite"
