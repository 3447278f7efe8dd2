"""``/metrics`` (Prometheus' text format) and the admin's "Saúde do site"
(docs/scaling.md, "Metrics"; docs/site.md, "Admin")."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from domino_site.client_ip import client_ip, parse_address
from domino_site.metrics import CONTENT_TYPE_LATEST, exposition
from operations import selectors
from operations.metrics import HealthCollector


def _loopback(text: str | None) -> bool:
    address = parse_address(text)
    return address is not None and address.is_loopback


def from_this_host(request: HttpRequest) -> bool:
    """The connection comes from a loopback address, the client it stands for
    (`domino_site.client_ip`: behind a trusted proxy, the forwarded one) too,
    and no forwarding header names another: a proxy on this host passing a
    stranger's request on is not this host, whether it is trusted or not."""
    if not _loopback(request.META.get("REMOTE_ADDR")) or not _loopback(client_ip(request)):
        return False
    if request.META.get("HTTP_FORWARDED"):  # RFC 7239: forwarded for someone
        return False
    for header in ("HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP"):
        for hop in (request.META.get(header) or "").split(","):
            if hop.strip() and not _loopback(hop):
                return False
    return True


def has_token(request: HttpRequest) -> bool:
    """``Authorization: Bearer <METRICS_TOKEN>``, compared in constant time."""
    token = getattr(settings, "METRICS_TOKEN", "")
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, given = header.partition(" ")
    if not token or scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Every process's metrics and the site's readings; 403 with nothing else
    to anyone but this host and the token's bearer."""
    if not (from_this_host(request) or has_token(request)):
        return HttpResponse("403 Forbidden\n", status=403, content_type="text/plain")
    return HttpResponse(exposition([HealthCollector()]), content_type=CONTENT_TYPE_LATEST)


def _health(request: HttpRequest) -> HttpResponse:
    health = selectors.site_health()
    context = {
        **admin.site.each_context(request),
        "title": _("Site health"),
        "health": health,
        "refresh_seconds": 10,
    }
    return TemplateResponse(request, "admin/operations/health.html", context)


#: The admin's "Saúde do site": staff only (the admin's own check, which asks
#: for the second factor when DEBUG is off), refreshed every few seconds.
health = never_cache(admin.site.admin_view(_health))
