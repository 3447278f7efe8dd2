from django.contrib import admin
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog

from twofactor.views import LoginView

from . import views
from .forms import AdminLoginForm, LoginForm

admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/signup/", views.signup, name="signup"),
    # Django's login, then the second step for an account with one (twofactor.flow).
    path("accounts/login/", LoginView.as_view(form_class=LoginForm), name="login"),
    path("accounts/2fa/", include("twofactor.urls")),  # two-step sign-in
    # /accounts/export/, /accounts/delete/ (a person's data), /privacidade/, /termos/
    path("", include("privacy.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
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
