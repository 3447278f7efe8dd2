"""The quick match with a stake (docs/site.md, "Fichas"; docs/protocol.md,
"Quick match"), over ws/quick/ on the real ASGI app: one queue per preset,
clock and stake; people are paired only within one stake, each covering it
(``no_chips`` at the join, and a pass drops one whose chips fell short); two
accounts of one address never meet at a staked table; the table opened
carries the stake and its match holds it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from chips import selectors
from chips import services as chips
from domino_site.client_ip import ip_hash
from domino_site.realtime.asyncdb import db_async
from games.world import world
from quick.services import quick_join, quick_pair
from rooms.models import QuickEntry, Room
from tests.realtime.test_quick_match import Quick

pytestmark = pytest.mark.django_db(transaction=True)


def _rich(django_user_model, name: str, amount: int = 1000):
    user = django_user_model.objects.create_user(name, password="x")
    chips.correction_add(user=user, amount=amount, staff=None, note="test")
    return user


async def test_two_in_a_staked_queue_meet_at_a_table_that_holds_the_stake_apart_from_the_free_queue(
    live, django_user_model, settings
):
    settings.CHIPS_DAILY_FLOOR = 0  # no allowance as the sockets' sessions sign in
    ana, bruno, caio = [
        await sync_to_async(_rich)(django_user_model, name) for name in ("ana", "bruno", "caio")
    ]
    one = await Quick.open(ana, "203.0.113.10")
    free = await Quick.open(caio, "203.0.113.12")
    await one.join("duelo", 20, stake=50)
    first = await one.next("queue")
    assert (first["stake"], first["waiting"]) == (50, 1)
    await free.join("duelo", 20)  # the free queue of the same preset and clock
    waiting = await free.next("queue")
    assert (waiting["stake"], waiting["waiting"]) == (0, 1)  # not paired with ana
    two = await Quick.open(bruno, "198.51.100.11")
    await two.join("duelo", 20, stake=50)
    matched = [await one.next("matched"), await two.next("matched")]
    assert matched[0]["room"] == matched[1]["room"]
    room = await db_async(Room.objects.get)(code=matched[0]["room"])
    assert room.stake == 50 and room.status == "playing"
    balances = await db_async(lambda: [selectors.balance_of(u) for u in (ana, bruno, caio)])()
    assert balances == [950, 950, 1000]  # the two stakes held, caio's untouched
    assert await db_async(lambda: list(QuickEntry.objects.values_list("stake", flat=True)))() == [0]


async def test_joining_a_staked_queue_needs_chips_that_cover_it(live, django_user_model, settings):
    settings.CHIPS_DAILY_FLOOR = 0
    ana = await sync_to_async(_rich)(django_user_model, "ana", 40)
    one = await Quick.open(ana, "203.0.113.10")
    await one.join("duelo", 20, stake=50)
    refused = await one.next("error")
    assert (refused["code"], refused["stake"], refused["balance"]) == ("no_chips", 50, 40)
    await one.join("duelo", 20, stake=7)
    odd = await one.next("error")
    assert odd["code"] == "bad_message"
    assert not await db_async(QuickEntry.objects.exists)()


@pytest.mark.django_db
def test_two_accounts_of_one_address_never_meet_at_a_staked_table(django_user_model):
    t0 = world().now()
    ana, bruno = _rich(django_user_model, "ana"), _rich(django_user_model, "bruno")
    home = ip_hash("203.0.113.7")
    for user in (ana, bruno):
        quick_join(user=user, preset="duelo", move_seconds=20, stake=10, ip_hash=home, now=t0)
    quick_pair(now=t0 + timedelta(seconds=1))
    assert not Room.objects.exists()  # they wait rather than meet
    quick_pair(now=t0 + timedelta(seconds=30))  # past the wait: bots, each at a table of their own
    tables = [
        [s.user.username if s.user else s.kind for s in room.seats.order_by("index")]
        for room in Room.objects.order_by("created_at", "id")
    ]
    assert sorted(tables) == [["ana", "bot"], ["bruno", "bot"]]
    assert set(Room.objects.values_list("stake", flat=True)) == {10}
    assert not QuickEntry.objects.exists()


@pytest.mark.django_db
def test_a_pass_drops_one_whose_chips_no_longer_cover_the_stake(django_user_model):
    t0 = world().now()
    ana, bruno = _rich(django_user_model, "ana", 100), _rich(django_user_model, "bruno")
    quick_join(user=ana, preset="duelo", move_seconds=20, stake=100, ip_hash=ip_hash("203.0.113.7"))
    chips.correction_add(user=ana, amount=-1, staff=None, note="spent meanwhile")
    quick_join(
        user=bruno, preset="duelo", move_seconds=20, stake=100, ip_hash=ip_hash("198.51.100.8")
    )
    quick_pair(now=t0 + timedelta(seconds=1))
    assert not Room.objects.exists()
    assert list(QuickEntry.objects.values_list("user__username", flat=True)) == ["bruno"]
    assert selectors.balance_of(ana) == 99


@pytest.mark.django_db
def test_the_lobby_s_quick_match_offers_the_stakes_with_the_play_chips_notice(
    django_user_model, settings
):
    settings.CHIPS_STAKES = (10, 50)
    client = Client()
    client.force_login(_rich(django_user_model, "ana"))
    page = client.get("/").content.decode()
    form = page.split("data-quick-form", 1)[1].split("</form>", 1)[0]
    assert '<select name="stake" data-quick-stake>' in form
    assert '<option value="10">10 fichas</option>' in form  # pt-BR, the default
    assert "Fichas só de jogo" in form  # the play-chips notice
