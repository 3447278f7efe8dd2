"""Tried as a new user would (docs/site.md, "Quick match"): two people in two
browsers both click "Jogar agora com pessoas" for duelo, and within 3 s both
sit at the same new table."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import sign_up, unique, wait_for_table

pytestmark = pytest.mark.browser

WITHIN_SECONDS = 3.0


def _ask_for_a_duelo(page: Page) -> None:
    quick = page.locator("[data-quick]")
    quick.locator("[data-quick-preset]").select_option("duelo")
    quick.get_by_role("button", name="Jogar agora com pessoas").click()


def test_two_browsers_click_play_now_with_people_and_sit_at_one_table(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    sign_up(page, server_url, unique("ana"))
    other_context = browser.new_context(locale="pt-BR")
    other = other_context.new_page()
    sign_up(other, server_url, unique("bia"))
    expect(page.locator("[data-quick-now]")).to_contain_text("jogando agora")

    _ask_for_a_duelo(page)
    expect(page.locator("[data-quick-status]")).to_contain_text("nesta fila")
    page.screenshot(path=artifacts / "quick-waiting.png")
    started = time.monotonic()
    _ask_for_a_duelo(other)
    # Seated by the server before "matched" is sent: the pages go to the table.
    page.wait_for_url("**/r/*/", wait_until="commit", timeout=WITHIN_SECONDS * 1000)
    other.wait_for_url("**/r/*/", wait_until="commit", timeout=WITHIN_SECONDS * 1000)
    elapsed = time.monotonic() - started
    assert page.url == other.url  # the same table
    assert elapsed < WITHIN_SECONDS, f"at the table after {elapsed:.2f} s"
    wait_for_table(page)
    wait_for_table(other)
    expect(page.locator("[data-seat].is-me")).to_have_count(1)
    expect(other.locator("[data-seat].is-me")).to_have_count(1)
    expect(page.locator("[data-seat].kind-human")).to_have_count(2)
    page.screenshot(path=artifacts / "quick-seated.png")
    other_context.close()
