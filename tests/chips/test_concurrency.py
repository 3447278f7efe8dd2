"""Two tables settling at once for the same person, on PostgreSQL (threads,
each its own connection): the balance row's lock serialises them, so no
update is lost and the balance stays its ledger's sum; settling one pot from
eight threads writes one set of entries (docs/site.md, "Fichas")."""

from __future__ import annotations

import pytest
from django.db import connection

from chips import selectors
from chips import services as chips
from chips.models import Entry
from games import services as games
from rooms import services
from tests.at_once import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 8


def _pots(make_user, clock, count: int):
    """``count`` staked matches of ana's, each against another account."""
    ana = make_user("ana")
    chips.correction_add(user=ana, amount=100 * count, staff=None, note="test")
    matches = []
    for number in range(count):
        other = make_user(f"rival{number}")
        chips.correction_add(user=other, amount=100, staff=None, note="test")
        room = services.room_create(user=other, name=f"Mesa {number}", preset="duelo", now=clock())
        match = games.match_begin(room=room, now=clock())
        chips.stakes_hold(match=match, stake=100, stakers=[other.pk, ana.pk], now=clock())
        matches.append(match)
    return ana, matches


def test_two_matches_settling_at_once_lose_no_update(make_user, clock):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: row locks (select_for_update) are a no-op on SQLite")
    ana, matches = _pots(make_user, clock, THREADS)
    assert selectors.balance_of(ana) == 0
    outcomes = at_once(
        [
            lambda m=match: chips.pot_settle(
                match=m, outcome="won", winner_side=1, side_of=lambda i: i
            )
            for match in matches
        ]
    )
    assert outcomes == ["ok"] * THREADS
    assert selectors.balance_of(ana) == THREADS * 120 == selectors.ledger_sum(ana)


def test_one_settlement_from_eight_threads_writes_once(make_user, clock):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: row locks (select_for_update) are a no-op on SQLite")
    ana, (match,) = _pots(make_user, clock, 1)
    outcomes = at_once(
        [
            lambda: chips.pot_settle(match=match, outcome="won", winner_side=1, side_of=lambda i: i)
            for _ in range(THREADS)
        ]
    )
    assert outcomes == ["ok"] * THREADS
    assert Entry.objects.filter(match=match, reason=Entry.Reason.POT_WON).count() == 1
    assert selectors.balance_of(ana) == 120 == selectors.ledger_sum(ana)
