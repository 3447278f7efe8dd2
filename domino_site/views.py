"""Project-level views: the health check, the sign-up page and the web manifest."""

import asyncio
import logging

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import login
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts import services as accounts_services
from accounts.errors import AccountError
from accounts.mail import language_of
from records import selectors as records_selectors
from records import services as records_services

from .client_ip import request_ip_hash
from .forms import SignupForm

HEALTHZ_TIMEOUT_SECONDS = 2.0

log = logging.getLogger(__name__)


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        row = cursor.fetchone()
    if row is None or row[0] != 1:
        raise RuntimeError(f"unexpected result {row!r}")


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await asyncio.wait_for(layer.receive(channel), HEALTHZ_TIMEOUT_SECONDS)
    if message.get("type") != "healthz.ping":
        raise RuntimeError(f"unexpected message {message!r}")


@never_cache
@require_GET
async def healthz(request):
    """200 ``{"status": "ok", ...}`` when the database answers a query and the
    channel layer delivers a message to itself, else 503 with ``"failed"`` for
    the check that did not pass. For load balancers, so it says no more than
    that: the reason (which names hosts and ports) goes to the log only."""
    checks = {"database": _check_database_async, "channel_layer": _check_channel_layer}
    result = {}
    for name, check in checks.items():
        try:
            await check()
        except Exception:
            log.exception("healthz: the %s check failed", name)
            result[name] = "failed"
        else:
            result[name] = "ok"
    ok = all(value == "ok" for value in result.values())
    return JsonResponse({"status": "ok" if ok else "failed", **result}, status=200 if ok else 503)


async def _check_database_async() -> None:
    await sync_to_async(_check_database)()


def signup(request: HttpRequest) -> HttpResponse:
    """``/accounts/signup/``: username and password (Django auth), and an
    optional email address (a confirmation link goes to it after the commit),
    then logged in."""
    next_url = request.POST.get("next") or request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
        next_url = "/"
    if request.user.is_authenticated:
        return redirect(next_url)
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        ip_hash = request_ip_hash(request)
        if _signups_exhausted(ip_hash):
            form.add_error(None, _("Too many accounts were created from your address: try later."))
            context = {"form": form, "next": next_url}
            return render(request, "registration/signup.html", context, status=429)
        if form.is_valid():
            try:
                with transaction.atomic():
                    user = form.save()
                    records_services.signup_recorded(ip_hash=ip_hash)
                    if form.cleaned_data.get("email"):
                        accounts_services.email_add(
                            user=user,
                            email=form.cleaned_data["email"],
                            language=language_of(get_language()),
                        )
            except AccountError as exc:  # the address was taken meanwhile: nothing was kept
                form.add_error("email", exc.message)
                context = {"form": form, "next": next_url}
                return render(request, "registration/signup.html", context, status=400)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(next_url)
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


# Light and dark: the page's header colour in each theme (static/css/site.css).
THEME_COLORS = {"light": "#0a3622", "dark": "#06140d"}


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web manifest (docs/table-feel.md): "Add to Home screen" opens the
    site full-screen, with the project's icons (static/icons)."""
    icons = [
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/icon-maskable-192.png"),
            "sizes": "192x192",
            "type": "image/png",
            "purpose": "maskable",
        },
        {
            "src": static("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "id": "/",
        "name": gettext("Dominoes"),
        "short_name": gettext("Dominoes"),
        "description": gettext("Dominoes: play with friends, strangers and bots."),
        "lang": get_language() or "pt-br",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": THEME_COLORS["light"],
        "theme_color": THEME_COLORS["light"],
        "icons": icons,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "public, max-age=86400"
    return response


def _signups_exhausted(ip_hash: str) -> bool:
    """Accounts signed up from this address (settings: ``SIGNUP_LIMIT_PER_ADDRESS``
    per ``SIGNUP_WINDOW``): the address-wide throttle of sign-ups."""
    since = timezone.now() - settings.SIGNUP_WINDOW
    return records_selectors.signups_from(ip_hash, since=since) >= settings.SIGNUP_LIMIT_PER_ADDRESS
