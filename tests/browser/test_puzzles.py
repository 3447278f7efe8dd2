"""The puzzle page (docs/site.md, "Puzzles"): a wrong and then a right answer,
with the ratings moving as expected (down after the wrong one, up after the
right one), the history on the profile, and nothing on the page of where the
puzzle came from; screenshots at a phone's and a laptop's size."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.analysis.planted import BEST, DECISION_SEQ
from tests.browser.play import sign_up

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def _puzzles(env: dict[str, str]) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.puzzle_room"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _answer(page: Page, action: dict) -> None:
    """Click the answer as a person would: the tile (and its end when asked)."""
    if action["type"] != "play":
        page.locator(f'[data-answer="{action["type"]}"]').click()
        return
    page.locator(f'[data-puzzle-hand] [data-tile="{action["tile"]}"]').click()
    end = page.locator(f'[data-end="{action["end"]}"]')
    if end.count():
        end.click()


def _change(page: Page) -> tuple[int, int]:
    text = page.locator("[data-rating-change]").inner_text()
    before, after = (int(n) for n in re.findall(r"\d+", text)[-2:])
    return before, after


def test_a_wrong_then_a_right_answer_moves_the_ratings(
    browser: Browser, server: tuple[str, dict[str, str]], artifacts: Path
) -> None:
    url, env = server
    made, other = _puzzles(env), _puzzles(env)  # two rounds, a puzzle each
    first, second = made["puzzles"][0], other["puzzles"][0]
    context = browser.new_context(locale="pt-BR", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sign_up(page, url, "solver" + str(first["id"]))
    page.goto(f"{url}/problemas/{first['id']}/")
    page.wait_for_selector("[data-puzzle][data-ready]")
    expect(page.locator("[data-my-rating]")).to_have_text("1500")
    page.screenshot(path=str(artifacts / "puzzle-1280.png"))
    for secret in made["secrets"] + other["secrets"]:
        assert secret not in page.content()
    _answer(page, first["wrong"])
    result = page.locator("[data-result]")
    expect(result).to_have_attribute("data-result", "wrong")
    before, after = _change(page)
    assert before == 1500 and after < before
    expect(page.locator("[data-streak]")).to_contain_text("0")
    page.screenshot(path=str(artifacts / "puzzle-wrong-1280.png"))
    # Trying again shows the right answer as right, and counts nothing.
    page.locator("[data-action=retry]").click()
    _answer(page, first["solution"])
    expect(result).to_have_attribute("data-result", "correct")
    expect(page.locator("[data-unrated]")).to_be_visible()
    # The next puzzle, answered right: the rating rises from where it fell.
    page.goto(f"{url}/problemas/{second['id']}/")
    page.wait_for_selector("[data-puzzle][data-ready]")
    expect(page.locator("[data-my-rating]")).to_have_text(str(after))
    _answer(page, second["solution"])
    expect(result).to_have_attribute("data-result", "correct")
    again_before, again_after = _change(page)
    assert again_before == after and again_after > after
    expect(page.locator("[data-streak]")).to_contain_text("1")
    page.screenshot(path=str(artifacts / "puzzle-right-1280.png"))
    # The profile's history: two rated tries, newest first.
    page.goto(f"{url}/players/solver{first['id']}/")
    tries = page.locator("[data-profile-puzzles] [data-try]")
    expect(tries).to_have_count(2)
    expect(tries.first).to_have_attribute("data-correct", "1")
    expect(page.locator("[data-puzzle-rating]")).to_have_text(str(again_after))
    for secret in made["secrets"]:
        assert secret not in page.content()
    # A phone's screen.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{url}/problemas/{first['id']}/")
    page.wait_for_selector("[data-puzzle][data-ready]")
    page.screenshot(path=str(artifacts / "puzzle-390.png"), full_page=True)
    _answer(page, first["solution"])
    expect(result).to_be_visible()
    page.screenshot(path=str(artifacts / "puzzle-result-390.png"), full_page=True)
    context.close()


def test_the_replay_offers_a_blunder_as_a_puzzle_to_its_player(
    browser: Browser, server: tuple[str, dict[str, str]], artifacts: Path
) -> None:
    """docs/site.md, "Puzzles": "Treinar esta posição" on one's own capivarada."""
    url, env = server
    made = _puzzles(env)
    me = made["blunderer"]
    context = browser.new_context(locale="pt-BR", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", me["username"])
    page.fill("#id_password", me["password"])
    page.click("[data-form=login] button[type=submit]")
    page.wait_for_url(url + "/")
    page.goto(f"{url}/r/{made['code']}/rounds/1/")
    page.wait_for_selector("[data-replay][data-ready]")
    train = page.locator("[data-train][data-ready]")
    expect(train).to_be_hidden()  # the deal: not a blunder of mine
    page.locator(f'[data-goto="{DECISION_SEQ}"]').click()
    expect(train).to_be_visible()
    page.screenshot(path=str(artifacts / "replay-train-1280.png"))
    page.locator(f'[data-goto="{DECISION_SEQ - 1}"]').click()
    expect(train).to_be_hidden()
    page.locator(f'[data-goto="{DECISION_SEQ}"]').click()
    train.locator("[data-action=train]").click()
    page.wait_for_url(re.compile(r".*/problemas/\d+/$"))
    page.wait_for_selector("[data-puzzle][data-ready]")
    expect(page.locator("[data-puzzle-hand] [data-tile]")).to_have_count(2)  # my hand then
    _answer(page, BEST.to_dict())
    expect(page.locator("[data-result]")).to_have_attribute("data-result", "correct")
    expect(page.locator("[data-unrated]")).to_be_visible()  # one's own positions are not rated
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "train-result-390.png"), full_page=True)
    context.close()
