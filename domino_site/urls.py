from django.contrib import admin
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog

from accounts import views as accounts_views
from operations import views as operations_views
from twofactor.views import LoginView

from . import views
from .forms import AdminLoginForm, LoginForm

admin.site.login_form = AdminLoginForm

urlpatterns = [
    # The admin's "Saúde do site" (staff, through the admin's own check) and the
    # Prometheus metrics (this host or METRICS_TOKEN): docs/scaling.md, "Metrics".
    path("admin/saude/", operations_views.health, name="site-health"),
    re_path(r"^metrics/?$", operations_views.metrics, name="metrics"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", views.signup, name="signup"),
    # Django's login, then the second step for an account with one (twofactor.flow).
    path("accounts/login/", LoginView.as_view(form_class=LoginForm), name="login"),
    path("accounts/2fa/", include("twofactor.urls")),  # two-step sign-in
    # /accounts/export/, /accounts/delete/ (a person's data), /privacidade/, /termos/
    path("", include("privacy.urls")),
    # Recovery ("Esqueci minha senha") and the password change: Django's views with
    # the accounts' forms and limits (docs/protocol.md, "Accounts"); Django's names.
    path("accounts/password_reset/", accounts_views.RecoveryView.as_view(), name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts_views.RecoveryConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/password_change/", accounts_views.password_change, name="password_change"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("accounts.urls")),  # /conta/ (the account's settings), the email's link
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: POST /i18n/setlang/
    # The page scripts' plurals (djangojs catalogs in locale/), a same-origin script.
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["rooms"]), name="javascript-catalog"),
    re_path(r"^healthz/?$", views.healthz, name="healthz"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("torneios/", include("arenas.urls")),
    path("", include("quick.urls")),  # /api/now/
    path("", include("records.urls")),  # /ranking/, /players/<username>/ (the profile)
    path("", include("games.urls")),  # /regras/
    path("", include("puzzles.urls")),  # /problemas/ (puzzles, the daily one, training)
    path("", include("replays.urls")),  # /r/<code>/rounds/<n>/, /api/rooms/<code>/rounds/<n>/
    path("", include("people.urls")),  # /friends/<username>/... (requests, blocks)
    path("", include("lobby.urls")),  # /, /rooms/ (create), /api/rooms/
    path("", include("rooms.urls")),
]
