"""Tables with a stake (docs/site.md, "Fichas"; docs/rated-play.md, "The
rulebook"), through the rooms' services: a seat needs chips that cover the
stake and no account of one's address at the table; the stakes are held when
the match starts and settled when it ends (the winners share the pot less the
bank's 40 %, a draw and an annulment return them, a closed table returns
them), once; a bot's stake is the bank's. After every step each balance is
its ledger's sum, and a settled match's entries sum to zero (no chip is made
or lost: the bank's entries are the difference)."""

from __future__ import annotations

import pytest
from django.db.models import Count, Q
from django.test import Client

from chips import selectors
from chips import services as chips
from chips.models import Entry, Pot
from domino_site.client_ip import ip_hash
from games.errors import ServiceError
from games.models import Match
from records import services as records
from rooms import services
from rooms.models import Room
from rooms.selectors import listing_entries
from tests.site.helpers import current, fresh, play_round, seat

pytestmark = pytest.mark.django_db


def _rich(make_user, name: str, chips_: int = 1000):
    user = make_user(name)
    chips.correction_add(user=user, amount=chips_, staff=None, note="test")
    return user


def _consistent(*users) -> None:
    for user in users:
        assert selectors.balance_of(user) == selectors.ledger_sum(user), user


def _staked_duelo(make_user, clock, stake=100, chips_=1000):
    ana, bruno = _rich(make_user, "ana", chips_), _rich(make_user, "bruno", chips_)
    room = services.room_create(
        user=ana,
        name="Mesa",
        preset="duelo",
        stake=stake,
        ip_hash=ip_hash("203.0.113.1"),
        now=clock(),
    )
    services.seat_take(room=room, index=1, user=bruno, ip_hash=ip_hash("198.51.100.2"), now=clock())
    return fresh(room), ana, bruno


def _match(room) -> Match:
    return Match.objects.filter(room=room).order_by("-number").first()


def test_a_staked_duelo_pays_the_winner_the_pot_less_the_bank_s_share(make_user, clock):
    room, ana, bruno = _staked_duelo(make_user, clock)
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    assert (selectors.balance_of(ana), selectors.balance_of(bruno)) == (900, 900)
    play_round(room, clock())
    match = _match(room)
    assert match.over
    balances = {0: selectors.balance_of(ana), 1: selectors.balance_of(bruno)}
    if match.winner is None:  # a blocked duelo may be a draw: both stakes back
        assert balances == {0: 1000, 1: 1000}
    else:
        assert balances[match.winner] == 900 + 120  # 200 less the bank's 80
        assert balances[1 - match.winner] == 900
        bank = Entry.objects.get(match=match, user=None, reason=Entry.Reason.BANK_SHARE)
        assert bank.amount == 80
    assert sum(e.amount for e in selectors.match_entries(match)) == 0
    _consistent(ana, bruno)


def test_a_settlement_run_twice_writes_one_set_of_entries(make_user, clock):
    room, ana, bruno = _staked_duelo(make_user, clock)
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    play_round(room, clock())
    match = _match(room)
    before = [(e.user_id, e.amount, e.reason) for e in selectors.match_entries(match)]
    seats = list(room.seats.order_by("index"))
    records.stakes_settled(match=match, seats=seats, now=clock())
    chips.pot_settle(match=match, outcome="draw", now=clock())  # even another outcome
    assert [(e.user_id, e.amount, e.reason) for e in selectors.match_entries(match)] == before
    _consistent(ana, bruno)


def test_an_annulment_returns_every_stake(make_user, clock):
    room, ana, bruno = _staked_duelo(make_user, clock)
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    services.annul_vote(room=room, actor=seat(room, 0), now=clock())
    assert services.annul_vote(room=fresh(room), actor=seat(room, 1), now=clock())
    assert (selectors.balance_of(ana), selectors.balance_of(bruno)) == (1000, 1000)
    assert Pot.objects.get(match=_match(room)).result["outcome"] == "annulled"
    _consistent(ana, bruno)


def test_a_table_closed_before_the_match_s_end_returns_the_stakes(make_user, clock):
    room, ana, bruno = _staked_duelo(make_user, clock)
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    services.room_close(room=room, reason="admin", now=clock())
    assert (selectors.balance_of(ana), selectors.balance_of(bruno)) == (1000, 1000)
    _consistent(ana, bruno)


def test_a_seat_is_refused_for_want_of_chips(make_user, clock):
    ana = _rich(make_user, "ana")
    poor = _rich(make_user, "pobre", 99)
    room = services.room_create(user=ana, name="Mesa", preset="duelo", stake=100, now=clock())
    with pytest.raises(ServiceError) as refused:
        services.seat_take(
            room=room, index=1, user=poor, ip_hash=ip_hash("198.51.100.2"), now=clock()
        )
    assert refused.value.code == "no_chips"
    assert refused.value.as_message()["stake"] == 100
    assert refused.value.as_message()["balance"] == 99
    assert seat(room, 1).kind == "empty"


def test_a_guest_cannot_sit_at_a_staked_table(make_user, clock):
    ana = _rich(make_user, "ana")
    room = services.room_create(
        user=ana, name="Mesa", preset="duelo", stake=10, visibility="private", now=clock()
    )
    with pytest.raises(ServiceError) as refused:
        services.seat_take(room=room, index=1, user=None, guest_token="g" * 32, now=clock())
    assert refused.value.code == "no_chips"


def test_two_accounts_of_one_address_cannot_sit_at_one_staked_table(make_user, clock):
    ana, irma = _rich(make_user, "ana"), _rich(make_user, "irma")
    here = ip_hash("203.0.113.1")
    room = services.room_create(
        user=ana, name="Mesa", preset="duelo", stake=10, ip_hash=here, now=clock()
    )
    with pytest.raises(ServiceError) as refused:
        services.seat_take(room=room, index=1, user=irma, ip_hash=here, now=clock())
    assert refused.value.code == "same_address"


def test_a_stake_must_be_one_of_the_list_and_covered_by_the_host(make_user, clock, settings):
    settings.CHIPS_STAKES = (10, 50)
    ana = _rich(make_user, "ana", 20)
    with pytest.raises(ServiceError) as odd:
        services.room_create(user=ana, name="Mesa", preset="duelo", stake=7, now=clock())
    assert odd.value.reason == "bad_stake"
    with pytest.raises(ServiceError) as poor:
        services.room_create(user=ana, name="Mesa", preset="duelo", stake=50, now=clock())
    assert poor.value.code == "no_chips"


def test_a_match_does_not_start_when_a_balance_no_longer_covers_the_stake(make_user, clock):
    room, ana, bruno = _staked_duelo(make_user, clock, stake=100, chips_=150)
    chips.correction_add(user=bruno, amount=-100, staff=None, note="spent elsewhere")
    with pytest.raises(ServiceError) as refused:
        services.match_start(room=room, actor=seat(room, 0), now=clock())
    assert refused.value.code == "no_chips"
    assert _match(room) is None  # nothing started, nothing held
    assert selectors.balance_of(ana) == 150
    _consistent(ana, bruno)


def test_a_bot_s_stake_is_the_bank_s_and_so_is_what_it_wins(make_user, clock):
    ana = _rich(make_user, "ana")
    room = services.room_create(user=ana, name="Mesa", preset="duelo", stake=100, now=clock())
    services.bot_add(room=room, actor=seat(room, 0), index=1, level="easy", now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    assert selectors.balance_of(ana) == 900
    bot_stake = Entry.objects.get(match=_match(room), user=None, reason=Entry.Reason.STAKE)
    assert bot_stake.amount == -100
    play_round(room, clock())
    match = _match(room)
    if match.winner == 0:
        assert selectors.balance_of(ana) == 1020
    elif match.winner == 1:
        assert selectors.balance_of(ana) == 900
        back = Entry.objects.get(match=match, user=None, reason=Entry.Reason.POT_WON)
        assert back.amount == 120
    assert sum(e.amount for e in selectors.match_entries(match)) == 0
    _consistent(ana)


def test_a_free_table_holds_nothing(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = services.room_create(user=ana, name="Mesa", preset="duelo", now=clock())
    services.seat_take(room=room, index=1, user=bruno, now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    assert not Entry.objects.exists() and not Pot.objects.exists()
    assert current(room) is not None


def test_the_host_picks_the_stake_in_the_lobby_s_form_and_the_row_shows_it(make_user):
    ana = _rich(make_user, "ana")
    client = Client()
    client.force_login(ana)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert b'name="stake"' in page.content
    assert b"cannot be bought, sold, cashed out or transferred" in page.content
    response = client.post(
        "/rooms/", {"name": "Mesa", "preset": "duelo", "visibility": "public", "stake": "50"}
    )
    assert response.status_code == 302
    room = Room.objects.get(name="Mesa")
    assert room.stake == 50
    odd = client.post(
        "/rooms/", {"name": "Outra", "preset": "duelo", "visibility": "public", "stake": "7"}
    )
    assert odd.status_code == 200  # the form again, with its error
    assert not Room.objects.filter(name="Outra").exists()
    assert [row["stake"] for _k, _v, row in listing_entries([_annotated(room)])] == [50]


def _annotated(room):
    return (
        Room.objects.filter(pk=room.pk)
        .annotate(
            humans=Count("seats", filter=Q(seats__kind="human")),
            bots=Count("seats", filter=Q(seats__kind="bot")),
            seat_total=Count("seats"),
        )
        .get()
    )
