"""An arena as new players meet it (docs/site.md, "Arenas"): two people sign
up, find a public arena at /torneios/, join it, are seated at a table of their
own, play it out, and see the standings move on the arena page."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.play import play_until_result, public_arena, sign_up, unique, wait_for_table


def test_join_a_public_arena_get_seated_play_and_see_the_standings_move(browser, server, artifacts):
    base, env = server
    name = unique("Arena ")
    arena_id = public_arena(env, name)
    pages = []
    # Two homes (through the test server's trusted proxy): an arena never pairs
    # two accounts of one address (docs/rated-play.md, "The rulebook").
    for who, address in (("ana", "198.51.100.41"), ("bia", "198.51.100.42")):
        context = browser.new_context(
            locale="pt-BR", extra_http_headers={"X-Forwarded-For": address}
        )
        page = context.new_page()
        sign_up(page, base, unique(who))
        page.goto(base + "/torneios/")
        page.get_by_role("link", name=name).click()
        page.wait_for_url(f"**/torneios/{arena_id}/")
        expect(page.locator("[data-arena-rules]")).to_contain_text("2")
        page.click("[data-action=join-arena]")
        if not pages:  # the first is alone: in, waiting (the second is paired at once)
            expect(page.locator("[data-action=leave-arena]")).to_be_visible()
        pages.append(page)
    # The second to join completes a pair: both pages go to their new table.
    for page in pages:
        page.wait_for_url("**/r/*/", timeout=30_000)
        wait_for_table(page)
    assert pages[0].url == pages[1].url
    play_until_result(pages)
    pages[0].screenshot(path=str(artifacts / "arena-table.png"))
    first_table = pages[0].url
    # Nobody else is free: once the two have waited a while they meet again,
    # and the table pages go to the new table by themselves.
    for page in pages:
        expect(page.locator("[data-arena-link]")).to_be_visible()
        page.wait_for_url(lambda url: "/r/" in url and url != first_table, timeout=60_000)
        wait_for_table(page)
    assert pages[0].url == pages[1].url
    for page in pages:
        page.goto(f"{base}/torneios/{arena_id}/")
    standings = pages[0].locator("[data-standings]")
    expect(standings.locator("tr[data-player]")).to_have_count(2)
    # One of them won (2 points) unless the game was drawn (1 point each).
    scores = sorted(int(s.split()[0]) for s in standings.locator("[data-score]").all_inner_texts())
    assert scores in ([0, 2], [1, 1]), scores
    pages[0].screenshot(path=str(artifacts / "arena-standings.png"), full_page=True)
