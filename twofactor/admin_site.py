"""The admin site (``admin.site``, through `twofactor.apps.TwoFactorAdminConfig`):
Django's, except that when ``DEBUG`` is off staff enter only from a session
that gave a second factor (`twofactor.selectors.admin_requires_second_factor`),
and its login form ends in the two steps as the site's does."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _

from . import selectors


class TwoFactorAdminSite(admin.AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        if not super().has_permission(request):
            return False
        return not selectors.admin_requires_second_factor() or selectors.request_verified(request)

    def login(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        """Django's admin login, through the site's two steps
        (`twofactor.views.LoginView`); staff signed in without a second factor
        get the second step, or the page that says to turn it on."""
        from django.contrib.admin.forms import AdminAuthenticationForm

        from .views import LoginView, admin_refusal

        index_path = reverse("admin:index", current_app=self.name)
        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(index_path)
        user = request.user
        if user.is_active and user.is_staff and not self.has_permission(request):
            # (the second step checks the address it goes back to)
            return admin_refusal(request, request.GET.get(REDIRECT_FIELD_NAME) or index_path)
        context = {
            **self.each_context(request),
            "title": _("Log in"),
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": user.get_username(),
        }
        if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
            context[REDIRECT_FIELD_NAME] = index_path
        context.update(extra_context or {})
        request.current_app = self.name
        view = LoginView.as_view(
            extra_context=context,
            authentication_form=self.login_form or AdminAuthenticationForm,
            template_name=self.login_template or "admin/login.html",
        )
        return cast(HttpResponse, view(request))
