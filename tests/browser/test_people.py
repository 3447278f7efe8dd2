"""Two people in two browsers (docs/site.md, "Friends, blocking and who is
online"): a friend request is sent from a profile and accepted in the lobby;
each then sees the other in their list of friends, and the presence changes
live on the other's page when one opens a table, goes back to the lobby and
leaves the site; a challenge sent from a profile pops up on whatever page the
other has open, and accepting it seats both at one table within 2 s."""

from __future__ import annotations

import re
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import (
    create_room,
    play_alone,
    play_until_result,
    sign_up,
    unique,
    wait_for_table,
)
from tests.browser.test_table_feel import SPY

pytestmark = pytest.mark.browser


def test_a_friend_request_is_accepted_and_presence_follows_live(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    ana, bia = unique("ana"), unique("bia")
    sign_up(page, server_url, ana)
    other_context = browser.new_context(locale="pt-BR")
    other = other_context.new_page()
    sign_up(other, server_url, bia)

    page.goto(f"{server_url}/players/{bia}/")
    page.click(f'[data-action="friend-request"][data-person="{bia}"]')
    expect(page.locator("[data-people-actions]")).to_have_attribute("data-relation", "asked")

    other.goto(server_url + "/")
    request = other.locator(f'[data-request-from="{ana}"]')
    expect(request).to_be_visible()
    other.screenshot(path=artifacts / "people-request.png")
    request.locator('[data-action="friend-accept"]').click()
    friend = other.locator(f'[data-friends] [data-friend="{ana}"]')
    expect(friend).to_have_attribute("data-presence", "online")  # her page is open

    page.goto(server_url + "/")
    expect(page.locator(f'[data-friends] [data-friend="{bia}"]')).to_have_attribute(
        "data-presence", "online"
    )
    code = create_room(page, preset="duelo", visibility="public", name="Mesa da Ana")
    # bia's lobby, never reloaded, follows: at a table, with its link
    expect(friend).to_have_attribute("data-presence", "table")
    expect(friend.locator("[data-presence-link]")).to_have_attribute("href", f"/r/{code}/")
    other.screenshot(path=artifacts / "people-at-a-table.png")
    page.goto(server_url + "/")
    expect(friend).to_have_attribute("data-presence", "online")
    expect(friend.locator("[data-presence-link]")).to_have_count(0)
    page.close()
    expect(friend).to_have_attribute("data-presence", "offline")
    other_context.close()


def test_a_challenge_pops_up_on_any_page_and_both_are_seated(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    other_context = browser.new_context(locale="pt-BR")
    _challenge_accepted_within_2_s(
        page, server_url, other_context.new_page(), server_url, artifacts
    )
    other_context.close()


@pytest.mark.postgres
@pytest.mark.redis
def test_a_challenge_across_two_daphnes_seats_both_within_2_s(
    browser: Browser, two_daphnes: tuple[str, str], artifacts: Path
) -> None:
    """ana's pages come from one Daphne, bia's from the other (one database,
    the Redis channel layer): the challenge reaches bia live and both are
    seated at one table within 2 s."""
    one, two = two_daphnes
    contexts = [browser.new_context(locale="pt-BR") for _ in range(2)]
    page, other = (context.new_page() for context in contexts)
    _challenge_accepted_within_2_s(page, one, other, two, artifacts)
    for context in contexts:
        context.close()


def _challenge_accepted_within_2_s(
    page: Page, base: str, other: Page, other_base: str, artifacts: Path
) -> None:
    """ana (``page`` on ``base``) challenges bia (``other`` on ``other_base``,
    on the rules page) from bia's profile; bia accepts the box that pops up and
    both pages are at one table, two people seated, within 2 s."""
    ana, bia = unique("ana"), unique("bia")
    sign_up(page, base, ana)
    sign_up(other, other_base, bia)
    other.goto(other_base + "/regras/")  # any page of the site

    page.goto(f"{base}/players/{bia}/")
    form = page.locator('[data-form="challenge"]')
    form.locator("select[name=preset]").select_option("duelo")
    form.locator(f'[data-action="challenge"][data-person="{bia}"]').click()
    toast = other.locator("[data-challenge-toast]")
    expect(toast).to_contain_text(ana)
    other.screenshot(path=artifacts / "people-challenge.png")
    started = time.monotonic()
    toast.locator('[data-action="challenge-accept"]').click()
    other.wait_for_url("**/r/*/", wait_until="commit", timeout=2000)
    page.wait_for_url("**/r/*/", wait_until="commit", timeout=2000)
    assert time.monotonic() - started < 2.0
    assert urlsplit(page.url).path == urlsplit(other.url).path
    for table in (page, other):
        wait_for_table(table)
        expect(table.locator("[data-seat].kind-human")).to_have_count(2)


def test_a_challenge_to_someone_playing_bots_links_their_table_and_leaves_it_to_accept(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    """bia plays alone against bots; ana's challenge pops up on bia's table
    page. "Aceitar" is refused (a match of hers is in play) and the box shows
    "Ir para a mesa" (her table) and "Sair da mesa e aceitar", which leaves it
    (the table's own leave) and seats both at the challenge's table
    (docs/site.md, "Challenges")."""
    ana, bia = unique("ana"), unique("bia")
    sign_up(page, server_url, ana)
    other_context = browser.new_context(locale="pt-BR")
    other = other_context.new_page()
    sign_up(other, server_url, bia)
    other.goto(server_url + "/")
    play_alone(other, preset="duelo")
    bots_table = urlsplit(other.url).path
    page.goto(f"{server_url}/players/{bia}/")
    form = page.locator('[data-form="challenge"]')
    form.locator("select[name=preset]").select_option("duelo")
    form.locator(f'[data-action="challenge"][data-person="{bia}"]').click()
    toast = other.locator("[data-challenge-toast]")
    expect(toast).to_contain_text(ana)
    toast.locator('[data-action="challenge-accept"]').click()
    expect(toast.locator("[data-challenge-error]")).to_contain_text(
        "Você está no meio de uma partida"
    )
    link = toast.locator('[data-action="go-to-table"]')
    expect(link).to_have_attribute("href", bots_table)
    expect(link).to_have_text("Ir para a mesa")
    other.screenshot(path=artifacts / "people-challenge-leave.png")
    toast.locator('[data-action="challenge-leave-accept"]').click()
    elsewhere = re.compile(
        r".*/r/(?!" + re.escape(bots_table.strip("/").rsplit("/", 1)[-1]) + "/).*"
    )
    other.wait_for_url(elsewhere, wait_until="commit", timeout=5000)
    page.wait_for_url(elsewhere, wait_until="commit", timeout=5000)
    assert urlsplit(page.url).path == urlsplit(other.url).path
    wait_for_table(other)
    expect(other.locator("[data-seat].kind-human")).to_have_count(2)
    other_context.close()


def test_a_challenge_to_a_hidden_tab_notifies_only_who_opted_in(
    page: Page, browser: Browser, server_url: str
) -> None:
    """The challenged person's tab is hidden: with the site's notifications
    turned on (the opt-in of docs/table-feel.md) a system notification names
    the challenger; the same challenge to a hidden tab that never opted in
    sends none (its box still waits on the page)."""
    ana = unique("ana")
    sign_up(page, server_url, ana)
    for opted_in in (True, False):
        context = browser.new_context(locale="pt-BR", permissions=["notifications"])
        context.add_init_script(SPY)
        other = context.new_page()
        bia = unique("bia")
        sign_up(other, server_url, bia)
        if opted_in:
            other.evaluate("() => localStorage.setItem('domino.alert.notify', 'on')")
        other.goto(server_url + "/regras/")
        other.evaluate("() => window.__hide(true)")
        page.goto(f"{server_url}/players/{bia}/")
        page.locator('[data-form="challenge"] select[name=preset]').select_option("duelo")
        page.click(f'[data-action="challenge"][data-person="{bia}"]')
        expect(other.locator("[data-challenge-toast]")).to_contain_text(ana)
        notes = other.evaluate("() => window.__spy.notes")
        if opted_in:
            assert len(notes) == 1 and notes[0][1].startswith(f"{ana}: "), notes
        else:
            assert notes == []
        context.close()


def test_a_rematch_is_offered_after_the_match_and_accepted(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    ana, bia = unique("ana"), unique("bia")
    sign_up(page, server_url, ana)
    other_context = browser.new_context(locale="pt-BR")
    other = other_context.new_page()
    sign_up(other, server_url, bia)
    page.goto(f"{server_url}/players/{bia}/")
    form = page.locator('[data-form="challenge"]')
    form.locator("select[name=preset]").select_option("duelo")
    form.locator("input[name=rated]").uncheck()
    form.locator(f'[data-action="challenge"][data-person="{bia}"]').click()
    other.locator('[data-challenge-toast] [data-action="challenge-accept"]').click()
    page.wait_for_url("**/r/*/", wait_until="commit")
    other.wait_for_url("**/r/*/", wait_until="commit")
    first_table = page.url
    wait_for_table(page)
    wait_for_table(other)
    play_until_result([page, other])
    page.click(f'[data-action="rematch"][data-person="{bia}"]')
    toast = other.locator("[data-challenge-toast]")
    expect(toast).to_contain_text(ana)
    other.screenshot(path=artifacts / "people-rematch.png")
    toast.locator('[data-action="challenge-accept"]').click()
    elsewhere = re.compile(
        r".*/r/(?!" + re.escape(first_table.rstrip("/").rsplit("/", 1)[-1]) + r"/).*"
    )
    other.wait_for_url(elsewhere, wait_until="commit", timeout=5000)
    page.wait_for_url(elsewhere, wait_until="commit", timeout=5000)
    assert page.url == other.url
    wait_for_table(other)
    expect(other.locator('[data-seat="0"]')).to_contain_class("is-me")  # the other way round
    other_context.close()


def test_the_people_s_parts_have_no_serious_axe_violation(
    browser: Browser, server_url: str
) -> None:
    """axe-core (as tests/browser/test_accessibility.py runs it) on the panels
    with something in them: a friend, a request, a challenge; another's
    profile with its forms; the challenge box on another page."""
    from tests.browser.test_accessibility import _axe, _context

    ana, bia, caio = unique("ana"), unique("bia"), unique("caio")
    pages = {}
    for name in (ana, bia, caio):
        pages[name] = _context(browser, "light").new_page()
        sign_up(pages[name], server_url, name)
    one, two, three = pages[ana], pages[bia], pages[caio]
    one.goto(f"{server_url}/players/{bia}/")
    one.click(f'[data-action="friend-request"][data-person="{bia}"]')
    two.goto(server_url + "/")
    two.click('[data-action="friend-accept"]')
    three.goto(f"{server_url}/players/{ana}/")
    three.click(f'[data-action="friend-request"][data-person="{ana}"]')
    three.click(f'[data-action="challenge"][data-person="{ana}"]')
    one.goto(server_url + "/regras/")
    expect(one.locator("[data-challenge-toast]")).to_be_visible()
    problems = {"challenge box": _axe(one)}
    one.goto(server_url + "/")
    problems["lobby panel"] = _axe(one)
    one.goto(f"{server_url}/players/{ana}/")
    problems["own profile"] = _axe(one)
    one.goto(f"{server_url}/players/{bia}/")
    one.click("[data-report] summary")
    problems["a friend's profile"] = _axe(one)
    assert not any(problems.values()), problems
    for page in pages.values():
        page.context.close()
