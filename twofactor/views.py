"""The two-step pages under ``/accounts/2fa/`` and the site's login
(docs/protocol.md, "HTTP"; docs/site.md, "Two-step sign-in"). Thin: the
forms check the input, the services write, `twofactor.flow` holds the
half-signed-in state."""

from __future__ import annotations

from urllib.parse import urlencode

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_lockout_response
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from . import flow, selectors, services
from .forms import CodeForm, EnrolForm, PasswordCodeForm, PasswordForm
from .services import TwoFactorError

NEW_CODES = "twofactor_new_codes"


class LoginView(auth_views.LoginView):
    """Django's login (django-axes throttles the password), ending in
    `twofactor.flow.sign_in`: an account with two-step sign-in goes on to
    the second step instead of being signed in."""

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        return flow.sign_in(self.request, form.get_user(), next_url=self.get_success_url())


def _safe_next(request: HttpRequest, default: str = "/") -> str:
    target = request.POST.get("next") or request.GET.get("next") or default
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return default


@never_cache
@sensitive_post_parameters("code")
def verify(request: HttpRequest) -> HttpResponse:
    """``/accounts/2fa/verify/``: the second step. For the account that gave
    its password in this session, or a signed-in account with two-step
    sign-in whose session has not given a code (signed in before it was
    turned on elsewhere; the admin sends such staff here). A wrong code is
    a failed login for django-axes (the same counts and limits as a wrong
    password), and django-otp's back-off slows the device down."""
    state = flow.pending(request)
    if state is not None:
        user, next_url = state
    elif (
        request.user.is_authenticated
        and not selectors.request_verified(request)
        and selectors.has_two_factor(request.user)
    ):
        user, next_url = request.user, _safe_next(request)
    elif request.user.is_authenticated:
        return redirect(_safe_next(request))
    else:
        return redirect("login")
    form = CodeForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        credentials = {"username": user.get_username()}
        if not AxesProxyHandler.is_allowed(request, credentials):
            return get_lockout_response(request, None, credentials)
        try:
            device = services.code_check(user=user, code=form.cleaned_data["code"])
        except TwoFactorError as refused:
            form.add_error("code", refused.message)
            # Counted by django-axes; at the limit its middleware answers 429.
            user_login_failed.send(sender=__name__, credentials=credentials, request=request)
        else:
            flow.finish(request, user, device)
            return HttpResponseRedirect(next_url)
    return render(
        request,
        "twofactor/verify.html",
        {"form": form, "next": next_url if state is None else "", "username": user.get_username()},
    )


@login_required
@never_cache
def overview(request: HttpRequest) -> HttpResponse:
    """``/accounts/2fa/``: on or off, the recovery codes left, what to do."""
    user = request.user
    return render(
        request,
        "twofactor/overview.html",
        {
            "on": selectors.has_two_factor(user),
            "app": selectors.has_app(user),
            "codes_left": selectors.recovery_codes_left(user),
        },
    )


@login_required
@never_cache
@sensitive_post_parameters("password", "code")
def enrol(request: HttpRequest) -> HttpResponse:
    """``/accounts/2fa/enrol/``: the secret (a QR code and as text) and the
    form that turns it on with the password and the app's first code."""
    try:
        device = services.app_pending(user=request.user)
    except TwoFactorError:
        return redirect("twofactor:overview")
    form = EnrolForm(request.POST if request.method == "POST" else None, request=request)
    if form.is_valid():
        try:
            device, codes = services.app_confirm(user=request.user, code=form.cleaned_data["code"])
        except TwoFactorError as refused:
            form.add_error("code", refused.message)
        else:
            flow.finish(request, request.user, device)  # this session gave the code
            request.session[NEW_CODES] = codes
            return redirect("twofactor:codes")
    return render(
        request,
        "twofactor/enrol.html",
        {
            "form": form,
            "secret": selectors.secret_text(device),
            "qr": selectors.qr_data_url(device),
        },
    )


@login_required
@never_cache
def codes(request: HttpRequest) -> HttpResponse:
    """``/accounts/2fa/codes/``: the new recovery codes, shown once (the
    session holds them until this page is shown)."""
    new = request.session.pop(NEW_CODES, None)
    if not new:
        return redirect("twofactor:overview")
    return render(request, "twofactor/codes.html", {"codes": new})


@login_required
@never_cache
@sensitive_post_parameters("password")
def regenerate(request: HttpRequest) -> HttpResponse:
    """``/accounts/2fa/codes/new/``: new recovery codes (the password first);
    the old ones stop working."""
    if not selectors.has_two_factor(request.user):
        return redirect("twofactor:overview")
    form = PasswordForm(request.POST if request.method == "POST" else None, request=request)
    if form.is_valid():
        request.session[NEW_CODES] = services.recovery_codes_renew(user=request.user)
        return redirect("twofactor:codes")
    return render(request, "twofactor/regenerate.html", {"form": form})


@login_required
@never_cache
@sensitive_post_parameters("password", "code")
def disable(request: HttpRequest) -> HttpResponse:
    """``/accounts/2fa/disable/``: turn it off, with the password and a code
    (the app's or a recovery code)."""
    if not selectors.has_two_factor(request.user):
        return redirect("twofactor:overview")
    form = PasswordCodeForm(request.POST if request.method == "POST" else None, request=request)
    if form.is_valid():
        try:
            services.code_check(user=request.user, code=form.cleaned_data["code"])
        except TwoFactorError as refused:
            form.add_error("code", refused.message)
        else:
            services.two_factor_off(user=request.user)
            return redirect("twofactor:overview")
    return render(request, "twofactor/disable.html", {"form": form})


def admin_refusal(request: HttpRequest, next_url: str) -> HttpResponse:
    """What the admin answers staff signed in without a second factor: the
    second step when the account has one, else a page that says to turn it on."""
    if selectors.has_two_factor(request.user):
        return redirect(f"{reverse('twofactor:verify')}?{urlencode({'next': next_url})}")
    return render(request, "twofactor/admin_required.html", status=403)
