"""The replay's what-if (docs/site.md, "What if, on the replay"): at a move on
show, another tile, the other end of the tile played, and a forced pass, each
with its expected points beside the one played and the best, the chain it
would have left and its words; the replay's visibility; phone and desktop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.analysis.planted import BEST, BLUNDER, DECISION_SEQ
from tests.browser.test_replay_analysis import _analysed_room

pytestmark = pytest.mark.browser

PASS_SEQ = DECISION_SEQ - 1


def _choice(page: Page, action: dict) -> int:
    boot = json.loads(page.locator("#replay-whatif").text_content() or "{}")
    choices = boot["moves"][str(page_seq(page))]["choices"]
    return choices.index(action)


def page_seq(page: Page) -> int:
    return int(page.locator("[data-replay]").get_attribute("data-step") or 0)


def _values(panel) -> dict[str, float]:
    found = {}
    for key in ("picked", "played", "best"):
        text = panel.locator(f'[data-whatif-value="{key}"]').text_content() or ""
        found[key] = float(text.replace(",", ".").replace("+", "").replace("−", "-"))
    return found


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_tile_an_end_and_a_pass(
    browser: Browser, server: tuple[str, dict[str, str]], artifacts: Path, viewport
) -> None:
    url, env = server
    room = _analysed_room(env)
    width, height = viewport
    context = browser.new_context(locale="pt-BR", viewport={"width": width, "height": height})
    context.add_cookies([{**room["cookie"], "url": url}])
    page = context.new_page()
    try:
        page.goto(f"{url}/r/{room['code']}/rounds/1/")
        page.wait_for_selector("[data-replay][data-ready]")
        panel = page.locator("[data-whatif][data-ready]")
        expect(panel).to_be_visible()
        page.locator(f'[data-goto="{DECISION_SEQ}"]').click()
        buttons = panel.locator("[data-whatif-choice]")
        expect(buttons).to_have_count(3)
        expect(panel.locator("[data-whatif-choice].played")).to_contain_text(str(BLUNDER.tile))
        # Another tile: 5-5 instead of 6-5, which the analysis holds the value of.
        buttons.nth(_choice(page, BEST.to_dict())).click()
        table = panel.locator("table.whatif-values")
        expect(table).to_have_attribute("data-source", "analysis")
        tile = _values(panel)
        assert tile["picked"] == tile["best"] > tile["played"]
        expect(panel.locator('[data-whatif-chain] [data-link="5-5"]')).to_have_count(1)
        expect(panel.locator("[data-whatif-notes] li").first).to_be_visible()
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"replay-whatif-tile-{width}.png"), full_page=True)
        # The other end: 6-5 on A, leaving 5 at both ends.
        buttons.nth(_choice(page, {**BLUNDER.to_dict(), "end": "A"})).click()
        expect(panel.locator('[data-whatif-row="picked"]')).to_contain_text("A")
        end = _values(panel)
        assert end["played"] == tile["played"] and end["picked"] > end["played"]
        expect(panel.locator("[data-whatif-chain] .end-value").first).to_have_text("5")
        # A pass (seat 1's, forced): its expected points, computed on request.
        page.locator(f'[data-goto="{PASS_SEQ}"]').click()
        expect(buttons).to_have_count(1)
        buttons.first.click()
        expect(table).to_have_attribute("data-source", "computed", timeout=30_000)
        passed = _values(panel)
        assert passed["picked"] == passed["played"] == passed["best"]
        expect(panel.locator("[data-whatif-notes] li")).to_have_count(1)
        panel.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"replay-whatif-pass-{width}.png"), full_page=True)
        # Nothing sticks out of the page (the phone's width holds).
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1
    finally:
        context.close()


def test_who_may_not_see_the_round_gets_no_what_if(
    browser: Browser, server: tuple[str, dict[str, str]]
) -> None:
    """A private room's round: a stranger's page is the unknown code's 404, and
    the endpoint answers the same 404 however it is asked."""
    url, env = server
    room = _analysed_room(env)
    context = browser.new_context(locale="pt-BR")
    page = context.new_page()
    try:
        replay = page.goto(f"{url}/r/{room['code']}/rounds/1/")
        assert replay is not None and replay.status == 404
        expect(page.locator("[data-whatif]")).to_have_count(0)
        page.goto(f"{url}/accounts/login/")  # a form: the CSRF cookie
        token = page.evaluate("document.cookie.match(/csrftoken=([^;]+)/)?.[1] || ''")
        assert token
        answer = context.request.post(
            f"{url}/api/rooms/{room['code']}/rounds/1/whatif/",
            data=json.dumps({"seq": DECISION_SEQ, "action": BEST.to_dict()}),
            headers={"Content-Type": "application/json", "X-CSRFToken": token, "Referer": url},
        )
        assert answer.status == 404 and answer.json() == {"error": "not_found"}
        assert "5-5" not in answer.text() and "value" not in answer.text()
    finally:
        context.close()
