"""One name for each seat everywhere, in a real browser (docs/site.md, "Names at
the table"): at a table against bots each bot shows its own Brazilian name and
picture, the title does not call the table "⚔ Competitiva" (it can never be
rated), the score box says a partnership as "Ana e Dona Cida" (never "&"), and
the replay names every seat as the table did."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.play import RESULT, play_alone, play_until_result, sign_up, unique

pytestmark = pytest.mark.browser


def test_a_bots_name_and_picture_at_the_table_the_score_box_and_the_replay(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    context = browser.new_context(locale="pt-BR", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        me = unique("ana")
        sign_up(page, server_url, me)
        page.goto(server_url + "/")
        play_alone(page, preset="parceria", level="easy")
        names = [page.locator(f'[data-seat="{i}"] .seat-name .name').inner_text() for i in range(4)]
        assert names[0] == me and len(set(names)) == 4
        assert not any(re.search(r"\bBot\b|Cadeira", name) for name in names), names
        for index in (1, 2, 3):  # a bot's picture, served by the site
            picture = page.locator(f'[data-seat="{index}"] .avatar img')
            expect(picture).to_have_attribute("src", re.compile(r"/static/icons/bots/bot-\d\.svg$"))
            assert picture.evaluate("(img) => img.complete && img.naturalWidth > 0")
        # A private table against bots can never be rated: no "⚔ Competitiva".
        kind = page.locator(".table-title [data-kind]")
        expect(kind).to_have_attribute("data-kind", "unratable")
        expect(kind).to_have_text("Sem ranking")
        scores = page.locator("[data-scores] .score-name").first.inner_text()
        assert f"{me} e {names[2]}" in scores and "&" not in scores
        play_until_result([page])
        result = page.locator(RESULT).inner_text()
        assert "&" not in result and "Cadeira" not in result
        page.locator("[data-replay-link]").click()
        page.wait_for_selector("[data-replay][data-ready]")
        shown = [
            page.locator(f'[data-replay] [data-seat="{i}"] .seat-name .name').inner_text()
            for i in range(4)
        ]
        assert shown == names
        page.screenshot(path=str(artifacts / "seat-names-replay.png"))
    finally:
        context.close()
