"""The day-one puzzles (docs/site.md, "Puzzles"; puzzles/day_one.py): a fresh
site's ``migrate`` gives it a few dozen puzzles, made and checked as the
analysis worker makes and checks them, across presets, themes and ratings,
and a puzzle of the day; loading again adds nothing; every entry of the
committed file passes the same deeper check again; puzzles from real rounds
join them. (A fresh `make run` served by Daphne: tests/browser/test_day_one_puzzles.py.)"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from puzzles import day_one, selectors
from puzzles.models import DailyPuzzle, Puzzle, PuzzleTry
from puzzles.ratings import shown_rating
from puzzles.themes import THEMES
from records.rating import SCALE
from tests.site.test_puzzles import _published
from tools.make_day_one_puzzles import puzzle_from_round

ENTRIES = day_one.read()["puzzles"]
DAY_ONE = Puzzle.Origin.DAY_ONE


def _boot(page: bytes) -> dict:
    found = re.search(rb'<script id="puzzle-boot" type="application/json">(.*?)</script>', page)
    assert found, "the page has no puzzle"
    return json.loads(found.group(1))


# ------------------------------------------------------------------ the file


def test_the_file_holds_a_few_dozen_puzzles_across_presets_themes_and_ratings():
    assert 40 <= len(ENTRIES) <= 80
    assert len({e["key"] for e in ENTRIES}) == len(ENTRIES)
    presets = {e["preset"] for e in ENTRIES}
    assert {"parceria", "duelo", "partida", "pontos"} <= presets
    assert set().union(*(e["themes"] for e in ENTRIES)) == set(THEMES)
    ratings = sorted(e["rating"] for e in ENTRIES)
    assert ratings[0] <= 1300 and ratings[-1] >= 1700
    assert len(set(ratings)) >= 5


def test_the_files_header_says_its_recipe_and_seed():
    header = day_one.read()
    assert "tools/make_day_one_puzzles.py" in header["recipe"]
    assert f"--seed {header['seed']}" in header["recipe"]
    assert header["spread"] == day_one.spread(ENTRIES)


def test_the_tool_makes_an_entry_again_from_its_seed():
    """Deterministic: the first entry's round, played, analysed, cut and
    checked again by tools/make_day_one_puzzles.py, is the same entry."""
    first = ENTRIES[0]
    assert puzzle_from_round(first["preset"], first["round_seed"]) == first


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["key"] for e in ENTRIES])
def test_each_day_one_puzzle_passes_the_deeper_check_again(entry):
    """The view is the mover's, the themes the position's, and the analysis'
    deeper check (`puzzles.cutting.deep_check`, the entry's seed) keeps the
    solution as the best by the gap: a bad entry fails here."""
    assert day_one.recheck(entry) == []


def test_a_changed_solution_fails_the_check_again():
    entry = next(e for e in ENTRIES if len(e["options"]) > 1)
    second = {k: v for k, v in entry["options"][1].items() if k != "value"}
    assert day_one.recheck({**entry, "solution": second})


# ------------------------------------------------------------------ the database


@pytest.mark.django_db
def test_a_migrated_database_has_every_one_published_public_and_rated_as_the_file_says():
    rows = {p.origin_key: p for p in Puzzle.objects.filter(origin=DAY_ONE)}
    assert len(rows) == len(ENTRIES)
    for entry in ENTRIES:
        row = rows[day_one.origin_key(entry)]
        assert row.state == Puzzle.State.PUBLISHED and row.owner_id is None
        assert row.round_id is None and row.tries == 0
        assert row.view == entry["view"] and row.solution == entry["solution"]
        assert shown_rating(row.mu) == entry["rating"]
    assert {t for p in rows.values() for t in p.themes} == set(THEMES)


@pytest.mark.django_db
def test_loading_again_adds_nothing():
    before = Puzzle.objects.count()
    assert day_one.load(Puzzle, scale=SCALE) == 0
    assert Puzzle.objects.count() == before


@pytest.mark.django_db
def test_loading_into_a_table_without_them_adds_each_once():
    Puzzle.objects.filter(origin=DAY_ONE).delete()
    assert day_one.load(Puzzle, scale=SCALE) == len(ENTRIES)
    assert day_one.load(Puzzle, scale=SCALE) == 0
    assert Puzzle.objects.filter(origin=DAY_ONE).count() == len(ENTRIES)


# ------------------------------------------------------------------ a guest on day one


@pytest.mark.django_db
def test_a_guest_on_a_fresh_site_gets_a_puzzle_and_the_puzzle_of_the_day():
    assert not Puzzle.objects.exclude(origin=DAY_ONE).exists()
    guest = Client(REMOTE_ADDR="203.0.113.54")
    page = guest.get("/problemas/")
    assert page.status_code == 200 and b"data-no-puzzle" not in page.content
    assert b'data-action="daily"' in page.content
    daily = guest.get("/problemas/diario/")
    assert daily.status_code == 200 and b"data-no-puzzle" not in daily.content
    (chosen,) = DailyPuzzle.objects.all()
    assert chosen.puzzle.origin == DAY_ONE
    boot = _boot(daily.content)
    assert boot["puzzle"]["id"] == chosen.puzzle_id
    # What a solver is sent, as for any puzzle: the view, never the answer.
    assert set(boot["puzzle"]) == {"id", "view", "rating", "themes", "preset", "training"}
    assert "solution" not in boot["puzzle"]["view"]


@pytest.mark.django_db
def test_a_guests_answer_to_a_day_one_puzzle_is_recorded_first_and_rates_nobody():
    """Issue 50's rules hold for the day-one set as for every puzzle."""
    puzzle = Puzzle.objects.filter(origin=DAY_ONE).first()
    guest = Client(REMOTE_ADDR="203.0.113.55")
    reply = guest.post(
        f"/problemas/{puzzle.pk}/resposta/",
        data=json.dumps({"action": puzzle.solution}),
        content_type="application/json",
    )
    body = reply.json()
    assert body["correct"] and body["unrated"] == "guest" and not body["puzzle_rated"]
    (recorded,) = PuzzleTry.objects.filter(puzzle=puzzle)
    assert recorded.user is None and recorded.guest_key
    puzzle.refresh_from_db()
    assert puzzle.tries == 0


@pytest.mark.django_db
def test_puzzles_from_real_rounds_join_them(make_user, clock):
    _room, real, _ana, _bruno = _published(make_user, clock)
    assert real.origin == Puzzle.Origin.ROUND and real.round_id is not None
    last = Puzzle.objects.filter(origin=DAY_ONE).order_by("id").last()
    assert selectors.next_puzzle(user=None, after=last.pk) == real
    assert Puzzle.objects.filter(**selectors.PUBLIC).count() == len(ENTRIES) + 1
