"""Production safety of the settings: DEBUG off unless set, no usable fixed key,
HTTPS settings and the deploy checks, the Content-Security-Policy, and a health
check that names no host."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from domino_site.security import DEV_SECRET_KEY, secret_key_problem
from rooms import services

ROOT = Path(__file__).resolve().parents[2]


def _random_key() -> str:
    return secrets.token_urlsafe(50)


def _run(code: str, **env: str) -> subprocess.CompletedProcess:
    """Python with the project's settings and only the given environment."""
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
    base.update(DJANGO_SETTINGS_MODULE="domino_site.settings", PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True
    )


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    code = f"import sys; from django.core.management import execute_from_command_line; execute_from_command_line(['manage.py', *{list(args)!r}])"
    return _run(code, **env)


SHOW = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.DEBUG, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
    "s.SECURE_HSTS_SECONDS > 0, s.SECRET_KEY == s.SECRET_KEY.strip())"
)


# ----------------------------------------------------------------- the secret key


@pytest.mark.parametrize(
    "key",
    [
        "",
        DEV_SECRET_KEY,
        "django-insecure-" + secrets.token_urlsafe(50),
        "change-me",
        "changeme",
        "secret",
        "change-me-this-is-not-a-secret",
        "CHANGE_ME_" + "x" * 60,
        "my-super-" + "secret-" * 8,
        "build-only",
        secrets.token_urlsafe(20),  # random but short
        "a" * 60,  # long but not random
    ],
)
def test_a_placeholder_short_or_development_key_is_refused(key):
    assert secret_key_problem(key)


def test_a_long_random_key_is_accepted():
    for _ in range(50):
        assert secret_key_problem(_random_key()) is None


def test_debug_is_off_unless_set_and_then_a_key_is_required():
    done = _run(SHOW)
    assert done.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set" in done.stderr
    done = _run(SHOW, SECRET_KEY="change-me")
    assert done.returncode != 0 and "placeholder" in done.stderr
    done = _run(SHOW, SECRET_KEY=_random_key())
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True", "True", "True", "True", "True"]


def test_development_needs_debug_set_and_then_runs_on_plain_http():
    done = _run(SHOW, DEBUG="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "False", "False", "False", "True"]
    # DOMINO_HTTPS=0: production settings on plain HTTP (a local try-out)
    done = _run(SHOW, SECRET_KEY=_random_key(), DOMINO_HTTPS="0")
    assert done.stdout.split()[:5] == ["False", "False", "False", "False", "False"]


def test_the_deploy_checks_pass_with_a_key_and_the_hosts():
    done = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=_random_key(),
        ALLOWED_HOSTS="example.com",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_no_usable_fixed_key_in_the_deployment_files():
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "${SECRET_KEY:?" in compose
    for name in ("Dockerfile", "docker-compose.yml", "Procfile"):
        text = (ROOT / name).read_text()
        for value in re.findall(r"SECRET_KEY[=:]\s*([^\s]+)", text):
            assert value.startswith(("${SECRET_KEY:?", '"$(', "$(")), (name, value)


# ------------------------------------------------------------ HTTPS and headers


@pytest.fixture
def https(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    return settings


def _directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    return dict(d.strip().split(" ", 1) for d in policy.split(";"))


@pytest.mark.django_db
def test_plain_http_is_redirected_but_not_the_health_check(client, https):
    response = client.get("/ranking/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/ranking/"
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_behind_the_proxy_https_is_recognised_with_hsts(client, https):
    response = client.get("/ranking/", HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="testserver")
    assert response.status_code == 200
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")
    # no ws: on an HTTPS page
    assert _directives(response)["connect-src"] == "'self' wss://testserver"


@pytest.mark.django_db
def test_the_content_security_policy_allows_no_inline_code(client):
    response = client.get("/")
    directives = _directives(response)
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self' ws://testserver wss://testserver"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in response["Content-Security-Policy"]


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
INLINE_STYLE = re.compile(r"<[^>]+\sstyle\s*=", re.I)


@pytest.mark.django_db
def test_the_pages_carry_no_inline_script_handler_or_style(client, django_user_model):
    ana = django_user_model.objects.create_user("ana", password="x", is_staff=True)
    room = services.room_create(user=ana, name="Mesa", preset="parceria")
    pages = ["/", "/accounts/login/", "/accounts/signup/", "/ranking/", "/admin/login/"]
    client.force_login(ana)
    pages += [f"/r/{room.code}/", "/players/ana/"]
    for path in pages:
        html = client.get(path).content.decode()
        assert not INLINE_SCRIPT.search(html), path
        assert not INLINE_HANDLER.search(html), path
        assert not INLINE_STYLE.search(html), path


# ------------------------------------------------------------------- the cache


@pytest.mark.redis
def test_with_redis_every_process_shares_one_cache():
    """docs/decisions.md, "The what-if": on ``REDIS_URL`` Django's cache is
    Redis's, so what one process stores (a what-if's values, a person's count)
    the next process reads; without it, a process's memory."""
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    key = f"shared-{secrets.token_hex(4)}"
    use = "import django; django.setup(); from django.core.cache import cache, caches; "
    common = {"DEBUG": "1", "REDIS_URL": url, "DOMINO_CACHE_PREFIX": "test"}
    wrote = _run(use + f"cache.set('{key}', 7, 30)", **common)
    assert wrote.returncode == 0, wrote.stderr
    read = _run(use + f"print(cache.get('{key}'))", **common)
    assert read.stdout.strip() == "7", read.stderr
    alone = _run(use + f"print(cache.get('{key}'), type(caches['default']).__name__)", DEBUG="1")
    assert alone.stdout.split() == ["None", "LocMemCache"], alone.stderr
