"""Two-step sign-in (docs/site.md, "Two-step sign-in"; issue 51 point 4):
an authenticator app (TOTP) turned on from /accounts/2fa/, the second step
after the password, recovery codes that work once, wrong codes counted as
failed logins, and the admin closed to staff without a second factor when
DEBUG is off (as pytest-django runs every test)."""

from __future__ import annotations

import io
import re
import time
from base64 import b32decode
from html import unescape

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.management import call_command
from django.test import Client
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

pytestmark = pytest.mark.django_db

PASSWORD = "s3nha-longa-e-boa"


def code_for(key: bytes, steps_ahead: int = 0) -> str:
    """The app's code now (or ``steps_ahead`` periods on: a code already used
    is refused, and the next period's is within the accepted drift)."""
    totp = TOTP(key, step=30, digits=6)
    totp.time = time.time() + 30 * steps_ahead
    return f"{totp.token():06d}"


def signed_in(client) -> bool:
    return SESSION_KEY in client.session


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "chefe", password=PASSWORD, is_staff=True, is_superuser=True
    )


def enrol(client, user) -> tuple[bytes, list[str]]:
    """Signed in as ``user``: the enrolment page, the key read from it as a
    person types it, the first code, the recovery codes shown once."""
    page = client.get("/accounts/2fa/enrol/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'src="data:image/svg+xml' in html  # the QR code, drawn on the server
    secret = re.search(r"<code data-secret>([A-Z2-7 ]+)</code>", html).group(1)
    key = b32decode(secret.replace(" ", ""))
    answer = client.post("/accounts/2fa/enrol/", {"password": PASSWORD, "code": code_for(key)})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/2fa/codes/"
    codes_page = client.get("/accounts/2fa/codes/").content.decode()
    codes = re.findall(r"<li><code>([a-z2-7]{8})</code></li>", codes_page)
    return key, codes


def log_in(client, username: str, path: str = "/accounts/login/", **extra):
    return client.post(path, {"username": username, "password": PASSWORD, **extra})


def test_turning_it_on_shows_the_key_and_ten_recovery_codes_once(client, ana):
    client.force_login(ana)
    key, codes = enrol(client, ana)
    assert len(codes) == len(set(codes)) == 10
    assert TOTPDevice.objects.get(user=ana).confirmed
    assert TOTPDevice.objects.get(user=ana).bin_key == key
    # shown once: the page is gone after that
    assert client.get("/accounts/2fa/codes/")["Location"] == "/accounts/2fa/"
    overview = client.get("/accounts/2fa/").content.decode()
    assert 'data-twofactor="on"' in overview and 'data-codes-left="10"' in overview
    # the session that turned it on gave the code: it counts as the second step
    assert client.session["otp_device_id"] == TOTPDevice.objects.get(user=ana).persistent_id


def test_a_wrong_first_code_or_password_turns_nothing_on(client, ana):
    client.force_login(ana)
    client.get("/accounts/2fa/enrol/")
    device = TOTPDevice.objects.get(user=ana)
    wrong = client.post("/accounts/2fa/enrol/", {"password": PASSWORD, "code": "000000"})
    assert wrong.status_code == 200
    assert "Esse código não está certo" in wrong.content.decode()
    TOTPDevice.objects.filter(user=ana).update(throttling_failure_timestamp=None)
    no_password = client.post(
        "/accounts/2fa/enrol/", {"password": "nope", "code": code_for(device.bin_key)}
    )
    assert no_password.status_code == 200
    assert "Essa não é a sua senha." in no_password.content.decode()
    huge = client.post(
        "/accounts/2fa/enrol/",
        {"password": PASSWORD, "code": "9" * 5000},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert huge.status_code == 200
    assert "Ensure this value has at most 64 characters" in huge.content.decode()
    assert not TOTPDevice.objects.filter(user=ana, confirmed=True).exists()
    assert not StaticToken.objects.exists()
    # the same key on the page again: the app added first still works
    assert TOTPDevice.objects.get(user=ana).key == device.key


def test_the_password_alone_does_not_sign_in_an_account_with_an_app(client, ana):
    client.force_login(ana)
    key, _ = enrol(client, ana)
    client.logout()
    answer = log_in(client, "ana", next="/ranking/")
    assert answer.status_code == 302 and answer["Location"] == "/accounts/2fa/verify/"
    assert not signed_in(client)
    # every page treats the person as signed out meanwhile
    assert "data-people" not in client.get("/").content.decode()
    assert client.get("/accounts/2fa/")["Location"].startswith("/accounts/login/")
    page = client.get("/accounts/2fa/verify/")
    assert page.status_code == 200 and "ana" in page.content.decode()
    done = client.post("/accounts/2fa/verify/", {"code": code_for(key, 1)})
    assert done.status_code == 302 and done["Location"] == "/ranking/"
    assert signed_in(client) and int(client.session[SESSION_KEY]) == ana.pk
    assert "otp_device_id" in client.session


def test_an_account_without_an_app_signs_in_with_its_password(client, ana):
    answer = log_in(client, "ana", next="/ranking/")
    assert answer.status_code == 302 and answer["Location"] == "/ranking/"
    assert signed_in(client)


def test_a_code_is_accepted_once(client, ana):
    client.force_login(ana)
    key, _ = enrol(client, ana)
    client.logout()
    log_in(client, "ana")
    code = code_for(key, 1)
    assert client.post("/accounts/2fa/verify/", {"code": code}).status_code == 302
    client.logout()
    log_in(client, "ana")
    again = client.post("/accounts/2fa/verify/", {"code": code})
    assert again.status_code == 200 and not signed_in(client)


def test_a_recovery_code_signs_in_once(client, ana):
    client.force_login(ana)
    _, codes = enrol(client, ana)
    client.logout()
    log_in(client, "ana")
    typed = f"  {codes[3][:4].upper()}-{codes[3][4:]} "  # as a person may type it
    assert client.post("/accounts/2fa/verify/", {"code": typed}).status_code == 302
    assert signed_in(client)
    assert StaticToken.objects.filter(device__user=ana).count() == 9
    client.logout()
    log_in(client, "ana")
    used = client.post("/accounts/2fa/verify/", {"code": codes[3]})
    assert used.status_code == 200 and not signed_in(client)
    assert "Esse código não está certo" in used.content.decode()


def test_wrong_codes_lock_the_second_step_out_like_wrong_passwords(client, ana, settings):
    settings.OTP_TOTP_THROTTLE_FACTOR = 0  # the axes count alone, not django-otp's back-off
    client.force_login(ana)
    key, codes = enrol(client, ana)
    client.logout()
    log_in(client, "ana")
    for _ in range(settings.LOGIN_FAILURES_PER_ACCOUNT - 1):
        assert client.post("/accounts/2fa/verify/", {"code": "123456"}).status_code == 200
    locked = client.post("/accounts/2fa/verify/", {"code": "123456"})
    assert locked.status_code == 429
    assert "Muitas tentativas de entrar sem sucesso nesta conta" in locked.content.decode()
    # now the right code, a recovery code and the password itself are refused
    assert client.post("/accounts/2fa/verify/", {"code": code_for(key, 1)}).status_code == 429
    assert client.post("/accounts/2fa/verify/", {"code": codes[0]}).status_code == 429
    assert log_in(client, "ana").status_code == 429
    assert not signed_in(client)
    assert StaticToken.objects.filter(device__user=ana).count() == 10  # nothing used up


def test_wrong_codes_slow_the_device_down_from_any_address(client, ana):
    client.force_login(ana)
    key, _ = enrol(client, ana)
    client.logout()
    log_in(client, "ana")
    client.post("/accounts/2fa/verify/", {"code": "123456"})
    # django-otp's back-off: the next code, even right, waits a second
    soon = client.post("/accounts/2fa/verify/", {"code": code_for(key, 1)})
    assert soon.status_code == 200 and not signed_in(client)
    assert "espere alguns segundos" in soon.content.decode()
    TOTPDevice.objects.filter(user=ana).update(throttling_failure_timestamp=None)
    assert client.post("/accounts/2fa/verify/", {"code": code_for(key, 1)}).status_code == 302


def test_the_second_step_expires_and_needs_the_password_again(client, ana, settings):
    client.force_login(ana)
    key, _ = enrol(client, ana)
    client.logout()
    log_in(client, "ana")
    session = client.session
    session["twofactor_pending"]["at"] -= settings.TWO_FACTOR_STEP_SECONDS + 1
    session.save()
    late = client.post("/accounts/2fa/verify/", {"code": code_for(key, 1)})
    assert late.status_code == 302 and late["Location"] == "/accounts/login/"
    assert not signed_in(client)


def test_the_second_step_without_a_password_first_goes_to_the_login(client, ana):
    assert client.get("/accounts/2fa/verify/")["Location"] == "/accounts/login/"
    assert (
        client.post("/accounts/2fa/verify/", {"code": "123456"})["Location"] == "/accounts/login/"
    )


def test_new_recovery_codes_replace_the_old_ones(client, ana):
    client.force_login(ana)
    _, old = enrol(client, ana)
    refused = client.post("/accounts/2fa/codes/new/", {"password": "nope"})
    assert refused.status_code == 200
    assert set(StaticToken.objects.values_list("token", flat=True)) == set(old)
    assert (
        client.post("/accounts/2fa/codes/new/", {"password": PASSWORD})["Location"]
        == "/accounts/2fa/codes/"
    )
    new = re.findall(
        r"<code>([a-z2-7]{8})</code>", client.get("/accounts/2fa/codes/").content.decode()
    )
    assert len(new) == 10 and not set(new) & set(old)
    assert set(StaticToken.objects.values_list("token", flat=True)) == set(new)


def test_turning_it_off_needs_the_password_and_a_code(client, ana):
    client.force_login(ana)
    key, codes = enrol(client, ana)
    no_code = client.post("/accounts/2fa/disable/", {"password": PASSWORD, "code": "000000"})
    assert no_code.status_code == 200
    no_password = client.post("/accounts/2fa/disable/", {"password": "nope", "code": codes[0]})
    assert no_password.status_code == 200
    assert TOTPDevice.objects.filter(user=ana).exists()
    assert StaticToken.objects.filter(token=codes[0]).exists()  # not used up by a refusal
    done = client.post("/accounts/2fa/disable/", {"password": PASSWORD, "code": codes[0]})
    assert done["Location"] == "/accounts/2fa/"
    assert not TOTPDevice.objects.filter(user=ana).exists()
    assert not StaticToken.objects.exists()
    client.logout()
    assert log_in(client, "ana")["Location"] == "/"  # the password alone again
    assert signed_in(client)


# ----------------------------------------------------------------- the admin


def test_the_admin_refuses_staff_without_a_second_factor_when_debug_is_off(client, staff, settings):
    assert settings.DEBUG is False  # pytest-django's, as in production
    answer = log_in(client, "chefe", path="/admin/login/", next="/admin/")
    assert answer.status_code == 302 and signed_in(client)  # signed in to the site
    index = client.get("/admin/")
    assert index.status_code == 302 and index["Location"].startswith("/admin/login/")
    page = client.get(index["Location"])
    assert page.status_code == 403
    html = page.content.decode()
    assert 'data-page="twofactor-admin-required"' in html and 'href="/accounts/2fa/enrol/"' in html
    assert client.get("/admin/people/report/").status_code == 302
    # the site itself is open to them
    assert client.get("/ranking/").status_code == 200
    # after enrolling, the admin opens
    enrol(client, staff)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/people/report/").status_code == 200


def test_the_admin_login_goes_through_the_second_step(client, staff):
    client.force_login(staff)
    key, _ = enrol(client, staff)
    client.logout()
    answer = log_in(client, "chefe", path="/admin/login/?next=/admin/people/report/")
    assert answer["Location"] == "/accounts/2fa/verify/" and not signed_in(client)
    done = client.post("/accounts/2fa/verify/", {"code": code_for(key, 1)})
    assert done["Location"] == "/admin/people/report/"
    assert client.get("/admin/people/report/").status_code == 200


def test_a_staff_session_signed_in_before_the_app_gives_its_code_at_the_admin(client, staff):
    client.force_login(staff)
    key, _ = enrol(client, staff)
    other = Client()
    other.force_login(staff)  # another browser, signed in before: not verified
    refused = other.get("/admin/login/?next=/admin/")
    assert refused.status_code == 302
    assert refused["Location"] == "/accounts/2fa/verify/?next=%2Fadmin%2F"
    done = other.post("/accounts/2fa/verify/", {"code": code_for(key, 1), "next": "/admin/"})
    assert done["Location"] == "/admin/"
    assert other.get("/admin/").status_code == 200


def test_with_debug_on_the_admin_asks_for_no_second_factor(client, staff, settings):
    settings.DEBUG = True
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


def test_the_admin_shows_who_has_it_but_never_a_secret(admin_client, ana):
    own = Client()
    own.force_login(ana)
    _, codes = enrol(own, ana)  # ana turns it on
    listing = admin_client.get("/admin/otp_totp/totpdevice/")
    assert listing.status_code == 200
    html = unescape(listing.content.decode())
    assert "ana" in html
    secret = TOTPDevice.objects.get(user=ana)
    device_page = admin_client.get(
        f"/admin/otp_totp/totpdevice/{secret.pk}/change/"
    ).content.decode()
    assert secret.key not in device_page and "otpauth" not in device_page
    assert admin_client.get("/admin/otp_static/staticdevice/").status_code == 404
    assert not any(code in html for code in codes)
    # ...and staff may turn it off for someone who lost phone and codes
    admin_client.post(
        "/admin/otp_totp/totpdevice/", {"action": "turn_off", "_selected_action": [secret.pk]}
    )
    assert not TOTPDevice.objects.filter(user=ana).exists()
    assert not StaticToken.objects.filter(device__user=ana).exists()


def test_an_operator_lets_staff_in_the_first_time_with_a_one_time_code(client, staff):
    """django-otp's ``manage.py addstatictoken <username>`` (docs/site.md,
    "Two-step sign-in"): a code that works once, for a server with DEBUG off
    whose staff have no app yet."""
    out = io.StringIO()
    call_command("addstatictoken", "chefe", stdout=out)
    token = out.getvalue().strip()
    answer = log_in(client, "chefe", path="/admin/login/?next=/admin/")
    assert answer["Location"] == "/accounts/2fa/verify/" and not signed_in(client)
    assert client.post("/accounts/2fa/verify/", {"code": token})["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    # used up: with no code left the account has no second factor any more,
    # so the password signs in to the site, and the admin asks to turn it on
    client.logout()
    assert log_in(client, "chefe", path="/admin/login/?next=/admin/")["Location"] == "/admin/"
    assert signed_in(client)
    assert client.get("/admin/login/?next=/admin/").status_code == 403


def test_the_account_page_s_panel_says_on_or_off_and_links_the_pages(rf, ana):
    """``{% two_factor_panel %}``, for the "Conta" page: nothing for a visitor."""
    from django.contrib.auth.models import AnonymousUser
    from django.template import Context, Template

    page = Template("{% load twofactor %}{% two_factor_panel %}")
    request = rf.get("/")
    request.user = AnonymousUser()
    assert page.render(Context({"request": request})).strip() == ""
    request.user = ana
    off = page.render(Context({"request": request}))
    assert 'data-twofactor-panel="off"' in off and 'href="/accounts/2fa/"' in off
    client = Client()
    client.force_login(ana)
    enrol(client, ana)
    on = page.render(Context({"request": request}))
    assert 'data-twofactor-panel="on"' in on and "10 códigos de recuperação" in on
