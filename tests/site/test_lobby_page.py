"""lobby.listing.Page: what one lobby socket hears of the changed rows, decided in
memory, and when it must read its page again."""

from __future__ import annotations

import doctest

import pytest

from lobby import listing
from lobby.listing import SPARE, BadView, Page, View


def row(code: str, preset: str = "duelo", humans: int = 1, seats: int = 2, **kw) -> dict:
    return {"code": code, "preset": preset, "humans": humans, "seats": seats,
            "rated": False, "move_seconds": None, "status": "waiting", **kw}  # fmt: skip


def entries(count: int, start: int = 1000) -> list[tuple[int, int, dict]]:
    """``count`` rows with keys start, start - 1, ... (newest first)."""
    return [(start - i, 1, row(f"R{start - i}")) for i in range(count)]


def test_a_changed_row_of_the_page_is_changed_and_nothing_else():
    page = Page(View(page_size=3), entries(5), complete=True)
    page.rows()
    assert page.apply([(999, 2, row("R999", status="playing"))], [])
    diff = page.diff()
    assert diff.changed == [row("R999", status="playing")]
    assert not diff.added and not diff.removed and diff.added_at == []


def test_an_older_news_of_a_row_is_ignored():
    page = Page(View(), entries(2), complete=True)
    page.rows()
    page.apply([(999, 3, row("R999", status="playing"))], [])
    page.diff()
    page.apply([(999, 2, row("R999", status="waiting"))], [])
    assert not page.diff()


def test_a_row_outside_the_filter_or_past_the_page_tells_nothing():
    page = Page(View(preset="duelo", page_size=2), entries(2 + SPARE + 1), complete=False)
    page.rows()
    assert page.apply([(2000, 1, row("NEW", preset="parceria"))], [])
    assert page.apply([(990 - SPARE, 2, row(f"R{990 - SPARE}", status="playing"))], [])
    assert not page.diff()


def test_a_new_row_comes_first_and_pushes_the_last_off():
    page = Page(View(page_size=2), entries(3), complete=True)
    page.rows()
    page.apply([(2000, 1, row("NEW"))], [])
    diff = page.diff()
    assert [r["code"] for r in diff.added] == ["NEW"] and diff.removed == ["R999"]
    assert diff.added_at == [0] and diff.more


def test_a_removal_is_filled_from_the_spare_rows_then_needs_a_read():
    page = Page(View(page_size=2), entries(2 + 2), complete=False)  # two spare rows
    page.rows()
    assert page.apply([], [("R1000", 2)])
    diff = page.diff()
    assert diff.removed == ["R1000"] and [r["code"] for r in diff.added] == ["R998"]
    # no spare row left: whether a next page exists (and what fills a gap) is unknown
    assert not page.apply([], [("R999", 2)])
    page.refill(entries(3, start=998), complete=True)
    diff = page.diff()
    assert diff.removed == ["R999"] and [r["code"] for r in diff.added] == ["R997"]
    assert diff.added_at == [1] and diff.more


def test_a_row_that_stops_matching_leaves_the_page():
    page = Page(View(free=True), entries(2), complete=True)
    page.rows()
    page.apply([(1000, 2, row("R1000", humans=2))], [])
    diff = page.diff()
    assert diff.removed == ["R1000"] and diff.added == []


def test_a_later_page_ignores_rows_of_earlier_pages():
    page = Page(View(cursor=990), entries(3, start=989), complete=True)
    page.rows()
    assert page.apply([(2000, 1, row("NEW")), (995, 2, row("R995", status="playing"))], [])
    assert not page.diff()


@pytest.mark.parametrize(
    "data",
    [{"preset": "xadrez"}, {"move_seconds": 7}, {"move_seconds": True}, {"move_seconds": "30"},
     {"free": 1}, {"rated": "yes"}, {"page_size": 0}, {"page_size": 101}, {"cursor": 5},
     {"cursor": "-5"}, {"colour": "red"}],
)  # fmt: skip
def test_bad_views_are_refused_naming_the_field(data):
    with pytest.raises(BadView) as refused:
        View.parse(data)
    assert str(refused.value) == next(iter(data))


def test_the_docstring_examples_hold():
    failures, tried = doctest.testmod(listing, optionflags=doctest.ELLIPSIS)
    assert tried and not failures
