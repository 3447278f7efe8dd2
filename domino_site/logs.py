"""The site's logs: one JSON object a line in production, the ids of what a line
is about, and nothing secret in any of them (docs/scaling.md, "Logs").

* **Format** (``LOG_FORMAT``): ``json`` (the default when ``DEBUG`` is off) writes
  one JSON object a line to standard error, through python-json-logger's
  formatter (docs/decisions.md, "Logs as JSON lines, errors to Sentry"); ``text``
  (the default with ``DEBUG``, so ``make run`` and the tests) one readable line.
  Every process logs through the one configuration `logging_config` builds:
  Daphne and Django (``settings.LOGGING``), the Celery worker and beat (their
  ``setup_logging`` signal, `domino_site.celery`), the consumers and tasks.
* **Ids** (`bind`, `bound`): a context variable holds the ids of what the code
  is working on (``request_id``, ``room``, ``round_id``, a task's name and id),
  and `ContextFilter` puts them on every line written meanwhile, in worker
  threads too (asgiref copies the context into them). `RequestIdMiddleware`
  binds a request's id (a trusted proxy's ``X-Request-ID``, else a new one) and
  answers it in the response's ``X-Request-ID``; `SocketLogContext` does the
  same for a WebSocket, whose consumer binds its room; the Celery tasks and the
  timers' jobs bind the round they run for.
* **Redaction** (`RedactFilter`, on every handler, and `scrub_text` for the
  error reports of `domino_site.error_reports`): keys that name a secret
  (password, token, secret, session, cookie, CSRF, OTP, authorization...) lose
  their values; in any text, email addresses, ``key=value`` pairs with such
  keys, ``Bearer``/``Basic`` credentials, a URL's password, the secrets of a
  password-recovery or email-confirmation link, strings shaped like a session
  key, and the configured secrets themselves (``SECRET_KEY``, the mail, database
  and Redis passwords, ...) are replaced.

This module imports no app and nothing of Django at import time (the settings
import it to build ``LOGGING``).
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import sys
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter

REDACTED = "[redacted]"
EMAIL = "[email]"

#: The header a trusted proxy names a request with, and the response answers.
REQUEST_ID_HEADER = "X-Request-ID"
#: What an incoming request id may look like (else a new one is made).
REQUEST_ID_SHAPE = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")

# ------------------------------------------------------------------ the ids

_ids: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar(
    "domino_log_ids", default=MappingProxyType({})
)

#: The ids a line may carry, in the order they are written (they are never
#: scrubbed: the code binds them, and a request id from outside is checked).
ID_FIELDS = ("request_id", "room", "round_id", "arena_id", "task", "task_id")


def current_ids() -> dict[str, Any]:
    """The ids bound in this context."""
    return dict(_ids.get())


def bind(**ids: Any) -> contextvars.Token[Mapping[str, Any]]:
    """Add ``ids`` (those not None) to this context's until `unbind` (or the end
    of the task or thread context: a socket's consumer binds its room once)."""
    return _ids.set({**_ids.get(), **{k: v for k, v in ids.items() if v is not None}})


def unbind(token: contextvars.Token[Mapping[str, Any]]) -> None:
    _ids.reset(token)


@contextmanager
def bound(**ids: Any) -> Iterator[None]:
    """``with bound(round_id=7): ...``: the ids for the block."""
    token = bind(**ids)
    try:
        yield
    finally:
        unbind(token)


def new_request_id() -> str:
    return str(uuid.uuid4())


def request_id_from(value: str | None, peer: str | None) -> str:
    """The id of a request or socket: ``value`` (its ``X-Request-ID``) when the
    connection comes from one of ``TRUSTED_PROXIES`` and the value is a plain
    token, else a new one (a client cannot put what it likes into the logs)."""
    if value and REQUEST_ID_SHAPE.match(value):
        from domino_site.client_ip import from_trusted_proxy

        if from_trusted_proxy(peer):
            return value
    return new_request_id()


class ContextFilter(logging.Filter):
    """Puts the bound ids (`bind`) on the record, as attributes."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _ids.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


# ---------------------------------------------------------------- redaction

#: A key whose value is a secret, or personal (an email address).
SENSITIVE_KEY = re.compile(
    r"passw|passphrase|(?<![a-z])pass(?![a-z])|secret|token|csrf|session|cookie|authori[sz]ation|otp|totp|"
    r"api[_-]?key|private|signature|dsn|credential|e-?mail",
    re.IGNORECASE,
)
_SENSITIVE_NAMES = (
    r"[\w-]*(?:pass(?:word|wd)|secret|token|csrf[\w-]*|sessionid|session[_-]?key|cookie|"
    r"authori[sz]ation|otp[_-]?\w*|totp|api[_-]?key|dsn)[\w-]*"
)


def _session_key_shape(match: re.Match[str]) -> str:
    word = match.group(0)
    has_digit = any(c.isdigit() for c in word)
    return REDACTED if has_digit and not word.isdigit() else word


#: Each rule: a cheap test that the text may hold what the pattern looks for
#: (most lines hold none of it, and skip the pattern), the pattern, and what
#: replaces a match.
_PATTERNS: tuple[tuple[re.Pattern[str], re.Pattern[str], Any], ...] = (
    # A URL's password: scheme://user:password@host
    (
        re.compile("://"),
        re.compile(r"(?P<head>\b[a-z][a-z0-9+.-]*://[^\s:/@]*:)[^\s@/]+(?=@)", re.I),
        r"\g<head>" + REDACTED,
    ),
    # HTTP credentials: "Bearer abc", "Basic dXNlcjpw"
    (
        re.compile("bearer|basic|token", re.I),
        re.compile(r"\b(?P<head>(?:Bearer|Basic|Token)\s+)[A-Za-z0-9._~+/=-]+", re.I),
        r"\g<head>" + REDACTED,
    ),
    # key=value, key: value, "key": "value", 'key': 'value' with a secret's key
    (
        re.compile(r"pass|secret|token|csrf|session|cookie|authori|otp|api.?key|dsn", re.I),
        re.compile(
            r"(?P<head>(?<![\w-])"
            + _SENSITIVE_NAMES
            + r"""["']?\s*[:=]\s*["']?)(?!\[redacted\]|(?:Bearer|Basic|Token)\s)[^\s"',;&}\]]+""",
            re.I,
        ),
        r"\g<head>" + REDACTED,
    ),
    # An email address
    (
        re.compile("@"),
        re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"),
        EMAIL,
    ),
    # The secrets of a password-recovery link (/accounts/reset/<uidb64>/<token>/)
    # and of an email's confirmation link (/conta/email/confirmar/<signed>/)
    (
        re.compile("/reset/"),
        re.compile(r"(?P<head>/reset/)[^/\s'\"?#]+/[^/\s'\"?#]+"),
        r"\g<head>" + REDACTED + "/" + REDACTED,
    ),
    (
        re.compile("/confirmar/"),
        re.compile(r"(?P<head>/confirmar/)[^/\s'\"?#]+"),
        r"\g<head>" + REDACTED,
    ),
    # A session key's shape: 32 lower-case letters and digits, both present
    (re.compile(r"[a-z0-9]{32}"), re.compile(r"\b[a-z0-9]{32}\b"), _session_key_shape),
)


_secrets: tuple[str, ...] | None = None


def configured_secrets() -> tuple[str, ...]:
    """The secret values of the settings (read once Django's settings are
    loaded; none before): they are replaced wherever they appear."""
    global _secrets
    if _secrets is not None:
        return _secrets
    from django.conf import settings

    if not settings.configured:  # not loaded yet: nothing to read, nothing kept
        return ()
    values = [
        getattr(settings, "SECRET_KEY", ""),
        getattr(settings, "EMAIL_HOST_PASSWORD", ""),
        getattr(settings, "METRICS_TOKEN", ""),
        getattr(settings, "SENTRY_DSN", ""),
    ]
    for url in (getattr(settings, "REDIS_URL", ""), _database_password(settings)):
        if url and "://" in url:
            values.append(urlsplit(url).password or "")
        elif url:
            values.append(url)
    dsn = getattr(settings, "SENTRY_DSN", "")
    if dsn:
        values.append(urlsplit(dsn).username or "")
    # Longest first: a secret that contains another is replaced whole.
    _secrets = tuple(sorted({v for v in values if v and len(v) >= 8}, key=len, reverse=True))
    return _secrets


def _database_password(settings: Any) -> str:
    try:
        return str(settings.DATABASES["default"].get("PASSWORD") or "")
    except (AttributeError, KeyError):
        return ""


def scrub_text(text: str) -> str:
    """``text`` without anything that looks like a secret or an email address.

    >>> scrub_text("login of ana@example.com with password=hunter22; ok")
    'login of [email] with password=[redacted]; ok'
    >>> scrub_text("GET /accounts/reset/MQ/cd1x3k-0f3a9b/ 404")
    'GET /accounts/reset/[redacted]/[redacted]/ 404'
    >>> scrub_text("redis://:s3cret@redis:6379/0 and Authorization: Bearer abc.def")
    'redis://:[redacted]@redis:6379/0 and Authorization: Bearer [redacted]'
    """
    if not text:
        return text
    for secret in configured_secrets():
        if secret in text:
            text = text.replace(secret, REDACTED)
    for maybe, pattern, replacement in _PATTERNS:
        if maybe.search(text):
            text = pattern.sub(replacement, text)
    return text


def scrub_value(key: str, value: Any, depth: int = 0) -> Any:
    """A value of a record or an event under ``key``, scrubbed: a secret's key
    loses its value; texts, mappings and sequences are scrubbed through."""
    if SENSITIVE_KEY.search(str(key)) and value not in (None, "", [], {}):
        return REDACTED
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return scrub_text(value)
    if depth > 8:
        return REDACTED
    if isinstance(value, Mapping):
        return {k: scrub_value(k, v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [scrub_value(key, v, depth + 1) for v in value]
    return scrub_text(str(value))


#: The attributes every record has (not "extra" fields).
_STANDARD = frozenset(RESERVED_ATTRS) | {"message", "asctime", "redacted"} | set(ID_FIELDS)


class RedactFilter(logging.Filter):
    """Scrubs a record in place, once (`scrub_text`, `scrub_value`): its message
    (formatted with its arguments), its extra fields and its traceback's text.
    The traceback itself (``exc_info``) stays for the error reports, which scrub
    their own (`domino_site.error_reports`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "redacted", False):
            return True
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string: log what there is
            message = f"{record.msg!r} {record.args!r}"
        record.msg, record.args = scrub_text(message), None
        for key, value in list(record.__dict__.items()):
            if key not in _STANDARD:
                record.__dict__[key] = scrub_value(key, value)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub_text(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub_text(record.stack_info)
        record.redacted = True
        return True


# --------------------------------------------------------------- formatters


def process_name() -> str:
    """What this process is: honcho's name for it (``web.1``), else its program
    and command (``daphne``, ``celery worker``)."""
    named = os.environ.get("HONCHO_PROCESS_NAME")
    if named:
        return named
    program = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
    words = [a for a in sys.argv[1:] if a in {"worker", "beat", "runserver", "migrate", "shell"}]
    return " ".join([program, *words[:1]])


class JsonLines(JsonFormatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``, ``process`` and ``pid``, the bound ids, the record's extra
    fields, and ``exc_info`` (the traceback's text, scrubbed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger"})
        kwargs.setdefault("timestamp", "time")
        kwargs.setdefault("static_fields", {"process": process_name()})
        kwargs.setdefault("reserved_attrs", [*RESERVED_ATTRS, "redacted", "request"])
        kwargs.setdefault("json_ensure_ascii", False)
        super().__init__("%(levelname)s %(name)s %(message)s", *args, **kwargs)

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        fields: dict[str, Any] = {}
        super().add_fields(fields, record, message_dict)
        fields["pid"] = record.process
        # The time, level, logger, message and ids first, as a reader scans them.
        for key in ("time", "level", "logger", "message", *ID_FIELDS):
            if key in fields:
                log_data[key] = fields.pop(key)
        log_data.update(fields)

    def formatException(self, ei: Any) -> str:  # type: ignore[override]
        return scrub_text(str(super().formatException(ei)))


class TextLines(logging.Formatter):
    """``make run``'s lines: time, level, logger, the bound ids, the message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(ids)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        ids = [f"{key}={getattr(record, key)}" for key in ID_FIELDS if hasattr(record, key)]
        record.ids = f" [{' '.join(ids)}]" if ids else ""
        return super().format(record)


def logging_config(*, fmt: str, level: str = "INFO") -> dict[str, Any]:
    """``settings.LOGGING``: one handler on the root logger, with the ids and the
    redaction, JSON lines (``fmt="json"``) or text lines (``"text"``) to
    standard error. Django's own handlers are replaced (its loggers
    propagate to the root), and in JSON the site's access lines are on
    (``domino_site.access``: Daphne's own access log is plain text, and off in
    the Procfile)."""
    json_lines = fmt == "json"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "ids": {"()": "domino_site.logs.ContextFilter"},
            "redact": {"()": "domino_site.logs.RedactFilter"},
        },
        "formatters": {
            "json": {"()": "domino_site.logs.JsonLines"},
            "text": {"()": "domino_site.logs.TextLines"},
        },
        "handlers": {
            "site": {
                "class": "logging.StreamHandler",
                # Standard error: standard output stays the commands' own
                # (manage.py dumpdata > file must not get log lines).
                "stream": "ext://sys.stderr",
                "formatter": "json" if json_lines else "text",
                "filters": ["ids", "redact"],
            }
        },
        "root": {"handlers": ["site"], "level": level},
        "loggers": {
            "django": {"handlers": [], "level": level, "propagate": True},
            "django.server": {"handlers": [], "level": level, "propagate": True},
            "domino_site.access": {"level": "INFO" if json_lines else "WARNING"},
        },
    }


def apply_config(config: dict[str, Any]) -> None:
    """Configure logging with ``config`` (`logging_config`'s); in JSON, Python's
    warnings and an uncaught exception's traceback become log lines too."""
    import logging.config

    logging.config.dictConfig(config)
    handler = config["handlers"]["site"]
    if handler["formatter"] == "json":
        logging.captureWarnings(True)
        sys.excepthook = _log_uncaught


def _log_uncaught(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, exc, tb)
        return
    logging.getLogger("domino_site").critical("uncaught exception", exc_info=(kind, exc, tb))


# --------------------------------------------------------- requests, sockets

access_log = logging.getLogger("domino_site.access")


class RequestIdMiddleware:
    """First in ``MIDDLEWARE``: binds the request's id (`request_id_from`) for
    everything the request logs, answers it in ``X-Request-ID``, and writes the
    access line (``domino_site.access``: method, path without its query,
    status, milliseconds; no client address, no query string)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: Any) -> Any:
        if self.is_async:
            return self.__acall__(request)
        token, started = self._start(request)
        try:
            response = self.get_response(request)
            self._finish(request, response, started)
        finally:
            unbind(token)
        return response

    async def __acall__(self, request: Any) -> Any:
        token, started = self._start(request)
        try:
            response = await self.get_response(request)
            self._finish(request, response, started)
        finally:
            unbind(token)
        return response

    @staticmethod
    def _start(request: Any) -> tuple[contextvars.Token[Mapping[str, Any]], float]:
        request.request_id = request_id_from(
            request.META.get("HTTP_X_REQUEST_ID"), request.META.get("REMOTE_ADDR")
        )
        return bind(request_id=request.request_id), time.monotonic()

    @staticmethod
    def _finish(request: Any, response: Any, started: float) -> None:
        response[REQUEST_ID_HEADER] = request.request_id
        if access_log.isEnabledFor(logging.INFO):
            duration = round((time.monotonic() - started) * 1000, 1)
            access_log.info(
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": duration,
                },
            )


class SocketLogContext:
    """ASGI middleware for WebSockets: binds the socket's id (its trusted
    ``X-Request-ID``, else a new one) for everything its consumer logs; the
    consumer adds its room (`bind`). A socket is one task: the ids last as
    long as it does."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        header = None
        for name, value in scope.get("headers") or ():
            if name.lower() == b"x-request-id":
                header = value.decode("latin-1")
        client = scope.get("client") or (None,)
        token = bind(request_id=request_id_from(header, client[0]))
        try:
            return await self.app(scope, receive, send)
        finally:
            unbind(token)


# --------------------------------------------------------------------- mail


class UnsentMailBackend:
    """Production without ``EMAIL_HOST``: Django's console backend would write
    each message, its recipient and its links (a recovery link is a secret)
    into the log stream. This one writes a line that says a message was not
    sent, and how many, and nothing of them."""

    def __init__(self, fail_silently: bool = False, **kwargs: Any) -> None:
        self.fail_silently = fail_silently

    def open(self) -> bool:
        return True

    def close(self) -> None:
        return None

    def __enter__(self) -> UnsentMailBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def send_messages(self, messages: Any) -> int:
        count = len(list(messages or ()))
        logging.getLogger("domino_site.mail").warning(
            "EMAIL_HOST is not set: %d message(s) not sent", count
        )
        return count
