"""The production logs (docs/scaling.md, "Logs"), in this process: the site's
JSON configuration (``LOG_FORMAT=json``, what ``DEBUG`` off gives) captured
while real requests go through the whole middleware stack (a sign-up with an
email address, a login, a wrong one, a recovery request), a table socket opens
on the real ASGI application, and Celery runs tasks through its tracer. Every
line is one JSON object, carries the ids it should (the request's, which the
response answers in ``X-Request-ID``; the socket's room; the task's round),
and holds none of the secrets used: no email address, password, session key,
CSRF token, recovery link or ``Authorization`` value.

The same, across the production set's real processes (Daphne, the workers,
beat), is tests/site/test_make_prod.py's."""

from __future__ import annotations

import io
import json
import logging
import re
import sys

import pytest
from asgiref.sync import sync_to_async
from django.core import mail
from django.test import Client
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import OutgoingMail
from accounts.tasks import mail_send_task
from domino_site.logs import JsonLines, apply_config, logging_config, scrub_text
from games.models import Round
from rooms import services
from rooms.models import Seat
from tests.realtime.conftest import Player, session_cookie
from tests.twofactor.test_two_step import code_for
from timers.tasks import round_due

PASSWORD = "Correct-Horse-77-battery"
WRONG = "Wrong-Horse-88-battery"
EMAIL = "ana.logs@example.com"


class Captured:
    """The lines the site's JSON handler wrote while the test ran."""

    def __init__(self, buffer: io.StringIO) -> None:
        self.buffer = buffer

    def lines(self) -> list[dict]:
        text = self.buffer.getvalue()
        assert text, "nothing was logged"
        parsed = []
        for line in text.splitlines():
            value = json.loads(line)  # each line is one JSON object
            assert isinstance(value, dict), line
            parsed.append(value)
        return parsed

    def text(self) -> str:
        return self.buffer.getvalue()


@pytest.fixture
def json_logs(settings):
    """The production configuration (``logging_config(fmt="json")``), its
    handler writing into a buffer; the tests' own configuration back afterwards."""
    hook = sys.excepthook
    apply_config(logging_config(fmt="json", level="INFO"))
    (handler,) = [h for h in logging.getLogger().handlers if isinstance(h.formatter, JsonLines)]
    buffer = io.StringIO()
    handler.setStream(buffer)
    yield Captured(buffer)
    apply_config(settings.LOGGING)
    logging.captureWarnings(False)
    sys.excepthook = hook


def _assert_no_secret(text: str, secrets: list[str]) -> None:
    for secret in secrets:
        assert secret and secret not in text, f"{secret!r} is in the log"
    assert not re.search(r"[\w.+-]+@[\w-]+\.[\w.]+", text), "an email address is in the log"


def _csrf(client: Client, path: str) -> str:
    client.get(path)
    return client.cookies["csrftoken"].value


@pytest.mark.django_db
def test_requests_and_tasks_log_json_lines_with_their_ids_and_no_secret(
    json_logs, django_user_model, settings
):
    settings.DOMINO_SCHEDULER = "inprocess"
    client = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION="Bearer tok-Secret-4242")
    token = _csrf(client, "/accounts/signup/")
    signed_up = client.post(
        "/accounts/signup/",
        {
            "username": "analogs",
            "email": EMAIL,
            "password1": PASSWORD,
            "password2": PASSWORD,
            "csrfmiddlewaretoken": token,
        },
    )
    assert signed_up.status_code == 302, signed_up.content[:500]
    session = client.cookies["sessionid"].value
    client.post("/accounts/logout/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    token = _csrf(client, "/accounts/login/")
    wrong = client.post(
        "/accounts/login/", {"username": EMAIL, "password": WRONG, "csrfmiddlewaretoken": token}
    )
    assert wrong.status_code == 200  # the form again, with its error
    right = client.post(
        "/accounts/login/",
        {"username": "analogs", "password": PASSWORD, "csrfmiddlewaretoken": token},
    )
    assert right.status_code == 302
    second_session = client.cookies["sessionid"].value
    token = _csrf(client, "/accounts/password_reset/")
    recovery = client.post(
        "/accounts/password_reset/", {"email": EMAIL, "csrfmiddlewaretoken": token}
    )
    assert recovery.status_code == 302
    missing = client.get("/accounts/reset/MQ/cdq3kz-0a1b2c3d4e5f6a7b8c9d/")  # a recovery link
    request_ids = {
        r["X-Request-ID"] for r in (signed_up, wrong, right, recovery, missing) if r is not None
    }
    assert len(request_ids) == 5

    # Two-step sign-in: the password, a wrong code, then the app's code.
    settings.OTP_TOTP_THROTTLE_FACTOR = 0
    bea = django_user_model.objects.create_user("bealogs", password=PASSWORD)
    device = TOTPDevice.objects.create(user=bea, name="app", confirmed=True)
    second = Client(enforce_csrf_checks=True)
    token2 = _csrf(second, "/accounts/login/")
    step = second.post(
        "/accounts/login/",
        {"username": "bealogs", "password": PASSWORD, "csrfmiddlewaretoken": token2},
    )
    assert step["Location"] == "/accounts/2fa/verify/"
    code = code_for(device.bin_key)
    wrong_code = f"{(int(code) + 500_001) % 1_000_000:06d}"
    refused = second.post(
        "/accounts/2fa/verify/", {"code": wrong_code, "csrfmiddlewaretoken": token2}
    )
    assert refused.status_code == 200
    verified = second.post("/accounts/2fa/verify/", {"code": code, "csrfmiddlewaretoken": token2})
    assert verified.status_code == 302, verified.content[:300]
    otp_session = second.cookies["sessionid"].value

    # Celery's tracer runs two tasks: the confirmation mail the sign-up wrote,
    # and a round's due action.
    outgoing = OutgoingMail.objects.get()
    mail_send_task.apply(kwargs={"mail_id": outgoing.pk})
    confirmation = mail.outbox[-1].body
    link = re.search(r"https?://\S+", confirmation).group(0)
    user = django_user_model.objects.get(username="analogs")
    room = services.room_create(user=user, name="Mesa", preset="parceria")
    host = Seat.objects.get(room=room, index=0)
    for index in (1, 2, 3):
        services.bot_add(room=room, actor=host, index=index, level="easy")
    services.match_start(room=room, actor=host)
    rnd = Round.objects.filter(room=room).latest("id")
    round_due.apply(kwargs={"round_id": rnd.pk, "version": rnd.version})

    lines = json_logs.lines()
    access = [line for line in lines if line["logger"] == "domino_site.access"]
    assert {line["request_id"] for line in access} >= request_ids
    for line in access:
        assert {"time", "level", "message", "method", "path", "status", "duration_ms"} <= set(line)
    (reset_line,) = [line for line in access if line["request_id"] == missing["X-Request-ID"]]
    assert reset_line["path"] == "/accounts/reset/[redacted]/[redacted]/"
    tasks = [line for line in lines if line.get("task") == "games.round_due"]
    assert tasks and all(line["round_id"] == rnd.pk for line in tasks)
    assert [line for line in lines if line.get("task") == "accounts.mail_send"]
    _assert_no_secret(
        json_logs.text(),
        [PASSWORD, WRONG, EMAIL, session, second_session, token, "tok-Secret-4242", link]
        + [otp_session, token2, device.key],
    )
    for digits in (code, wrong_code):  # six digits: not inside a longer number either
        assert not re.search(rf"(?<!\d){digits}(?!\d)", json_logs.text()), digits


@pytest.mark.django_db(transaction=True)
async def test_a_table_socket_logs_its_room_and_its_id(json_logs, live, django_user_model):
    ana = await sync_to_async(django_user_model.objects.create_user)(
        "ana", email=EMAIL, password=PASSWORD
    )
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset="parceria")
    cookie = await sync_to_async(session_cookie)(ana)
    player = await Player.table(room.code, cookie)
    await player.close()
    lines = json_logs.lines()
    socket = [line for line in lines if line["logger"] == "rooms.consumers"]
    assert [line["message"] for line in socket] == [
        "table socket open (seat 0)",
        "table socket closed (code 1000)",
    ]
    assert {line["room"] for line in socket} == {room.code}
    assert len({line["request_id"] for line in socket}) == 1  # the socket's own id
    _assert_no_secret(json_logs.text(), [PASSWORD, EMAIL, cookie.split("=", 1)[1]])


def test_what_the_filter_scrubs(settings):
    """`scrub_text` on the shapes of what must not be logged, and on the
    configured secrets themselves, whatever their shape."""
    assert settings.SECRET_KEY not in scrub_text(f"signing with {settings.SECRET_KEY}!")
    text = (
        "user ana@example.com password=hunter2 csrftoken=abc123def sessionid=k2j3h4 "
        "Cookie: sessionid=zz9; Authorization: Bearer eyJ0.x.y "
        "postgres://domino:pgsecret@db:5432/domino /conta/email/confirmar/eyJhIjoxfQ:1s:sig/ "
        "key 0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p otp_token=123456"
    )
    scrubbed = scrub_text(text)
    for secret in (
        "ana@example.com", "hunter2", "abc123def", "k2j3h4", "zz9", "eyJ0", "pgsecret",
        "eyJhIjoxfQ", "0a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p", "123456",
    ):  # fmt: skip
        assert secret not in scrubbed, (secret, scrubbed)
    assert scrubbed.startswith("user [email] password=[redacted]")
