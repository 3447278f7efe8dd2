"""Staked challenges (docs/site.md, "Fichas" and "Challenges"): a challenger may
stake chips (one of the CHIPS_STAKES, or none); the offer says so; accepting
needs every person's chips to cover the stake (``no_chips``) and no two of
them at one address (``same_address``); the table it opens carries the stake,
so the match holds it as any staked table's. A rematch of a staked match
keeps its stake and asks the chips again."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from chips import selectors as chips_selectors
from chips import services as chips
from chips.models import Entry
from domino_site.client_ip import ip_hash
from domino_site.realtime.asyncdb import db_async
from people import challenges
from people.errors import PeopleError
from people.models import Challenge
from rooms.models import Room
from tests.people.test_presence import Page
from tests.site.helpers import play_round

HOME, ELSEWHERE = "203.0.113.7", "198.51.100.8"


def _rich(django_user_model, name: str, amount: int = 1000):
    user = django_user_model.objects.create_user(name, password="x")
    chips.correction_add(user=user, amount=amount, staff=None, note="test")
    return user


def _client(user, address: str = HOME) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _messages(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


def _balances(*users) -> list[int | None]:
    return [chips_selectors.balance_of(u) for u in users]


@pytest.mark.django_db(transaction=True)
async def test_a_staked_challenge_is_offered_accepted_and_its_table_holds_the_stakes(
    live, django_user_model
):
    ana = await sync_to_async(_rich)(django_user_model, "ana")
    bruno = await sync_to_async(_rich)(django_user_model, "bruno")
    challenged = await Page.open(bruno)
    await challenged.next("friends")
    form = {"preset": "duelo", "move_seconds": "20", "rated": "1", "stake": "100"}
    answer = await sync_to_async(lambda: _client(ana).post("/friends/bruno/challenge/", form))()
    assert answer.status_code == 302
    shown = await challenged.next("challenge")
    assert (shown["from"], shown["stake"]) == ("ana", 100)
    await challenged.comm.send_json_to({"type": "challenge_accept", "id": shown["id"]})
    started = await challenged.next("challenge_started")
    room = await db_async(Room.objects.get)(code=started["room"])
    assert room.stake == 100 and room.status == "playing"
    assert await db_async(_balances)(ana, bruno) == [900, 900]  # held as the match started
    held = await db_async(lambda: Entry.objects.filter(reason=Entry.Reason.STAKE).count())()
    assert held == 2


@pytest.mark.django_db(transaction=True)
async def test_accepting_is_refused_when_ones_chips_do_not_cover_the_stake(
    live, django_user_model, settings
):
    settings.CHIPS_DAILY_FLOOR = 0  # no allowance as the page's session signs in
    ana = await sync_to_async(_rich)(django_user_model, "ana")
    bruno = await sync_to_async(_rich)(django_user_model, "bruno", 20)
    offer = await db_async(challenges.challenge_send)(
        challenger=ana, challenged=bruno, preset="duelo", move_seconds=20, stake=50
    )
    challenged = await Page.open(bruno)
    shown = await challenged.next("challenge")
    assert shown["stake"] == 50
    await challenged.comm.send_json_to(
        {"type": "challenge_accept", "id": offer.pk, "ref": offer.pk}
    )
    refused = await challenged.next("error")
    assert (refused["code"], refused["stake"], refused["balance"]) == ("no_chips", 50, 20)
    assert refused["ref"] == offer.pk
    assert not await db_async(Room.objects.exists)()  # nothing opened, nothing held
    assert await db_async(_balances)(ana, bruno) == [1000, 20]
    assert (await db_async(Challenge.objects.get)(pk=offer.pk)).status == "pending"


@pytest.mark.django_db
def test_the_challenged_is_told_whose_chips_fall_short(django_user_model):
    ana = _rich(django_user_model, "ana", 100)
    bruno = _rich(django_user_model, "bruno")
    offer = challenges.challenge_send(
        challenger=ana, challenged=bruno, preset="duelo", move_seconds=20, stake=100
    )
    chips.correction_add(user=ana, amount=-50, staff=None, note="spent meanwhile")
    answer = _client(bruno, ELSEWHERE).post(f"/challenges/{offer.pk}/accept/", follow=True)
    assert "ana's chips do not cover this stake of 100 chips." in _messages(answer)
    assert not Room.objects.exists()


@pytest.mark.django_db
def test_a_challenger_stakes_only_a_listed_stake_their_chips_cover(django_user_model, settings):
    settings.CHIPS_STAKES = (10, 50, 100, 500)
    ana = _rich(django_user_model, "ana", 60)
    bruno = _rich(django_user_model, "bruno")
    with pytest.raises(PeopleError) as refused:
        challenges.challenge_send(
            challenger=ana, challenged=bruno, preset="duelo", move_seconds=20, stake=100
        )
    assert (refused.value.code, refused.value.extra) == ("no_chips", {"stake": 100, "balance": 60})
    with pytest.raises(PeopleError) as odd:
        challenges.challenge_send(
            challenger=ana, challenged=bruno, preset="duelo", move_seconds=20, stake=7
        )
    assert odd.value.code == "bad_challenge"
    assert not Challenge.objects.exists()
    offer = challenges.challenge_send(
        challenger=ana, challenged=bruno, preset="duelo", move_seconds=20, stake=50
    )
    assert challenges.challenge_frame(offer)["stake"] == 50
    free = challenges.challenge_send(
        challenger=bruno, challenged=ana, preset="duelo", move_seconds=20
    )
    assert free.stake == 0


@pytest.mark.django_db
def test_the_profile_s_challenge_form_offers_the_stakes_with_the_play_chips_notice(
    django_user_model, settings
):
    settings.CHIPS_STAKES = (10, 50)
    ana = _rich(django_user_model, "ana")
    _rich(django_user_model, "bruno")
    page = _client(ana).get(reverse("records:player", args=["bruno"])).content.decode()
    assert '<select name="stake" data-field="stake">' in page
    assert '<option value="50">50 chips</option>' in page
    assert "Play chips only: they cannot be bought, sold, cashed out or transferred." in page


@pytest.mark.django_db
def test_two_accounts_of_one_address_cannot_accept_a_staked_challenge(django_user_model):
    ana = _rich(django_user_model, "ana")
    bruno = _rich(django_user_model, "bruno")
    form = {"preset": "duelo", "move_seconds": "20", "stake": "10"}
    _client(ana, HOME).post("/friends/bruno/challenge/", form)
    offer = Challenge.objects.get()
    answer = _client(bruno, HOME).post(f"/challenges/{offer.pk}/accept/", follow=True)
    assert (
        "Two of you connect from one address: a staked challenge is not for you both."
        in _messages(answer)
    )
    assert not Room.objects.exists()
    free = challenges.challenge_send(
        challenger=ana, challenged=bruno, preset="duelo", move_seconds=20
    )
    assert challenges.challenge_accept(user=bruno, challenge_id=free.pk, ip_hash=ip_hash(HOME))


@pytest.mark.django_db
def test_a_rematch_of_a_staked_match_keeps_the_stake_and_asks_the_chips_again(
    django_user_model, clock
):
    ana = _rich(django_user_model, "ana", 100)
    bruno = _rich(django_user_model, "bruno", 100)
    offer = challenges.challenge_send(
        challenger=ana,
        challenged=bruno,
        preset="duelo",
        move_seconds=20,
        stake=100,
        ip_hash=ip_hash(HOME),
        now=clock(),
    )
    room = challenges.challenge_accept(
        user=bruno, challenge_id=offer.pk, ip_hash=ip_hash(ELSEWHERE), now=clock()
    )
    assert room is not None and room.stake == 100
    play_round(Room.objects.get(pk=room.pk), clock())  # a duelo is one round
    winner, loser = sorted([ana, bruno], key=chips_selectors.balance_of, reverse=True)
    assert _balances(winner, loser) == [120, 0]  # the pot of 200 less the bank's 80
    again = challenges.rematch_offer(user=winner, room=room, ip_hash=ip_hash(HOME), now=clock())
    assert again.stake == 100 and challenges.challenge_frame(again)["stake"] == 100
    with pytest.raises(PeopleError) as refused:
        challenges.challenge_accept(
            user=loser, challenge_id=again.pk, ip_hash=ip_hash(ELSEWHERE), now=clock()
        )
    assert (refused.value.code, refused.value.extra) == ("no_chips", {"stake": 100, "balance": 0})
    chips.correction_add(user=loser, amount=100, staff=None, note="test")
    new = challenges.challenge_accept(
        user=loser, challenge_id=again.pk, ip_hash=ip_hash(ELSEWHERE), now=clock()
    )
    assert new is not None and new.stake == 100
    assert _balances(winner, loser) == [20, 0]  # each stake held again
