"""The replay page shows the round's analysis (docs/site.md, "Round analysis"):
each person's accuracy, the mark of the move on show with its expected points,
and on the chain the ring on the tile played and the best alternative."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from analysis import scoring
from tests.analysis.planted import BLUNDER, DECISION_SEQ

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
WORST = scoring.THRESHOLDS[-1][0]


def _analysed_room(env: dict[str, str], *flags: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.analysed_room", *flags],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_replay_shows_marks_accuracy_and_the_best_alternative(
    browser: Browser, server: tuple[str, dict[str, str]], artifacts: Path
) -> None:
    url, env = server
    room = _analysed_room(env)
    context = browser.new_context(locale="pt-BR", viewport={"width": 1440, "height": 900})
    context.add_cookies([{**room["cookie"], "url": url}])
    page = context.new_page()
    page.goto(f"{url}/r/{room['code']}/rounds/1/")
    page.wait_for_selector("[data-replay][data-ready]")
    panel = page.locator("[data-analysis][data-ready]")
    expect(panel).to_be_visible()
    accuracy = panel.locator("[data-accuracy-seat]")
    expect(accuracy).to_have_count(2)
    expect(accuracy.first).to_contain_text("%")
    # The log marks the blunder; stepping to it shows its mark, bars and the chain's drawing.
    log_mark = page.locator(f'[data-goto="{DECISION_SEQ}"] .log-mark')
    expect(log_mark).to_have_attribute("data-mark", WORST)
    page.locator(f'[data-goto="{DECISION_SEQ}"]').click()
    expect(panel.locator("[data-mark]")).to_have_attribute("data-mark", WORST)
    expect(panel.locator("[data-mark]")).to_have_text("Capivarada")
    expect(panel.locator("[data-option]")).to_have_count(3)
    expect(panel.locator(".analysis-option.chosen")).to_contain_text(str(BLUNDER.tile))
    layer = page.locator("[data-board] [data-analysis-layer]")
    expect(layer.locator(".analysis-ring")).to_have_count(1)
    expect(layer.locator(f'[data-glyph="{WORST}"]')).to_have_count(1)
    expect(layer.locator(".analysis-ghost")).to_have_count(1)
    page.screenshot(path=str(artifacts / "replay-analysis.png"))
    expect(accuracy.first).not_to_contain_text("%%")
    # A move without a choice (seat 1's pass): no drawing on the chain, the panel says so.
    page.locator(f'[data-goto="{DECISION_SEQ - 1}"]').click()
    expect(layer).to_have_count(0)
    expect(panel.locator("[data-analysis-move]")).to_contain_text("Sem análise")
    context.close()


def test_a_player_asks_for_the_analysis_and_the_replay_shows_it_when_written(
    browser: Browser, server: tuple[str, dict[str, str]], artifacts: Path
) -> None:
    """docs/site.md, "Round analysis: what is analysed and when": a round left
    out of the queue is queued again by opening its replay, which says where
    it stands, offers its player to put it first, and shows the analysis once
    it is written (the page asks every few seconds)."""
    url, env = server
    room = _analysed_room(env, "--dropped")
    context = browser.new_context(locale="pt-BR", viewport={"width": 390, "height": 844})
    context.add_cookies([{**room["cookie"], "url": url}])
    page = context.new_page()
    page.goto(f"{url}/r/{room['code']}/rounds/1/")
    panel = page.locator("[data-analysis][data-ready]")
    state = page.locator("[data-analysis-state]")
    try:  # (the test server's worker may analyse it before the page is drawn)
        expect(state.or_(panel)).to_be_visible()
        if state.is_visible():
            assert state.get_attribute("data-analysis-state") in ("queued", "running", "done")
            page.screenshot(path=str(artifacts / "replay-analysis-queued.png"))
            ask = page.locator("[data-ask-analysis]")
            if ask.is_visible():
                ask.click()
        expect(panel).to_be_visible(timeout=60_000)
        expect(panel.locator("[data-accuracy-seat]")).to_have_count(2)
    finally:
        context.close()
