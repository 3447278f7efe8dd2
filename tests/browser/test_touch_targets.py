"""Touch targets (WCAG 2.2 "Target size (minimum)", which Lighthouse's mobile
accessibility audit checks): the lobby's radio buttons, 13 px by the browser's
default, are 24 px or more on a phone and on a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser.test_layout import SIZES


@pytest.mark.parametrize("size", ["390x844", "1280x800"])
def test_the_lobby_s_radio_buttons_are_24_px_targets(
    browser: Browser, server_url: str, size: str
) -> None:
    phone = SIZES[size]["width"] < 600
    context = browser.new_context(
        locale="pt-BR", viewport=SIZES[size], has_touch=phone, is_mobile=phone
    )
    page = context.new_page()
    page.goto(server_url + "/")
    radios = page.locator("main input[type=radio]")
    assert radios.count() >= 2  # the create form's "public" and "private"
    for n in range(radios.count()):
        radio = radios.nth(n)
        radio.scroll_into_view_if_needed()
        box = radio.bounding_box()
        assert box and box["width"] >= 24 and box["height"] >= 24, (n, box)
    context.close()
