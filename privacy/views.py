"""A person's data on the site (docs/site.md, "Your data (LGPD)";
docs/protocol.md, "HTTP"): ``GET /accounts/export/`` (the copy, one JSON
file), ``GET``/``POST /accounts/delete/`` (the deletion), and the privacy notice
(``/privacidade/``) and terms (``/termos/``) in the viewer's language."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from domino_site.guests import GUEST_COOKIE
from games.errors import ServiceError
from games.world import world

from . import selectors, services
from .forms import DeleteAccountForm


def export_response(user) -> HttpResponse:
    """The copy of ``user``'s data as one JSON file to download."""
    now = world().now()
    body = json.dumps(
        selectors.account_export(user, now=now),
        cls=DjangoJSONEncoder,
        ensure_ascii=False,
        indent=1,
    )
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"dominoes-data-{user.pk}-{now:%Y%m%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@never_cache
@require_GET
@login_required
def export(request: HttpRequest) -> HttpResponse:
    """``GET /accounts/export/``: everything the site keeps about the signed-in
    person; 429 past `settings.PRIVACY_EXPORT_LIMIT` copies in the window."""
    try:
        services.export_taken(user=request.user)
    except ServiceError as exc:
        context = {"message": exc.message}
        return render(request, "privacy/refused.html", context, status=429)
    return export_response(request.user)


@never_cache
@require_http_methods(["GET", "POST"])
@login_required
def delete(request: HttpRequest) -> HttpResponse:
    """``GET /accounts/delete/``: what a deletion does; ``POST`` with the password
    and the confirmation: the account is removed and this browser signed out.
    A wrong password or no confirmation shows the page again (400), changing
    nothing."""
    form = DeleteAccountForm(request.POST or None, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            try:
                services.account_delete(user=request.user)
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                logout(request)
                return redirect("privacy:deleted")
        return render(request, "privacy/delete.html", {"form": form}, status=400)
    return render(request, "privacy/delete.html", {"form": form})


@require_GET
def deleted(request: HttpRequest) -> HttpResponse:
    """Where a deletion ends: the account is gone."""
    return render(request, "privacy/deleted.html")


def _in_language(name: str) -> str:
    return f"privacy/{name}_{'en' if (get_language() or '').startswith('en') else 'pt'}.html"


@require_GET
def notice(request: HttpRequest) -> HttpResponse:
    """``/privacidade/``: what the site keeps, why, for how long, who sees it, the
    cookies, how to ask for a copy or a deletion."""
    context = {
        "address_days": settings.PRIVACY_ADDRESS_DAYS,
        "request_days": settings.PRIVACY_REQUEST_DAYS,
        "login_failure_days": services.LOGIN_FAILURE_DAYS,
        "name_hold_days": services.NAME_HOLD.days,
        "mail_keep_days": settings.MAIL_KEEP_DAYS,
        "export_limit": settings.PRIVACY_EXPORT_LIMIT,
        "contact": settings.PRIVACY_CONTACT,
        "session_cookie": settings.SESSION_COOKIE_NAME,
        "csrf_cookie": settings.CSRF_COOKIE_NAME,
        "language_cookie": settings.LANGUAGE_COOKIE_NAME,
        "guest_cookie": GUEST_COOKIE,
        "body": _in_language("notice"),
    }
    return render(request, "privacy/notice.html", context)


@require_GET
def terms(request: HttpRequest) -> HttpResponse:
    """``/termos/``: the terms of use."""
    return render(request, "privacy/terms.html", {"body": _in_language("terms")})
