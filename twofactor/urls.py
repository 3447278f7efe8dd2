"""``/accounts/2fa/...`` (docs/protocol.md, "HTTP"). The login itself stays
``/accounts/login/`` (``domino_site/urls.py``, `twofactor.views.LoginView`)."""

from django.urls import path

from . import views

app_name = "twofactor"

urlpatterns = [
    path("", views.overview, name="overview"),
    path("verify/", views.verify, name="verify"),
    path("enrol/", views.enrol, name="enrol"),
    path("codes/", views.codes, name="codes"),
    path("codes/new/", views.regenerate, name="regenerate"),
    path("disable/", views.disable, name="disable"),
]
