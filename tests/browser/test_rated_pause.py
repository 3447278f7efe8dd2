"""A pause at a rated match, in two browsers (docs/rated-play.md, "The
rulebook"): any player may pause from their own budget, the table says whose
pause it is and when the game goes on by itself, and only the pauser resumes.

The players come "through the proxy" with two X-Forwarded-For addresses (as in
tests/browser/test_replay.py), so the table is rated."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import create_room, sign_up, sit_by_link, unique

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def _player(browser: Browser, address: str, viewport: dict) -> Page:
    context = browser.new_context(
        locale="pt-BR", viewport=viewport, extra_http_headers={"X-Forwarded-For": address}
    )
    return context.new_page()


def test_the_guest_pauses_a_rated_match_from_their_budget(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    ana = _player(browser, "198.51.100.31", DESKTOP)
    bruno = _player(browser, "198.51.100.32", PHONE)
    bruno_name = unique("bruno")
    sign_up(ana, server_url, unique("ana"))
    sign_up(bruno, server_url, bruno_name)
    code = create_room(ana, preset="duelo", visibility="public", name="Valendo", clock="")
    sit_by_link(bruno, server_url, code)
    expect(ana.locator("[data-rated]")).to_be_visible()
    ana.click('[data-action="start"]')

    pause = bruno.locator('[data-host] [data-action="pause"]')  # not the host, yet he may
    expect(pause).to_contain_text("90")
    pause.click()
    note = ana.locator("[data-pause-note]")
    expect(note).to_be_visible()
    expect(note).to_contain_text(bruno_name)
    expect(ana.locator('[data-action="resume"]')).to_have_count(0)  # only the pauser resumes
    expect(bruno.locator('[data-action="resume"]')).to_be_visible()
    ana.screenshot(path=artifacts / "rated-pause-desktop.png")
    bruno.screenshot(path=artifacts / "rated-pause-phone.png")

    bruno.click('[data-action="resume"]')
    expect(ana.locator("[data-pause-note]")).to_have_count(0)
    expect(bruno.locator('[data-host] [data-action="pause"]')).to_be_visible()
