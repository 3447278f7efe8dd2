"""The Content-Security-Policy in a real browser: pages work without inline
script, and an inline script is refused (and reported by the conftest)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.play import play_alone, wait_for_table

pytestmark = pytest.mark.browser


def test_the_policy_refuses_an_inline_script_and_the_tests_notice(
    page: Page, server_url: str, no_content_security_policy_violations: list[str]
) -> None:
    response = page.goto(server_url + "/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    page.evaluate(
        """() => {
            const script = document.createElement("script");
            script.textContent = "window.injected = true";
            document.body.append(script);
        }"""
    )
    assert page.evaluate("window.injected") is None
    assert any("script-src" in v for v in no_content_security_policy_violations)
    no_content_security_policy_violations.clear()  # seen: not a failure of this test


def test_the_language_menu_works_without_an_inline_handler(page: Page, server_url: str) -> None:
    page.goto(server_url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "pt-br")
    for language in ("en", "pt-br"):
        page.wait_for_load_state()  # the module (static/js/site.js) has run
        page.select_option("#language-select", language)
        expect(page.locator("html")).to_have_attribute("lang", language)


def test_play_in_this_tab_takes_the_seat_back(page: Page, server_url: str) -> None:
    page.goto(server_url + "/")
    play_alone(page)
    second = page.context.new_page()
    second.goto(page.url)
    wait_for_table(second)
    expect(page.locator("[data-replaced]")).to_be_visible()
    page.click('[data-replaced] [data-action="reload"]')
    wait_for_table(page)
    expect(page.locator("[data-replaced]")).to_be_hidden()
    expect(second.locator("[data-replaced]")).to_be_visible()
