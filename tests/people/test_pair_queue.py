"""Queue with your partner (docs/site.md, "Queue with your partner"): two
friends who chose each other join the parceria quick match as a pair and sit
as partners, against another pair or two singles, by their team's rating;
the pure plan first, then through the real ws/quick/ socket path."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.realtime.asyncdb import db_async
from people import selectors, services
from people.errors import PeopleError
from quick import pairing
from rooms.models import Seat
from tests.realtime.test_quick_match import Quick

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _w(key: str, rating: int = 0, partner: str | None = None, **kw) -> pairing.Waiting:
    return pairing.Waiting(key, rating, T0, partner=partner, **kw)


def _partners(table) -> set[frozenset[str]]:
    return {frozenset((table[0].key, table[2].key)), frozenset((table[1].key, table[3].key))}


def test_a_pair_sits_as_partners_against_two_singles_or_another_pair():
    ana, bia = _w("ana", 0, "bia"), _w("bia", 0, "ana")
    (table,) = pairing.plan([ana, bia, _w("caio"), _w("dani")], 4, T0, 20)
    assert frozenset(("ana", "bia")) in _partners(table)
    caio, dani = _w("caio", 50, "dani"), _w("dani", 50, "caio")
    (table,) = pairing.plan([ana, caio, bia, dani], 4, T0, 20)
    assert _partners(table) == {frozenset(("ana", "bia")), frozenset(("caio", "dani"))}


def test_a_choice_one_way_is_no_pair_and_duelo_knows_no_pairs():
    one_way = [_w("ana", 0, "bia"), _w("bia"), _w("caio", 0), _w("dani", 0)]
    assert len(pairing.plan(one_way, 4, T0, 20)) == 1
    pair = [_w("ana", 0, "bia"), _w("bia", 0, "ana")]
    assert [[w.key for w in t] for t in pairing.plan(pair, 2, T0, 20)] == [["ana", "bia"]]


def test_a_pair_waits_for_a_team_close_to_its_own_and_gets_bots_after_the_wait():
    ana, bia = _w("ana", 1000, "bia"), _w("bia", 1000, "ana")
    far = [_w("caio", 0), _w("dani", 0)]
    assert pairing.plan([ana, bia, *far], 4, T0, 20) == []  # 1000 apart, no wait yet
    later = T0 + timedelta(seconds=20)
    (table,) = pairing.plan([ana, bia], 4, later, 20)  # bots as the other side
    assert table[1] is None and table[3] is None
    assert frozenset(("ana", "bia")) == frozenset((table[0].key, table[2].key))


@pytest.mark.django_db
def test_the_partner_is_a_friend_chosen_both_ways(make_user):
    ana, bia, caio = make_user("ana"), make_user("bia"), make_user("caio")
    with pytest.raises(PeopleError):
        services.queue_partner_set(user=ana, partner=bia)  # not friends
    services.friend_request_send(sender=ana, recipient=bia)
    services.friend_request_accept(user=bia, sender=ana)
    client = Client()
    client.force_login(ana)
    assert 'data-form="queue-partner"' in client.get("/").content.decode()
    client.post("/quick/partner/", {"partner": "bia"})
    assert selectors.queue_partners([ana.pk, bia.pk, caio.pk]) == {}  # one way only
    services.queue_partner_set(user=bia, partner=ana)
    assert selectors.queue_partners([ana.pk, bia.pk]) == {ana.pk: bia.pk, bia.pk: ana.pk}
    services.friend_remove(user=ana, friend=bia)
    assert selectors.queue_partners([ana.pk, bia.pk]) == {}  # friends no more
    client.post("/quick/partner/", {"partner": ""})
    assert selectors.queue_partner_of(ana) is None


def _four(django_user_model):
    people = [
        django_user_model.objects.create_user(n, password="x")
        for n in ("ana", "bia", "caio", "dani")
    ]
    ana, bia = people[:2]
    services.friend_request_send(sender=ana, recipient=bia)
    services.friend_request_accept(user=bia, sender=ana)
    services.queue_partner_set(user=ana, partner=bia)
    services.queue_partner_set(user=bia, partner=ana)
    return people


@pytest.mark.django_db(transaction=True)
async def test_the_pair_joins_parceria_and_sits_together(live, django_user_model):
    people = await sync_to_async(_four)(django_user_model)
    sockets = [await Quick.open(p, f"203.0.113.{30 + i}") for i, p in enumerate(people)]
    # ana joins first and bia last: the others would have filled the table around ana
    order = [sockets[0], sockets[2], sockets[3], sockets[1]]
    for socket in order:
        await socket.join("parceria", 20, people_only=True)
    matched = [await s.next("matched") for s in sockets]
    assert len({m["room"] for m in matched}) == 1
    seats = await db_async(
        lambda: dict(
            Seat.objects.filter(room__code=matched[0]["room"]).values_list(
                "user__username", "index"
            )
        )
    )()
    assert abs(seats["ana"] - seats["bia"]) == 2  # partners: 0 and 2, or 1 and 3


def test_one_of_a_pair_waits_for_the_other_to_join():
    alone = [_w("ana", 0, "bia"), _w("caio"), _w("dani"), _w("edu")]
    (table,) = pairing.plan(alone, 4, T0 + timedelta(minutes=5), 20)
    assert "ana" not in {w.key for w in table if w is not None}
