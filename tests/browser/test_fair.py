"""Verifiable deals in the browser (docs/site.md, "Verifiable deals"): the table
shows the next deal's commitment before the deal, each seated person's page
sends a seed (random, or the one they typed), and the replay page computes the
deal again with SubtleCrypto: ✔, and ✘ once a seed is tampered with."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import (
    create_room,
    play_until_result,
    sign_up,
    sit_by_link,
    unique,
)

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1440, "height": 900}
CHECK = "[data-fair-check]"


def _person(browser: Browser) -> Page:
    return browser.new_context(locale="pt-BR", viewport=DESKTOP).new_page()


def test_the_deal_is_committed_seeded_by_the_browsers_and_checked_on_the_replay(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    ana, bruno = _person(browser), _person(browser)
    sign_up(ana, server_url, unique("ana"))
    sign_up(bruno, server_url, unique("bruno"))
    code = create_room(ana, preset="duelo", visibility="public", name="Duelo conferido", clock="30")
    sit_by_link(bruno, server_url, code)

    # Before the deal: the commitment, in small print, with its translated label.
    shown = ana.locator("[data-fair] [data-fair-commitment]")
    expect(shown).to_be_visible()
    expect(ana.locator("[data-fair]")).to_contain_text("Compromisso do embaralhamento")
    committed = shown.get_attribute("title")
    assert re.fullmatch(r"[0-9a-f]{64}", committed)

    # Ana types her own seed; Bruno's page sends a random one by itself.
    ana.locator("[data-fair-seed] summary").click()
    ana.locator("[data-fair-input]").fill("semente da Ana")
    ana.locator("[data-fair-form] button[type=submit]").click()
    expect(ana.locator("[data-fair-status]")).not_to_be_empty()
    ana.screenshot(path=artifacts / "fair-table.png")
    ana.click('[data-action="start"]')
    play_until_result([ana, bruno])

    stored = ana.request.get(f"{server_url}/api/rooms/{code}/rounds/1/?match=1").json()
    fair = stored["fair"]
    assert fair["commitment"] == committed
    assert fair["client_seeds"][0] == "semente da Ana"
    assert re.fullmatch(r"[0-9a-f]{32}", fair["client_seeds"][1])
    assert hashlib.sha256(bytes.fromhex(fair["server_seed"])).hexdigest() == committed
    # The table now shows the next deal's commitment, published with this deal.
    assert ana.locator("[data-fair] [data-fair-commitment]").get_attribute("title") != committed

    ana.goto(f"{server_url}/r/{code}/rounds/1/?match=1")
    check = ana.locator(CHECK)
    expect(check).to_have_attribute("data-verdict", "ok")
    expect(check.locator("[data-fair-verdict]")).to_have_text("✔")
    expect(check.locator("[data-fair-material]")).to_have_text(fair["material"])
    expect(check.locator("[data-fair-deal] li").first).to_contain_text(
        " ".join(stored["deal"]["hands"][0])
    )
    ana.screenshot(path=artifacts / "fair-replay-ok.png", full_page=True)

    # A tampered server seed: ✘; put back: ✔; a tampered client seed: ✘.
    seed_field = check.locator("[data-fair-server-seed]")
    tampered = ("0" if fair["server_seed"][0] != "0" else "1") + fair["server_seed"][1:]
    seed_field.fill(tampered)
    expect(check).to_have_attribute("data-verdict", "bad")
    expect(check.locator("[data-fair-verdict]")).to_have_text("✘")
    ana.screenshot(path=artifacts / "fair-replay-tampered.png", full_page=True)
    seed_field.fill(fair["server_seed"])
    expect(check).to_have_attribute("data-verdict", "ok")
    check.locator("[data-fair-client-seed]").first.fill("semente da Ana!")
    expect(check).to_have_attribute("data-verdict", "bad")
    expect(check.locator("[data-fair-verdict]")).to_have_text("✘")
    ana.context.close()
    bruno.context.close()
