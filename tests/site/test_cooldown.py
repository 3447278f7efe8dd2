"""The abandonment cool-down's arithmetic (docs/rated-play.md, "Abandonment
cool-down"): 10 minutes, tripled for another within a day, at most 48 hours,
forgotten after seven clean days; lifted in the admin."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from records import selectors, services
from records.models import Cooldown

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _abandon(user, at: datetime, reason: str = "left") -> timedelta:
    row = services.abandonment_recorded(user=user, reason=reason, now=at)
    assert row is not None
    return row.until - at


def test_the_first_is_ten_minutes_and_each_within_a_day_three_times_longer(make_user):
    ana = make_user("ana")
    lengths = [_abandon(ana, T0 + timedelta(hours=h)) for h in range(4)]
    assert lengths == [timedelta(minutes=m) for m in (10, 30, 90, 270)]


def test_it_never_passes_48_hours(make_user):
    ana = make_user("ana")
    lengths = [_abandon(ana, T0 + timedelta(hours=h)) for h in range(12)]
    assert max(lengths) == timedelta(hours=48)
    assert lengths[-1] == timedelta(hours=48)


def test_seven_clean_days_forget_it_and_a_few_keep_it(make_user):
    ana, bia = make_user("ana"), make_user("bia")
    _abandon(ana, T0)
    _abandon(ana, T0 + timedelta(hours=1))  # 30 min
    assert _abandon(ana, T0 + timedelta(days=8)) == timedelta(minutes=10)
    _abandon(bia, T0)
    _abandon(bia, T0 + timedelta(hours=1))  # 30 min
    assert _abandon(bia, T0 + timedelta(days=3)) == timedelta(minutes=30)


def test_the_selector_says_until_when_and_why_then_nothing(make_user):
    ana = make_user("ana")
    _abandon(ana, T0, reason="timeouts")
    running = selectors.cooldown_for(user=ana, now=T0 + timedelta(minutes=5))
    assert running is not None
    assert (running.until, running.reason) == (T0 + timedelta(minutes=10), "timeouts")
    assert running.message
    assert selectors.cooldown_for(user=ana, now=T0 + timedelta(minutes=10, seconds=1)) is None


def test_once_per_match_and_person(make_user, played_match):
    ana = make_user("ana")
    first = services.abandonment_recorded(user=ana, reason="left", match=played_match, now=T0)
    again = services.abandonment_recorded(user=ana, reason="left", match=played_match, now=T0)
    assert first is not None and again is None
    assert Cooldown.objects.filter(user=ana).count() == 1


def test_an_admin_lifts_it_and_it_no_longer_escalates(make_user, admin_client):
    ana = make_user("ana")
    services.abandonment_recorded(user=ana, reason="left")
    row = Cooldown.objects.get(user=ana)
    page = admin_client.get("/admin/records/cooldown/")
    assert page.status_code == 200 and "ana" in page.content.decode()
    answer = admin_client.post(
        "/admin/records/cooldown/", {"action": "lift", "_selected_action": [row.pk]}
    )
    assert answer.status_code == 302
    assert selectors.cooldown_for(user=ana) is None
    row.refresh_from_db()
    assert row.lifted_at is not None
    nxt = services.abandonment_recorded(user=ana, reason="left")
    assert nxt is not None and nxt.step == 0  # the lifted one is forgiven


@pytest.fixture
def played_match(make_user, clock):
    from rooms import services as rooms
    from tests.site.helpers import current, room_with_bots, seat

    room = room_with_bots(make_user("host"), clock(), preset="duelo")
    rooms.match_start(room=room, actor=seat(room, 0), now=clock())
    return current(room).match
