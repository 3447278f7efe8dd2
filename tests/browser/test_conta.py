"""The Conta page in a browser (docs/site.md, "Accounts: the Conta page"), at a
phone's size and a desktop's: reached from the header, it lists the account's
sessions (this one marked), and "sign out every other session" signs the other
browser out; nothing overflows the phone's width. Screenshots in artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import unique

pytestmark = pytest.mark.browser

PASSWORD = "dominó-secreto-42"
PHONE = {"width": 390, "height": 844}


def _sign_up(page: Page, base: str, username: str, email: str) -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.fill("#id_email", email)
    page.click("[data-form=signup] button[type=submit]")
    page.wait_for_url(base + "/")


def _log_in(page: Page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("[data-form=login] button[type=submit]")
    page.wait_for_url(base + "/")


def test_the_conta_page_lists_the_sessions_and_signs_out_the_others(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    name = unique("conta")
    _sign_up(page, server_url, name, f"{name}@example.com")
    phone_context = browser.new_context(
        locale="pt-BR",
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        user_agent="Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
    )
    phone = phone_context.new_page()
    try:
        _log_in(phone, server_url, name)
        phone.click("[data-link=conta]")
        phone.wait_for_url(server_url + "/conta/")
        expect(phone.locator("h1")).to_have_text("Conta")
        expect(phone.locator("[data-pending-email]")).to_contain_text(f"{name}@example.com")
        expect(phone.locator("[data-session]")).to_have_count(2)
        expect(phone.locator("[data-session][data-current]")).to_contain_text("Android")
        overflow = phone.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the page is {overflow}px wider than the phone"
        phone.screenshot(path=str(artifacts / "conta-phone.png"), full_page=True)

        page.goto(server_url + "/conta/")
        expect(page.locator("[data-session]")).to_have_count(2)
        page.screenshot(path=str(artifacts / "conta-desktop.png"), full_page=True)

        phone.click("[data-action=sessions-end-others]")
        expect(phone.locator(".messages")).to_contain_text("Suas outras sessões foram encerradas.")
        expect(phone.locator("[data-session]")).to_have_count(1)
        page.goto(server_url + "/conta/")
        page.wait_for_url(f"{server_url}/accounts/login/?next=/conta/")
        expect(page.locator("[data-link=conta]")).to_have_count(0)
    finally:
        phone_context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_account_pages_have_no_serious_axe_violation(
    browser: Browser, server_url: str, scheme: str
) -> None:
    from tests.browser.test_accessibility import _axe, _context

    context = _context(browser, scheme)
    try:
        page = context.new_page()
        problems = {}
        for path in ("/accounts/login/", "/accounts/password_reset/"):
            page.goto(server_url + path)
            problems[path] = _axe(page)
        name = unique("axe")
        _sign_up(page, server_url, name, f"{name}@example.com")
        page.goto(server_url + "/conta/")
        problems["/conta/"] = _axe(page)
        page.fill("#id_email", "not an address")
        page.locator("#id_email").evaluate("e => e.type = 'text'")  # past the browser's check
        page.click("[data-form=email] button[type=submit]")
        expect(page.locator("[data-form=email] .field-error")).to_be_visible()
        problems["/conta/ (an error)"] = _axe(page)
        assert not any(problems.values()), problems
    finally:
        context.close()
