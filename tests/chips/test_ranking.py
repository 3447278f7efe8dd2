"""The points ranking asks for chips (the customer's "Ranking por pontos";
docs/site.md, "Fichas"): it lists registered players whose balance covers the
smallest stake; a person short of it is told how to get back in (the daily
allowance), and is back once their chips cover it. The rating's ranking does
not ask."""

from __future__ import annotations

import pytest

from chips import services as chips
from records.models import ALL_PRESETS, Rating

pytestmark = pytest.mark.django_db


def _points(user, xp: int) -> None:
    Rating.objects.create(
        user=user, preset=ALL_PRESETS, mu=25, sigma=8, ordinal=1, matches=5, wins=2, xp=xp
    )


def test_the_points_ranking_lists_those_whose_chips_cover_the_smallest_stake(
    client, make_user, settings
):
    settings.CHIPS_STAKES = (10, 50)
    settings.CHIPS_DAILY_FLOOR = 0  # (signing in would top the broke one up)
    rich, broke = make_user("rica"), make_user("quebrado")
    _points(rich, 30), _points(broke, 80)
    chips.correction_add(user=rich, amount=10, staff=None, note="exactly the smallest stake")
    chips.correction_add(user=broke, amount=9, staff=None, note="one short")
    client.force_login(broke)
    page = client.get("/ranking/?by=xp", HTTP_ACCEPT_LANGUAGE="en")
    assert [row["username"] for row in page.context["rows"]] == ["rica"]
    assert page.context["my_position"] is None
    assert b"daily allowance" in page.content and b"data-chips-short" in page.content
    assert b"cannot be bought, sold, cashed out or transferred" in page.content
    by_rating = client.get("/ranking/").context["rows"]
    assert sorted(row["username"] for row in by_rating) == ["quebrado", "rica"]
    settings.CHIPS_DAILY_FLOOR = 200
    chips.allowance_grant(user=broke)  # the way back in: the daily allowance
    page = client.get("/ranking/?by=xp", HTTP_ACCEPT_LANGUAGE="en")
    assert [row["username"] for row in page.context["rows"]] == ["quebrado", "rica"]
    assert page.context["my_position"] == 1
    assert b"data-chips-short" not in page.content
