"""Where the chips appear (docs/site.md, "Fichas"): the header shows a
signed-in person's balance on every page, their profile the balance and the
last entries (to them alone), each with the play-chips notice, in pt-BR by
default ("0 fichas": zero is plural) and in English."""

from __future__ import annotations

import pytest
from django.test import Client

from chips import services as chips

pytestmark = pytest.mark.django_db

NOTICE_PT = (
    "Fichas só de jogo: não podem ser compradas, vendidas, trocadas por dinheiro nem transferidas."
)


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_header_shows_the_balance_in_the_catalogs_plurals(make_user, settings):
    settings.CHIPS_DAILY_FLOOR = 0
    ana = make_user("ana")
    client = _signed_in(ana)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert 'data-chips-balance="0"' in page and "0 fichas" in page
    chips.correction_add(user=ana, amount=1, staff=None, note="one")
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "1 ficha<" in page
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 chip<" in page


def test_a_guest_sees_no_chips():
    page = Client().get("/").content.decode()
    assert "data-chips-balance" not in page


def test_the_profile_shows_ones_own_balance_and_last_entries_to_oneself_only(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    chips.welcome_grant(user=ana)
    mine = _signed_in(ana).get("/players/ana/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert 'data-chips-total="1000"' in mine and "1000 fichas" in mine
    assert 'data-entry="welcome"' in mine and "Boas-vindas" in mine and "+1000" in mine
    assert NOTICE_PT in mine
    theirs = _signed_in(bruno).get("/players/ana/").content.decode()
    assert "data-chips-total" not in theirs and 'data-entry="welcome"' not in theirs
