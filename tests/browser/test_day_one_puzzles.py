"""A fresh site has puzzles (docs/site.md, "Puzzles"): what
`make run` does (an empty SQLite file, ``manage.py migrate``, Daphne), and
nothing else; a guest opens the puzzle of the day and answers it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from puzzles import day_one
from tests.browser.conftest import _daphne, _migrate, _server_env

pytestmark = pytest.mark.browser


def test_a_fresh_site_has_a_puzzle_of_the_day_for_a_guest(browser: Browser, artifacts: Path):
    workdir = Path(tempfile.mkdtemp(prefix="domino-day-one-"))
    env = _server_env(f"sqlite:///{workdir / 'db.sqlite3'}")
    _migrate(env)
    # The day's puzzle is the oldest published one: the file's first entry.
    first = day_one.read()["puzzles"][0]
    with _daphne(env, workdir, name="day-one") as url:
        context = browser.new_context(locale="pt-BR", viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(f"{url}/problemas/")
        page.wait_for_selector("[data-puzzle][data-ready]")
        expect(page.locator("[data-no-puzzle]")).to_have_count(0)
        page.locator("[data-action=daily]").click()
        page.wait_for_selector("[data-puzzle][data-ready]")
        expect(page.locator("h1")).to_have_text("Problema do dia")
        solution = first["solution"]
        if solution["type"] == "play":
            page.locator(f'[data-puzzle-hand] [data-tile="{solution["tile"]}"]').click()
            end = page.locator(f'[data-end="{solution["end"]}"]')
            if end.count():
                end.click()
        else:
            page.locator(f'[data-answer="{solution["type"]}"]').click()
        expect(page.locator("[data-result]")).to_have_attribute("data-result", "correct")
        page.screenshot(path=str(artifacts / "day-one-daily-390.png"), full_page=True)
        context.close()
