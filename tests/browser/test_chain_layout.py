"""The chain is laid out as a snake that stays inside the table and never
overlaps itself, at phone and desktop sizes: real tables (real_rooms.py) whose
whole round was played by the services, on the real table page from the real
``room_state``, seen from seat 0."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

GEOMETRY = """() => {
  const b = document.querySelector('[data-board]').getBoundingClientRect();
  const faces = [...document.querySelectorAll('svg.chain g.tile .tile-face')];
  return {
    board: [b.left, b.top, b.right, b.bottom],
    tiles: faces.map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }),
    links: JSON.parse(document.getElementById('table-boot').textContent).snapshot.round.chain.length,
    you: JSON.parse(document.getElementById('table-boot').textContent).snapshot.you.seat,
  };
}"""


def _overlap(a, b) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


@pytest.fixture(scope="module")
def rooms(real_rooms) -> list[dict]:
    """Twelve finished rounds of a partnership game (long chains, no boneyard)."""
    return real_rooms(12, seed=5)


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1440, "height": 900}, {"width": 390, "height": 844}],
    ids=["desktop", "phone"],
)
def test_the_chain_snakes_inside_the_table_without_overlaps(
    browser: Browser, server_url: str, rooms: list[dict], viewport: dict
) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    for seed, room in enumerate(rooms, 1):
        context.add_cookies([{**room["cookie"], "url": server_url}])
        page.goto(f"{server_url}/r/{room['code']}/")
        page.wait_for_selector("svg.chain g.tile")
        geometry = page.evaluate(GEOMETRY)
        assert geometry["you"] == 0
        left, top, right, bottom = geometry["board"]
        tiles = geometry["tiles"]
        assert len(tiles) == geometry["links"] >= 8
        for tile in tiles:
            assert left - 1 <= tile[0] and tile[2] <= right + 1, (seed, tile, geometry["board"])
            assert top - 1 <= tile[1] and tile[3] <= bottom + 1, (seed, tile, geometry["board"])
        for i, a in enumerate(tiles):
            for b in tiles[i + 1 :]:
                assert _overlap(a, b) < 1.0, (seed, a, b)
        # Tiles stay big enough to read on a phone.
        assert min(min(t[2] - t[0], t[3] - t[1]) for t in tiles) >= 12
    context.close()
