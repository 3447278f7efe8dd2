"""The Conta page and its forms, the email confirmation link, and password
recovery (Django's views with the site's form, limits and templates).
docs/protocol.md, "Accounts"."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from domino_site.client_ip import request_ip_hash
from people import challenges as people_challenges
from people import selectors as people_selectors
from people.models import Preferences
from twofactor.flow import MODEL_BACKEND, sign_in

from . import selectors, services
from .errors import AccountError
from .forms import AccountPasswordChangeForm, EmailForm, RecoveryForm, RecoverySetPasswordForm
from .mail import language_of
from .sessions import session_end, session_ref, sessions_end_others
from .signals import conta_parts


def _parts(request: HttpRequest) -> Any:
    """The apps above's sections of the page (`accounts.signals.conta_parts`)."""
    answers = conta_parts.send(sender=None, request=request, user=request.user)
    return format_html_join("", "{}", ((mark_safe(html),) for _, html in answers if html))


def _password_form(user: Any, data: Any = None) -> AccountPasswordChangeForm:
    form = AccountPasswordChangeForm(user, data)
    form.fields["old_password"].widget.attrs.pop("autofocus", None)  # one section of many
    return form


def _conta(
    request: HttpRequest,
    *,
    email_form: EmailForm | None = None,
    password_form: AccountPasswordChangeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request.user
    current = request.session.session_key
    now = timezone.now()
    sessions = [
        {
            "row": row,
            "current": row.session_key == current,
            "ref": session_ref(row.session_key),
            "recent": now - row.last_seen < timedelta(minutes=1),
        }
        for row in selectors.sessions_of(user)
    ]
    context = {
        "confirmed_email": selectors.confirmed_email(user),
        "pending": selectors.pending_email(user),
        "email_form": email_form or EmailForm(),
        "password_form": password_form or _password_form(user),
        "sessions": sessions,
        "others": sum(1 for s in sessions if not s["current"]),
        "preference": people_challenges.preference_of(user),
        "preference_choices": Preferences.Challenges.choices,
        "blocked": people_selectors.blocked_by(user),
        "friends": people_selectors.friends_of(user),
        "queue_partner": people_selectors.queue_partner_of(user),
        "parts": _parts(request),
        "next": reverse("accounts:conta"),
    }
    return render(request, "accounts/conta.html", context, status=status)


@require_GET
@login_required
def conta(request: HttpRequest) -> HttpResponse:
    """``GET /conta/``: the person's settings in one place."""
    return _conta(request)


@require_POST
@login_required
def email_add(request: HttpRequest) -> HttpResponse:
    """``POST /conta/email/``: a new address (or a change): a confirmation link
    goes to it, a notice to the confirmed one."""
    form = EmailForm(request.POST)
    if not form.is_valid():
        return _conta(request, email_form=form, status=400)
    try:
        row = services.email_add(
            user=request.user,
            email=form.cleaned_data["email"],
            language=language_of(get_language()),
        )
    except AccountError as exc:
        form.add_error("email", exc.message)
        return _conta(request, email_form=form, status=429 if exc.code == "too_many_mails" else 400)
    messages.success(
        request,
        _("We sent a confirmation link to %(email)s: open it to confirm the address.")
        % {"email": row.email},
    )
    return redirect("accounts:conta")


@require_POST
@login_required
def email_resend(request: HttpRequest) -> HttpResponse:
    """``POST /conta/email/reenviar/``: the waiting address's link again."""
    try:
        row = services.email_resend(user=request.user)
    except AccountError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("We sent the confirmation link again to %(email)s.") % {"email": row.email}
        )
    return redirect("accounts:conta")


@require_GET
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """``GET /conta/email/confirmar/<token>/``: the link of the confirmation mail."""
    try:
        row = services.email_confirm(token=token, user=request.user)
    except AccountError as exc:
        context = {"error": exc.message, "code": exc.code}
        return render(request, "accounts/email_confirmed.html", context, status=400)
    return render(request, "accounts/email_confirmed.html", {"email": row.email})


@login_required
def password_change(request: HttpRequest) -> HttpResponse:
    """``POST /conta/senha/``: a new password (Django's validators); every
    other session of the account is signed out."""
    if request.method != "POST":
        return HttpResponseRedirect(reverse("accounts:conta") + "#password")
    form = _password_form(request.user, request.POST)
    if not form.is_valid():
        return _conta(request, password_form=form, status=400)
    user = form.save()
    update_session_auth_hash(request, user)
    sessions_end_others(user=user, keep=request.session.session_key)
    messages.success(request, _("Your password was changed; your other sessions were signed out."))
    return redirect("accounts:conta")


@require_POST
@login_required
def sessions_end(request: HttpRequest) -> HttpResponse:
    """``POST /conta/sessoes/encerrar/``: sign out every other session, or the
    one named by ``session`` (its reference on the page, never its key; a
    session of this account only)."""
    current = request.session.session_key
    one = request.POST.get("session", "")
    if one:
        mine = {
            session_ref(row.session_key): row.session_key
            for row in selectors.sessions_of(request.user)
        }
        key = mine.get(one)
        if key is not None and key != current:
            session_end(session_key=key)
            messages.success(request, _("That session was signed out."))
        else:
            messages.error(request, _("There is no such session of yours."))
        return redirect("accounts:conta")
    count = sessions_end_others(user=request.user, keep=current)
    messages.success(
        request,
        _("Your other sessions were signed out.") if count else _("You have no other session."),
    )
    return redirect("accounts:conta")


class RecoveryView(auth_views.PasswordResetView):
    """``/accounts/password_reset/`` ("Esqueci minha senha"): the same answer
    whether an account has the address or not; a mail only to a confirmed
    address of an active account; limited per address typed and per client
    address (`accounts.services.recovery_request`)."""

    form_class = RecoveryForm
    template_name = "registration/password_reset_form.html"

    def form_valid(self, form: Any) -> HttpResponse:
        try:
            services.recovery_request(
                email=form.cleaned_data["email"],
                ip_hash=request_ip_hash(self.request),
                language=language_of(get_language()),
            )
        except AccountError as exc:
            form.add_error(None, exc.message)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return HttpResponseRedirect(self.get_success_url())

    def form_invalid(self, form: Any) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)


class RecoveryConfirmView(auth_views.PasswordResetConfirmView):
    """The mail's link: a new password, then signed in, every other session
    of the account signed out. An expired, used or altered link says so (400)."""

    form_class = RecoverySetPasswordForm
    # Signed in through the two-step flow, not Django's post_reset_login: an
    # account with two-step sign-in still gives its code (docs/site.md).
    post_reset_login = False
    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form: Any) -> HttpResponse:
        super().form_valid(form)  # the new password; the link's token forgotten
        response = sign_in(
            self.request, form.user, next_url=str(self.success_url), backend=MODEL_BACKEND
        )
        sessions_end_others(user=form.user, keep=self.request.session.session_key)
        return response

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        if not context.get("validlink"):
            kwargs["status"] = 400
        return super().render_to_response(context, **kwargs)
