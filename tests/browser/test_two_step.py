"""Two-step sign-in in a real browser (docs/site.md, "Two-step sign-in"):
a person turns the authenticator app on from the key the page shows (the
test computes the app's codes from it), signs out, and signs in again with
the password and then the code; a recovery code signs in once. Under the
site's Content-Security-Policy (the QR code is a data: image)."""

from __future__ import annotations

import time
from base64 import b32decode

import pytest
from django_otp.oath import TOTP
from playwright.sync_api import Page, expect

from tests.browser.play import sign_up, unique

pytestmark = pytest.mark.browser

PASSWORD = "dominó-secreto-42"


def app_code(key: bytes, steps_ahead: int = 0) -> str:
    totp = TOTP(key, step=30, digits=6)
    totp.time = time.time() + 30 * steps_ahead
    return f"{totp.token():06d}"


def log_out(page: Page) -> None:
    page.click("[data-action=logout]")
    expect(page.locator("[data-action=logout]")).to_have_count(0)


def password_step(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("[data-form=login] button[type=submit]")
    page.wait_for_url(base + "/accounts/2fa/verify/")
    # not signed in yet
    expect(page.locator("[data-action=logout]")).to_have_count(0)


def test_turn_the_app_on_then_sign_in_with_the_password_and_its_code(page: Page, server_url: str):
    name = unique("dupla")
    sign_up(page, server_url, name, PASSWORD)
    page.goto(server_url + "/accounts/2fa/")
    page.click("[data-action=enrol]")
    page.wait_for_url(server_url + "/accounts/2fa/enrol/")
    qr = page.locator("img[data-qr]")
    expect(qr).to_be_visible()
    assert page.evaluate("(img) => img.naturalWidth", qr.element_handle()) > 0
    key = b32decode(page.inner_text("[data-secret]").replace(" ", ""))
    form = page.locator("[data-form=twofactor-enrol]")
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("input[name=code]").fill(app_code(key))
    form.locator("button[type=submit]").click()
    page.wait_for_url(server_url + "/accounts/2fa/codes/")
    codes = [c.strip() for c in page.locator("[data-codes] code").all_inner_texts()]
    assert len(codes) == 10
    page.click("[data-action=saved]")
    expect(page.locator("[data-twofactor=on]")).to_be_visible()
    expect(page.locator("[data-codes-left]")).to_have_attribute("data-codes-left", "10")
    log_out(page)

    # the password, then the app's code (the next period's: the first was used)
    password_step(page, server_url, name)
    page.fill("[data-form=twofactor-verify] input[name=code]", app_code(key, 1))
    page.click("[data-form=twofactor-verify] button[type=submit]")
    page.wait_for_url(server_url + "/")
    expect(page.locator(".site-nav .who")).to_have_text(name)
    log_out(page)

    # a recovery code, once
    password_step(page, server_url, name)
    page.fill("[data-form=twofactor-verify] input[name=code]", codes[0])
    page.click("[data-form=twofactor-verify] button[type=submit]")
    page.wait_for_url(server_url + "/")
    expect(page.locator(".site-nav .who")).to_have_text(name)
    page.goto(server_url + "/accounts/2fa/")
    expect(page.locator("[data-codes-left]")).to_have_attribute("data-codes-left", "9")
    log_out(page)
    password_step(page, server_url, name)
    page.fill("[data-form=twofactor-verify] input[name=code]", codes[0])
    page.click("[data-form=twofactor-verify] button[type=submit]")
    expect(page.locator(".field-error")).to_be_visible()
    expect(page.locator("[data-action=logout]")).to_have_count(0)
