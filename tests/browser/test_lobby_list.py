"""The lobby's public list in a browser: the filter and the pages, live over the
lobby socket (docs/site.md "The lobby's list")."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.play import create_room, sign_up, unique


def test_the_lobby_filters_and_pages_the_public_list(browser, server_url):
    hosts = [browser.new_context(), browser.new_context()]
    pages = [context.new_page() for context in hosts]
    for page in pages:
        sign_up(page, server_url, unique("host"))
    duelo = create_room(pages[0], preset="duelo", visibility="public", name=unique("D"), clock="30")
    parceria = create_room(pages[1], preset="parceria", visibility="public", name=unique("P"))
    viewer = browser.new_context(locale="pt-BR")
    lobby = viewer.new_page()
    lobby.goto(server_url + "/?page_size=1")  # one room a page: the newest first
    rows = lobby.locator("[data-rooms] [data-room]")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-room", parceria)
    lobby.locator("[data-live].on").wait_for()  # the socket took over
    lobby.locator("[data-page=next]").click()
    expect(rows.first).to_have_attribute("data-room", duelo)
    lobby.locator("[data-page=previous]").click()
    expect(rows.first).to_have_attribute("data-room", parceria)
    form = lobby.locator("[data-form=room-filter]")
    expect(form).to_contain_text("Só com lugar livre")
    form.locator("[data-filter=preset]").select_option("duelo")
    expect(rows.first).to_have_attribute("data-room", duelo)
    assert "preset=duelo" in lobby.url  # a reload opens the same view
    form.locator("[data-filter=move_seconds]").select_option("0")  # no clock: not the duelo
    expect(lobby.locator(f'[data-room="{duelo}"]')).to_have_count(0)
    form.locator("[data-filter=move_seconds]").select_option("")
    expect(rows.first).to_have_attribute("data-room", duelo)
    pages[0].context.close()  # its only person gone: the room leaves the list, live
    expect(lobby.locator(f'[data-room="{duelo}"]')).to_have_count(0)
    expect(lobby.locator("[data-empty=rooms]")).to_be_visible()
    for context in (hosts[1], viewer):
        context.close()


def test_a_room_form_to_correct_comes_back_with_its_error_and_no_failed_request(
    browser, server_url
):
    """docs/protocol.md, ``POST /rooms/``: a bad field gets the lobby again, 200,
    the error beside its field; the browser logs no failed request."""
    context = browser.new_context(locale="pt-BR")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    sign_up(page, server_url, unique("form"))
    form = page.locator("[data-form=create-room]")
    form.locator("input[name=name]").fill("Mesa\u202eda Ana")  # a bidi override
    with page.expect_response(lambda r: r.url.endswith("/rooms/")) as answer:
        form.locator("[data-action=create]").click()
    assert answer.value.status == 200
    name_field = page.locator("[data-form=create-room] .field.has-error")
    expect(name_field.locator(".field-error")).to_be_visible()
    expect(page.locator("[data-form=create-room] input[name=name]")).to_have_value(
        "Mesa\u202eda Ana"
    )
    assert errors == []
    context.close()
