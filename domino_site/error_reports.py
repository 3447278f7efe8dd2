"""Errors to Sentry, when ``SENTRY_DSN`` is set (docs/scaling.md, "Errors").

`start` is called once a process has its settings (``domino_site.infra``'s
``ready()``: Daphne, the Celery worker and beat, ``manage.py``). Without
``SENTRY_DSN`` it does nothing: sentry-sdk is not initialised, nothing is
patched and nothing is sent. With it: sentry-sdk with its Django, Celery and
logging integrations (an ERROR log line is an event, lower lines are
breadcrumbs), ``environment`` from ``SENTRY_ENVIRONMENT``, ``release`` the
build's version (``settings.BUILD_VERSION``: the ``BUILD_VERSION``
environment variable, else the checkout's commit), and nothing personal:

* ``send_default_pii`` off (no user's address, no cookies, no email): left
  unset, which sentry-sdk 2.75 takes as ``False`` (passing it is deprecated
  there, in favour of ``data_collection``, and would warn in every process);
  tests/site/test_error_reports.py checks the client's answer;
* no request bodies (``max_request_body_size="never"``: a form's password, email
  address or second-step code never leaves) and no frames' local variables;
* `scrub_event` (``before_send``): the request's cookies and secret headers
  dropped, the user reduced to its id, and every key and text of the event
  scrubbed as the log lines are (`domino_site.logs.scrub_value`).
"""

from __future__ import annotations

import logging
from typing import Any

from domino_site.logs import REDACTED, scrub_value

#: Request headers an event never carries.
SECRET_HEADERS = frozenset({"cookie", "authorization", "x-csrftoken", "proxy-authorization"})


def release(settings: Any) -> str | None:
    """The build's version, ``settings.BUILD_VERSION`` (the ``BUILD_VERSION``
    environment variable, else the checkout's commit; domino_site/build.py)."""
    value = settings.BUILD_VERSION
    return str(value).strip() or None if value else None


def scrub_event(event: dict[str, Any], hint: Any = None) -> dict[str, Any]:
    """``before_send``: the event without cookies, secret headers, bodies,
    the user's identity beyond its id, or anything that looks like a secret or
    an email address."""
    request = event.get("request")
    if isinstance(request, dict):
        request.pop("cookies", None)
        request.pop("data", None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            request["headers"] = {
                name: (REDACTED if name.lower() in SECRET_HEADERS else value)
                for name, value in headers.items()
            }
    user = event.get("user")
    if isinstance(user, dict):
        event["user"] = {"id": user["id"]} if "id" in user else {}
    return {key: scrub_value(key, value) for key, value in event.items()}


def start(settings: Any) -> bool:
    """sentry-sdk initialised from ``settings`` when ``SENTRY_DSN`` is set; whether it was."""
    dsn = getattr(settings, "SENTRY_DSN", "")
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.logging import LoggingIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=getattr(settings, "SENTRY_ENVIRONMENT", None) or "production",
        release=release(settings),
        max_request_body_size="never",
        include_local_variables=False,
        traces_sample_rate=getattr(settings, "SENTRY_TRACES_SAMPLE_RATE", 0.0) or 0.0,
        before_send=scrub_event,  # type: ignore[arg-type]
        integrations=[
            DjangoIntegration(),
            CeleryIntegration(),
            LoggingIntegration(level=logging.INFO, event_level=logging.ERROR),
        ],
    )
    return True
