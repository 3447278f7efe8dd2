"""Django settings for the dominoes site.

Everything that differs between a laptop and production comes from the
environment (see README.md, "Production"):

* ``DATABASE_URL``  -- default: SQLite file ``db.sqlite3`` at the project root.
* ``REDIS_URL``     -- if set: Redis channel layer, Celery broker and Django's
                       cache (``DOMINO_CACHE_PREFIX``, default ``domino``);
                       otherwise the in-memory channel layer and cache.
* ``DOMINO_SCHEDULER`` -- ``celery`` (default when ``REDIS_URL`` is set) or
                       ``inprocess`` (always when ``REDIS_URL`` is unset).
* ``DOMINO_SWEEP_SECONDS`` -- how often the sweeper (the timers' safety net)
                       runs, in beat and in the in-process ticker alike (5).
* ``DEBUG`` (off unless set: ``make run`` and the tests turn it on),
  ``SECRET_KEY`` (required and checked when ``DEBUG`` is off), ``ALLOWED_HOSTS``,
  ``CSRF_TRUSTED_ORIGINS``, ``BOT_DELAY_SECONDS``, ``QUICK_BOTS_AFTER``.
* ``DOMINO_HTTPS`` (default: on when ``DEBUG`` is off) -- HTTPS redirect, HSTS
  and secure cookies; ``HSTS_SECONDS``, ``HSTS_INCLUDE_SUBDOMAINS``, ``HSTS_PRELOAD``.
* ``SITE_URL`` (the site's own address, for links in mail), ``EMAIL_HOST``,
  ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
  ``EMAIL_USE_TLS``, ``DEFAULT_FROM_EMAIL`` -- mail (unless ``EMAIL_HOST`` is
  set: printed to the console with text logs, not sent with JSON logs).
* ``DOMINO_ALIVE_TTL_SECONDS`` / ``DOMINO_ALIVE_BEAT_SECONDS`` -- how soon the
  seats of a dead web process are released (Redis layer only).
* ``LOG_FORMAT`` (``json``, the default when ``DEBUG`` is off: one JSON object a
  line on standard error; ``text`` with ``DEBUG``), ``LOG_LEVEL`` (``INFO``) --
  the logs of every process (domino_site/logs.py; docs/scaling.md, "Logs").
* ``SENTRY_DSN`` (unset: nothing is sent, sentry-sdk is not even started),
  ``SENTRY_ENVIRONMENT`` (``production``, or ``development`` with ``DEBUG``),
  ``SENTRY_TRACES_SAMPLE_RATE`` (``0``) -- error reports
  (domino_site/error_reports.py; docs/scaling.md, "Errors"); their release is
  the build's version (``BUILD_VERSION``).
* ``METRICS_TOKEN`` -- ``/metrics`` also answers a request with
  ``Authorization: Bearer <METRICS_TOKEN>`` (otherwise loopback clients only).
* ``PROMETHEUS_MULTIPROC_DIR`` -- where every process of a host writes its
  metrics for ``/metrics`` to add up (default with the Celery scheduler: a
  folder per database and Redis under the temporary folder; docs/scaling.md, "Metrics").
* ``BUILD_VERSION`` -- the build every page and socket carries (default: the
  checkout's git commit, read from .git at start, else ``dev``); a page that meets
  another build reloads itself. ``DRAIN_SECONDS`` (default 10) -- how long a
  web process told to stop (SIGTERM, ``python -m domino_site.serve``) waits for
  its sockets to go (docs/scaling.md, "Deploying").
"""

import hashlib
import os
import tempfile
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from domino_site.build import build_version
from domino_site.logs import logging_config
from domino_site.security import DEV_SECRET_KEY, secret_key_problem

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() not in {"0", "false", "no", "off"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# --- core -------------------------------------------------------------------

# Off unless the environment turns it on (DEBUG=1): `make run` does, and so do
# the tests (tests/settings.py). A deployment that forgets it runs safe.
DEBUG = env_bool("DEBUG", False)

# The published development key signs nothing unless DEBUG is on. With DEBUG off,
# SECRET_KEY must be set, long and random (no placeholder such as "change-me").
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or (DEV_SECRET_KEY if DEBUG else "")
if not DEBUG and (_key_problem := secret_key_problem(SECRET_KEY)):
    raise ImproperlyConfigured(
        f"SECRET_KEY {_key_problem}. With DEBUG off, set SECRET_KEY to a long random value, "
        "e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",  # must come first: its runserver replaces Django's (ASGI + WebSockets)
    # Django's admin on the site twofactor.admin_site.TwoFactorAdminSite: staff
    # need a second factor there when DEBUG is off (docs/site.md, "Two-step sign-in").
    "twofactor.apps.TwoFactorAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "domino_site.infra",  # its hooks (the pool's check)
    "csp",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",  # the authenticator app's device
    "django_otp.plugins.otp_static",  # the recovery codes
    "games",
    "rooms",
    "records",
    "bots",
    "analysis",  # after a round: scores each person's decisions (docs/site.md, "Round analysis")
    "arenas",  # above rooms: seats its players through the rooms' services
    "quick",  # above rooms, beside arenas: the quick-match queue seats people through the rooms' services
    "replays",  # above rooms, beside arenas and quick: the replay page, a round's JSON and analysis
    "lobby",  # above rooms, beside arenas, quick and replays: the public list, its page, API and socket
    "puzzles",  # above rooms, beside arenas, quick, replays and lobby: puzzles cut from analysed rounds
    "accounts",  # beside arenas ... puzzles, above people: email, recovery, sessions, the Conta page
    "people",  # between those four and rooms: friends, blocks, who is online (ws/people/)
    "privacy",  # above the feature apps, below timers: a person's copy of their data, deletion, notice
    "timers",  # above the others: wakes rooms' services up (docs/architecture.md, "Layers and their import contracts")
    "operations",  # the top: /metrics and the admin's "Saúde do site" read the apps below
    "twofactor",  # after django_otp's plugins: its admin replaces theirs (no secrets shown)
]

MIDDLEWARE = [
    # First: the request's id (X-Request-ID) on every line it logs, and the access line.
    "domino_site.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "domino_site.csp.SiteCSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): signed in with a second factor (django-otp).
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A signed-in request's session, for the Conta page (at most once every few minutes).
    "accounts.middleware.SessionSeenMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: it turns a locked-out login into the lockout page (django-axes).
    "axes.middleware.AxesMiddleware",
]

# --- HTTPS and headers ------------------------------------------------------------

# On when DEBUG is off, unless DOMINO_HTTPS=0 (a plain-HTTP try-out): plain-HTTP
# requests are redirected to HTTPS (except /healthz, for load balancers), HSTS
# tells browsers to come back over HTTPS only, and the session, CSRF and
# language cookies travel over HTTPS only. Behind a proxy that ends TLS, the
# proxy must set X-Forwarded-Proto (README's nginx does; Django reads it through
# SECURE_PROXY_SSL_HEADER).
HTTPS = env_bool("DOMINO_HTTPS", not DEBUG)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = HTTPS
SECURE_REDIRECT_EXEMPT = [r"^healthz/?$", r"^metrics/?$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS") or (60 * 60 * 24 * 365 if HTTPS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)

# Content-Security-Policy (django-csp), in development too, so that the browser
# tests fail on an inline script: code comes from static/js (ES modules), data
# from json_script islands (not executed), styles from static/css only (the
# page scripts set computed positions through element.style, which the policy
# allows). connect-src also gets ws(s)://<this host> per request
# (domino_site.csp). The favicon is a data: URL.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "domino_site.urls"
WSGI_APPLICATION = "domino_site.wsgi.application"
ASGI_APPLICATION = "domino_site.asgi.application"

# Messages ("Saved.", a refusal) live in the session: no "messages" cookie (the
# site sets only the cookies the privacy notice lists: docs/site.md, "Cookies").
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "domino_site.build.context",  # BUILD_VERSION, the page's meta tag
            ],
        },
    },
]

# --- database -----------------------------------------------------------------

# SQLite (the embedded default) needs BEGIN IMMEDIATE, or concurrent writers fail
# with "database is locked"; the timeout lets a writer wait for the lock.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    # Write-ahead log: readers never wait for the writer, and a commit appends
    # to the log instead of rewriting pages (synchronous=NORMAL: no fsync per
    # commit; what is committed survives a crash of the server process, only a
    # power cut may lose the last moments). The writer's lock is held for
    # milliseconds less per move, which is what the embedded server's
    # throughput is made of.
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {})
    for _key, _value in SQLITE_OPTIONS.items():
        DATABASES["default"]["OPTIONS"].setdefault(_key, _value)
    # One connection per thread, kept (health-checked): opening one (the file,
    # the PRAGMAs) for every socket call is a cost the server need not pay. DB_CONN_MAX_AGE=0 goes back to a connection per call.
    if "DB_CONN_MAX_AGE" not in os.environ:
        DATABASES["default"]["CONN_MAX_AGE"] = None

# Threads that call the database: every socket's and the in-process ticker's
# database work runs in a pool of its own (domino_site.realtime.asyncdb), this size. Few:
# a service call is mostly Python, which holds the GIL, and every extra thread
# competing for it delays the event loop that serves the sockets (bench/load.py
# measures it; bench/RESULTS.md keeps the figures).
DB_THREADS = int(os.environ.get("DB_THREADS") or (os.cpu_count() or 1) + 1)

# PostgreSQL: a psycopg connection pool per process (opening a connection per
# service call costs a saturated server dearly). Sized to the threads that use
# it, checked when lent (CONN_HEALTH_CHECKS; without a round trip unless the
# server closed the connection: a restarted server or a killed backend costs
# one retry, not an error). DB_POOL=0 falls back to per-call connections, or
# persistent ones with DB_CONN_MAX_AGE.
DB_POOL = env_bool("DB_POOL", True) and int(os.environ.get("DB_CONN_MAX_AGE", "0")) == 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DB_POOL_MAX_SIZE") or DB_THREADS + 4),
        "timeout": 10,
        "max_idle": 300,
    }

# How PostgreSQL names this process's connections (pg_stat_activity's
# application_name): the fault drills tell their servers' connections from their
# own by it (DB_APPLICATION_NAME, set by tests/scale for the servers they start).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["application_name"] = os.environ.get(
        "DB_APPLICATION_NAME", "domino"
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channels, celery, scheduling ----------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "").strip()

# Django's cache (the replay's what-if: values per position and each person's
# limit a minute, analysis.whatif_answers): shared by every process on Redis,
# so a position computed by one Daphne is an answer on the other and a limit
# is one limit; one process's memory in the embedded default.
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("DOMINO_CACHE_PREFIX", "domino"),
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "domino_site.infra.channels_redis.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # redis-py 8 times reads out after 5 s, exactly channels-redis'
                        # blocking pop (5 s): an idle socket's receive would crash
                        # with TimeoutError and close with 1011. Longer than the pop.
                        "socket_timeout": float(os.environ.get("REDIS_SOCKET_TIMEOUT", "15")),
                        "socket_connect_timeout": 5,
                        "health_check_interval": 30,
                        # redis-py's asyncio pool holds 100 connections by default: a
                        # burst of reconnecting sockets (after a restart) needs more.
                        "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "2000")),
                    }
                ],
                "capacity": 300,
                # A socket's channel is "specific.<process>!<socket>", and
                # channels-redis counts capacity per *process* inbox, shared by
                # every socket of that Daphne: under load many messages a
                # second land there, and past the capacity the layer silently
                # drops whole moves. The inbox is drained as
                # fast as the process reads; the bound only guards memory.
                "channel_capacity": {"specific.*": 50_000},
            },
        }
    }
else:
    # Works only inside one server process (and only from its event loop).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "domino_site.infra.channels.InMemoryChannelLayer",
            "CONFIG": {"capacity": 300},
        }
    }

# Redis layer only (several Daphnes): every web process refreshes a Redis key
# with this TTL every DOMINO_ALIVE_BEAT_SECONDS (default: a third of it); the
# sweeper disconnects the seats of a process whose key expired (it died without
# closing its sockets). 0 turns the check off. See domino_site/realtime/liveness.py.
DOMINO_ALIVE_TTL_SECONDS = float(os.environ.get("DOMINO_ALIVE_TTL_SECONDS") or 90)
DOMINO_ALIVE_BEAT_SECONDS = float(os.environ.get("DOMINO_ALIVE_BEAT_SECONDS") or 0) or None
# The build this process serves (domino_site/build.py): every page's meta tag and
# every socket's first frame carry it. Read once, at start.
BUILD_VERSION = build_version(BASE_DIR, os.environ)
# A web process told to stop (SIGTERM to `python -m domino_site.serve`) closes its
# port, asks every socket to come back elsewhere (close code 4013) and exits once
# they are gone, or after this many seconds (domino_site/infra/daphne.py).
DRAIN_SECONDS = float(os.environ.get("DRAIN_SECONDS") or 10)
# Simulated engine actions a round analysis spends per decision (unset: the
# analysis' own default, analysis.scoring; docs/decisions.md "Round analysis").
DOMINO_ANALYSIS_WORK = int(os.environ.get("DOMINO_ANALYSIS_WORK") or 0) or None
# The analysis queue (analysis/queue.py; docs/site.md "Round analysis: what is
# analysed and when"): jobs waiting at most, and a person's requests at a time.
ANALYSIS_QUEUE_BOUND = int(os.environ.get("ANALYSIS_QUEUE_BOUND") or 200)
ANALYSIS_PERSON_LIMIT = int(os.environ.get("ANALYSIS_PERSON_LIMIT") or 3)
# The replay's what-if: a person's moves scored on request a minute (analysis.whatif_answers).
DOMINO_WHATIF_PER_MINUTE = int(os.environ.get("DOMINO_WHATIF_PER_MINUTE") or 12)

# "celery": timers and bot turns are Celery tasks (workers + beat on Redis).
# "inprocess": the same task functions run by a scheduler inside the ASGI server.
if REDIS_URL and os.environ.get("DOMINO_SCHEDULER", "").strip().lower() != "inprocess":
    DOMINO_SCHEDULER = "celery"
else:
    DOMINO_SCHEDULER = "inprocess"
# The sweeper's period: beat's schedule (domino_site/celery.py) and the
# in-process ticker (timers/ticker.py) both read it.
DOMINO_SWEEP_SECONDS = float(os.environ.get("DOMINO_SWEEP_SECONDS") or 5)
# Beat's one periodic task; a tick not picked up before the next one is useless.
CELERY_BEAT_SCHEDULE = {
    "rooms-sweep": {
        "task": "rooms.sweep",
        "schedule": DOMINO_SWEEP_SECONDS,
        "options": {"expires": DOMINO_SWEEP_SECONDS},
    }
}

# --- metrics (docs/scaling.md, "Metrics") ------------------------------------------

# /metrics answers loopback clients, and anyone sending
# "Authorization: Bearer <METRICS_TOKEN>" (unset: nobody else).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()


def metrics_dir() -> str:
    """prometheus-client's multiprocess folder: ``PROMETHEUS_MULTIPROC_DIR``, or
    with the Celery scheduler (workers and beat are processes of their own) a
    folder per database and Redis under the temporary folder, which every
    process of one set on this host computes alike. "" (one process, the
    embedded default): each process serves its own metrics."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()
    if not folder and DOMINO_SCHEDULER == "celery":
        db = DATABASES["default"]
        where = f"{db.get('HOST')}|{db.get('PORT')}|{db.get('NAME')}|{REDIS_URL}".encode()
        digest = hashlib.sha256(where).hexdigest()[:12]
        folder = os.path.join(tempfile.gettempdir(), f"domino-metrics-{os.getuid()}-{digest}")
    if folder:
        os.makedirs(folder, exist_ok=True)
        # Read by prometheus-client when it is imported (domino_site.metrics, after this).
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    return folder


METRICS_DIR = metrics_dir()

# Human-like pause before a bot acts (0 in tests).
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "0.8"))
# Quick match (docs/site.md): after this long in the queue, bots fill the empty seats
# (unless the person chose "people only").
QUICK_BOTS_AFTER = float(os.environ.get("QUICK_BOTS_AFTER", "20"))

# Celery reads every CELERY_* setting (namespace "CELERY", see domino_site/celery.py).
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ACKS_LATE = True
# A round's analysis (a second or more of CPU) has workers of its own: behind
# it on one queue, the clocks and bot turns of live tables would wait.
# The puzzles' cutting and deeper check run in the analysis worker, after its analyses.
# The site's mail too: a slow mail server (EMAIL_TIMEOUT) never holds a clock.
CELERY_TASK_ROUTES = {
    "analysis.next": {"queue": "analysis"},
    "puzzles.next": {"queue": "analysis"},
    "accounts.mail_send": {"queue": "analysis"},
}
CELERY_TIMEZONE = "UTC"

# --- client addresses ------------------------------------------------------------

# The reverse proxies whose X-Forwarded-For is believed (comma-separated addresses
# or networks, e.g. "127.0.0.1,10.0.0.0/8"): when the connection comes from one of
# them, the client is the rightmost forwarded address that is not a trusted proxy;
# otherwise the connection's own address. Used for the rated-table rule (a keyed
# hash per seat, never the address) and the login throttle. Daphne runs WITHOUT
# --proxy-headers (it would believe the leftmost, client-written entry from anyone;
# domino_site/client_ip.py).
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "")

# Rated matches an account needs before it appears in the ranking by rating.
RANKING_MIN_MATCHES = int(os.environ.get("RANKING_MIN_MATCHES") or 5)

# --- auth -------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # At most 128 characters: a 5,000-character password is refused with a reason.
    {"NAME": "accounts.passwords.MaximumLengthValidator"},
]

LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Failed logins (django-axes), on the site and the admin alike: after
# AXES_FAILURE_LIMIT failures for one account from one address, that account is
# refused from that address (even with the right password) for
# AXES_COOLOFF_MINUTES; other accounts and other addresses are not affected. The
# address is the connection's, or behind one of TRUSTED_PROXIES the client its
# X-Forwarded-For names (AXES_CLIENT_IP_CALLABLE). A successful login clears the count.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Password spraying (one address, many accounts) is throttled too: after
# LOGIN_FAILURES_PER_ADDRESS failures from one address, whatever the accounts,
# that address is refused for the same cool-off. axes counts both (the lockout
# parameters below) against one limit; domino_site.throttling.failure_limit
# gives each its own.
LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("AXES_FAILURE_LIMIT") or 5)
LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("LOGIN_FAILURES_PER_ADDRESS") or 20)
AXES_FAILURE_LIMIT = "domino_site.throttling.failure_limit"
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("AXES_COOLOFF_MINUTES") or 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
# A successful login clears that account's failures from that address only
# (domino_site.throttling.forget_account_failures): axes' own reset would clear
# the whole address's count.
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "domino_site.throttling.lockout_response"  # 429, a translated page
AXES_CLIENT_IP_CALLABLE = "domino_site.client_ip.client_ip"  # TRUSTED_PROXIES, above
AXES_DISABLE_ACCESS_LOG = True  # failures are what the throttle needs; not every login
# axes' log lines name the path and a keyed hash of the address, never the
# username typed (an email address, or a password typed in the wrong field).
AXES_CLIENT_STR_CALLABLE = "domino_site.throttling.client_str"

# Two-step sign-in (twofactor/, docs/site.md "Two-step sign-in"): after the
# right password, an account with an authenticator app has this long to give
# its code (or a recovery code) before it must give the password again. Wrong
# codes count as failed logins (the AXES_* limits above), and each device of
# the account waits 1, 2, 4, 8... seconds (times the factor; 0 turns it off)
# after each wrong code in a row, from any address (django-otp's throttle).
# The admin needs the second factor whenever DEBUG is off.
TWO_FACTOR_STEP_SECONDS = int(os.environ.get("TWO_FACTOR_STEP_SECONDS") or 600)
OTP_TOTP_THROTTLE_FACTOR = float(os.environ.get("OTP_THROTTLE_FACTOR") or 1)
OTP_STATIC_THROTTLE_FACTOR = OTP_TOTP_THROTTLE_FACTOR
OTP_TOTP_ISSUER = os.environ.get("OTP_TOTP_ISSUER") or "Dominó"
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# Rooms a person may open (the create form and "play alone") per window: per
# account, or per guest (the guest cookie).
ROOM_CREATE_LIMIT = int(os.environ.get("ROOM_CREATE_LIMIT") or 10)
ROOM_CREATE_WINDOW = timedelta(minutes=10)
# ... and per client address (the proxy-aware one, domino_site.client_ip), for
# clients that drop their cookies; higher, since people share addresses (NAT).
ROOM_CREATE_LIMIT_PER_ADDRESS = int(os.environ.get("ROOM_CREATE_LIMIT_PER_ADDRESS") or 20)
# Open tables with bots ("play alone") at once per address: bots cost CPU.
SOLO_TABLES_PER_ADDRESS = int(os.environ.get("SOLO_TABLES_PER_ADDRESS") or 4)
# Accounts signed up per address and window.
SIGNUP_LIMIT_PER_ADDRESS = int(os.environ.get("SIGNUP_LIMIT_PER_ADDRESS") or 5)
SIGNUP_WINDOW = timedelta(hours=1)
# A person's data (docs/site.md, "Your data (LGPD)"): copies of one's data
# (GET /accounts/export/, expensive: every round replayed) per account and window.
PRIVACY_EXPORT_LIMIT = int(os.environ.get("PRIVACY_EXPORT_LIMIT") or 3)
PRIVACY_EXPORT_WINDOW = timedelta(hours=float(os.environ.get("PRIVACY_EXPORT_WINDOW_HOURS") or 24))
# Retention, done by the sweeper (privacy.services.retention_sweep): the hashed
# client addresses of seats, tables, challenges, arenas, puzzle tries and
# sign-ups are cleared (or their rows deleted) this many days after their use;
# a done data request's row is deleted this many days after it was done.
PRIVACY_ADDRESS_DAYS = int(os.environ.get("PRIVACY_ADDRESS_DAYS") or 90)
PRIVACY_REQUEST_DAYS = int(os.environ.get("PRIVACY_REQUEST_DAYS") or 365)
# Where a person writes to ask for a copy or a deletion without signing in (an
# email address the privacy notice shows; none: the notice says "the site's staff").
PRIVACY_CONTACT = os.environ.get("PRIVACY_CONTACT", "").strip()
# An established account (records.rulebook.established_account): signed up at
# least this many days ago AND with at least this many rated matches. Only its
# first try of a puzzle moves the puzzle's rating (docs/site.md, "Puzzles"):
# throwaway accounts cannot push a puzzle's rating (docs/decisions.md).
ESTABLISHED_ACCOUNT_DAYS = int(os.environ.get("ESTABLISHED_ACCOUNT_DAYS") or 7)
ESTABLISHED_ACCOUNT_MATCHES = int(os.environ.get("ESTABLISHED_ACCOUNT_MATCHES") or 5)
# Joins and leaves of one arena per person and window: each sends the standings
# to every watcher (arenas.limits).
ARENA_TOGGLES = int(os.environ.get("ARENA_TOGGLES") or 6)
ARENA_TOGGLE_WINDOW = timedelta(minutes=1)
# Challenges (rematches included) a person sends per window, in all and to one
# person: each is pushed to the challenged person's pages (people.limits).
CHALLENGE_LIMIT = int(os.environ.get("CHALLENGE_LIMIT") or 20)
CHALLENGE_LIMIT_PER_PERSON = int(os.environ.get("CHALLENGE_LIMIT_PER_PERSON") or 5)
CHALLENGE_WINDOW = timedelta(minutes=float(os.environ.get("CHALLENGE_WINDOW_MINUTES") or 10))
# Reports a person sends per window (a new one or an update of one still
# open), in all and about one player: each is the moderators' work.
REPORT_LIMIT = int(os.environ.get("REPORT_LIMIT") or 10)
REPORT_LIMIT_PER_PERSON = int(os.environ.get("REPORT_LIMIT_PER_PERSON") or 3)
REPORT_WINDOW = timedelta(hours=float(os.environ.get("REPORT_WINDOW_HOURS") or 24))

# --- logs and errors (docs/scaling.md, "Logs" and "Errors") ---------------------

# "json": one JSON object a line on standard error, for every process (Daphne,
# Django, the consumers, Celery's worker and beat); "text": readable lines
# (make run, the tests). Standard output stays the commands' own. The ids of the request, room and round
# on each line; secrets, email addresses and sessions scrubbed (domino_site/logs.py).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "").strip().lower() or ("text" if DEBUG else "json")
if LOG_FORMAT not in {"json", "text"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, not {LOG_FORMAT!r}")
LOG_LEVEL = os.environ.get("LOG_LEVEL", "").strip().upper() or "INFO"
LOGGING_CONFIG = "domino_site.logs.apply_config"
LOGGING = logging_config(fmt=LOG_FORMAT, level=LOG_LEVEL)

# Errors to Sentry (sentry-sdk) when SENTRY_DSN is set, and only then: started by
# domino_site.infra's ready() (domino_site/error_reports.py), personal data scrubbed.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
SENTRY_ENVIRONMENT = os.environ.get("SENTRY_ENVIRONMENT", "").strip() or (
    "development" if DEBUG else "production"
)
SENTRY_TRACES_SAMPLE_RATE = float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE") or 0)

# --- mail, email addresses, recovery (docs/site.md, "Accounts") ---------------------

# The site's own address, for the links in mail (written by a web process or a
# worker alike). Unset: the address of the request that asked for the mail
# (its scheme and its Host, which ALLOWED_HOSTS checks), else http://localhost:8000.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
# Django's mail settings, from the environment: SMTP when EMAIL_HOST is set;
# else every message is printed to the console with text logs (make run), and
# with JSON logs (production) not sent, one line saying so: a message and its
# links (a recovery link is a secret) never enter the logs.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
    if LOG_FORMAT == "text"
    else "domino_site.logs.UnsentMailBackend"
)
EMAIL_HOST = EMAIL_HOST or "localhost"
EMAIL_PORT = int(os.environ.get("EMAIL_PORT") or 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT") or 20)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or "Dominó <noreply@localhost>"
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# A confirmation link lives this many days; an address waiting longer no longer
# holds it against another account.
EMAIL_CONFIRM_DAYS = int(os.environ.get("EMAIL_CONFIRM_DAYS") or 3)
# Confirmation mails one account may ask for in an hour.
EMAIL_CONFIRMATIONS_PER_HOUR = int(os.environ.get("EMAIL_CONFIRMATIONS_PER_HOUR") or 5)
# The outbox: sent messages kept (without their bodies) this many days; a message
# the mail server never took is given up after MAIL_GIVE_UP_DAYS.
MAIL_KEEP_DAYS = int(os.environ.get("MAIL_KEEP_DAYS") or 30)
MAIL_GIVE_UP_DAYS = int(os.environ.get("MAIL_GIVE_UP_DAYS") or 3)
# Password recovery: its link lives this long (seconds, Django's setting); requests
# per address typed and per client address in a window (whether an account has
# the address or not).
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT") or 60 * 60)
RECOVERY_LIMIT_PER_EMAIL = int(os.environ.get("RECOVERY_LIMIT_PER_EMAIL") or 3)
RECOVERY_LIMIT_PER_ADDRESS = int(os.environ.get("RECOVERY_LIMIT_PER_ADDRESS") or 10)
RECOVERY_WINDOW = timedelta(minutes=float(os.environ.get("RECOVERY_WINDOW_MINUTES") or 60))
# A signed-in session's "last seen" (the Conta page) is written at most this often.
SESSION_SEEN_EVERY = timedelta(minutes=5)

# --- i18n -----------------------------------------------------------------------

LANGUAGE_CODE = "pt-br"
LANGUAGES = [
    ("pt-br", "Português (Brasil)"),
    ("en", "English"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "America/Sao_Paulo"
USE_TZ = True

# --- static files -----------------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

# In DEBUG (and so in tests) WhiteNoise serves files straight from the finders
# (STATICFILES_DIRS, app static/) without collectstatic; in production run
# `manage.py collectstatic` first. Fixed here because pytest-django turns
# DEBUG off at test time and WhiteNoise would otherwise follow it.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
if DEBUG:
    # STATIC_ROOT only exists after collectstatic, which DEBUG does not need.
    warnings.filterwarnings("ignore", message="No directory at", module="whitenoise")

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedStaticFilesStorage"
        )
    },
}
