"""A rated duel between two accounts, then its round replayed from the result
panel (docs/site.md, "Accounts, records, ranking": round replays, rated tables).

The two players' browsers come "through the proxy" (the test server trusts
127.0.0.1, TRUSTED_PROXIES) with different X-Forwarded-For addresses, so the
table is rated, as it would be for two people at two homes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import (
    RESULT,
    create_room,
    play_until_result,
    sign_up,
    sit_by_link,
    unique,
)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}


def _player(browser: Browser, address: str) -> Page:
    context = browser.new_context(
        locale="pt-BR", viewport=DESKTOP, extra_http_headers={"X-Forwarded-For": address}
    )
    return context.new_page()


def _final_position(page: Page) -> tuple[list[str], list[list[str]]]:
    """The chain (in playing order) and every hand as the replay page draws them."""
    return page.evaluate(
        """() => {
          const links = [...document.querySelectorAll('[data-board] [data-link]')]
            .sort((a, b) => Number(a.dataset.chain) - Number(b.dataset.chain))
            .map((g) => g.dataset.link);
          const hands = [...document.querySelectorAll('[data-replay-hand]')]
            .sort((a, b) => Number(a.dataset.replayHand) - Number(b.dataset.replayHand))
            .map((h) => [...h.querySelectorAll('[data-tile]')].map((t) => t.dataset.tile));
          return [links, hands];
        }"""
    )


def test_a_rated_duel_then_its_replay_stepped_with_the_keyboard(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    ana = _player(browser, "198.51.100.11")
    bruno = _player(browser, "198.51.100.22")
    sign_up(ana, server_url, unique("ana"))
    sign_up(bruno, server_url, unique("bruno"))

    code = create_room(ana, preset="duelo", visibility="public", name="Duelo valendo", clock="30")
    sit_by_link(bruno, server_url, code)
    # Two accounts at two addresses: the table is competitive, for both.
    expect(ana.locator("[data-rated]")).to_be_visible()
    expect(bruno.locator("[data-rated]")).to_be_visible()

    ana.click('[data-action="start"]')
    play_until_result([ana, bruno])
    result = ana.locator(RESULT)
    expect(result.locator("[data-rating-changes] li")).to_have_count(2)

    # The result panel opens the round's replay.
    result.locator("[data-replay-link]").click()
    ana.wait_for_url(f"**/r/{code}/rounds/1/?match=1")
    ana.wait_for_selector("[data-replay][data-ready]")
    replay = ana.locator("[data-replay]")
    steps = int(replay.get_attribute("data-steps"))
    assert steps > 2
    expect(replay).to_have_attribute("data-step", "0")
    ana.screenshot(path=artifacts / "replay-deal-desktop.png")

    # Step by step with the arrow key to the last move, and one back and forth.
    ana.locator("body").focus()
    for n in range(1, steps):
        ana.keyboard.press("ArrowRight")
        expect(replay).to_have_attribute("data-step", str(n))
    ana.keyboard.press("ArrowRight")  # already at the end: stays
    expect(replay).to_have_attribute("data-step", str(steps - 1))
    ana.keyboard.press("ArrowLeft")
    expect(replay).to_have_attribute("data-step", str(steps - 2))
    ana.keyboard.press("End")
    expect(replay).to_have_attribute("data-step", str(steps - 1))
    expect(ana.locator("[data-replay-result]")).to_be_visible()

    # The final position is the stored final state of the round.
    stored = ana.request.get(f"{server_url}/api/rooms/{code}/rounds/1/?match=1").json()
    chain = [m["tile"] for m in stored["moves"] if m["type"] == "play"]
    links, hands = _final_position(ana)
    assert links == chain
    assert hands == stored["result"]["hands"]
    assert len(stored["moves"]) == steps - 1
    ana.screenshot(path=artifacts / "replay-desktop.png")
    ana.set_viewport_size(PHONE)
    ana.wait_for_function("width => window.innerWidth === width", arg=PHONE["width"])
    ana.screenshot(path=artifacts / "replay-phone.png", full_page=True, animations="disabled")

    # The slider and the buttons move too.
    ana.set_viewport_size(DESKTOP)
    ana.click('[data-action="replay-start"]')
    expect(replay).to_have_attribute("data-step", "0")
    ana.click('[data-action="replay-next"]')
    expect(replay).to_have_attribute("data-step", "1")
    ana.locator("[data-replay-slider]").fill(str(steps - 1))
    expect(replay).to_have_attribute("data-step", str(steps - 1))

    # The profile: the rating and its history, and the replay links.
    ana.goto(f"{server_url}/")
    ana.click(".who")
    expect(ana.locator("[data-rating-chart] svg")).to_be_visible()
    expect(ana.locator(f'a[href="/r/{code}/rounds/1/?match=1"]')).to_be_visible()
    ana.screenshot(path=artifacts / "profile-desktop.png", full_page=True)
    ana.set_viewport_size(PHONE)
    ana.screenshot(path=artifacts / "profile-phone.png", full_page=True)
    ana.context.close()
    bruno.context.close()
