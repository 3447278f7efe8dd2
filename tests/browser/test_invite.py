"""An invite link opened from another site only shows the sit page
(docs/rated-play.md, "Who counts"): the session cookie travels on a top-level
navigation, so the link itself must change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import create_room, sign_up, unique, wait_for_table

pytestmark = pytest.mark.browser

ELSEWHERE = "http://elsewhere.example/"


def test_an_invite_link_from_another_site_only_shows_the_sit_page(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    sign_up(page, server_url, unique("ana"))
    code = create_room(page, preset="duelo", visibility="private", name="Convite", clock="60")
    invite = page.locator("[data-invite-url]").input_value()

    victim_context = browser.new_context(locale="pt-BR")
    victim = victim_context.new_page()
    sign_up(victim, server_url, unique("bia"))  # logged in: the session cookie travels
    # Another site links (and sends) the victim to the invite.
    victim.route(
        ELSEWHERE,
        lambda route: route.fulfill(
            content_type="text/html", body=f'<a id="go" href="{invite}">prêmio</a>'
        ),
    )
    victim.goto(ELSEWHERE)
    victim.click("#go")
    victim.wait_for_url("**/i/**")
    expect(victim.locator('[data-form="sit"] [data-action="sit"]')).to_be_visible()
    victim.screenshot(path=artifacts / "invite-sit-page.png")
    # Nobody sat: the host's table still shows the second seat free.
    expect(page.locator('[data-seat="1"]')).not_to_contain_class("kind-human")

    victim.click('[data-form="sit"] [data-action="sit"]')  # the victim's own choice
    victim.wait_for_url(f"**/r/{code}/")
    wait_for_table(victim)
    expect(victim.locator('[data-seat="1"]')).to_contain_class("is-me")
    expect(page.locator('[data-seat="1"]')).to_contain_class("kind-human")
    victim_context.close()
