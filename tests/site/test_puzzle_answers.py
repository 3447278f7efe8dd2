"""A puzzle's answer and ratings against an attacker's probe (docs/site.md,
"Puzzles"; docs/protocol.md, "Puzzles: an answer"): nobody is told the answer
before their own first try is recorded (a guest's by the guest cookie); an
answer shown to a browser or to a guest of an address does not rate an
account there; a puzzle's rating moves only on established accounts' tries,
once per address. Through the real view, as the probe posts."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from domino_site.guests import GUEST_COOKIE
from puzzles.models import Puzzle, PuzzlePlayer, PuzzleTry
from records.models import ALL_PRESETS, Rating
from records.rulebook import established_account
from tests.analysis.planted import BEST, BLUNDER
from tests.site.test_puzzles import _published

pytestmark = pytest.mark.django_db

START = Puzzle._meta.get_field("mu").default


def _established(user, days: int = 30, matches: int = 5):
    """An account signed up ``days`` ago with ``matches`` rated matches."""
    user.date_joined = timezone.now() - timedelta(days=days)
    user.save(update_fields=["date_joined"])
    Rating.objects.update_or_create(
        user=user,
        preset=ALL_PRESETS,
        defaults={"mu": 25.0, "sigma": 8.0, "ordinal": 1.0, "matches": matches},
    )
    return user


def _client(user=None, address: str = "203.0.113.10") -> Client:
    client = Client(REMOTE_ADDR=address)
    if user is not None:
        client.force_login(user)
    return client


def _answer(client: Client, puzzle, action):
    return client.post(
        f"/problemas/{puzzle.pk}/resposta/",
        data=json.dumps({"action": action.to_dict()}),
        content_type="application/json",
    )


def test_a_guests_try_is_recorded_by_the_guest_cookie_before_its_answer_is_shown(make_user, clock):
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    guest = _client()
    reply = _answer(guest, puzzle, BLUNDER)
    body = reply.json()
    assert reply.status_code == 200 and not body["correct"] and body["solution"]
    assert not body["rated"] and body["unrated"] == "guest" and not body["puzzle_rated"]
    cookie = reply.cookies[GUEST_COOKIE]
    assert cookie.value and cookie["httponly"]
    (recorded,) = PuzzleTry.objects.all()
    assert recorded.user is None and recorded.guest_key and recorded.ip_hash
    assert recorded.action == BLUNDER.to_dict() and not recorded.correct
    # The same guest again: checked and shown, recorded once, the cookie kept.
    again = _answer(guest, puzzle, BEST)
    assert again.json()["correct"] and GUEST_COOKIE not in again.cookies
    assert PuzzleTry.objects.count() == 1
    # Another guest (no cookie) is another person: their own try, their own cookie.
    other = _answer(_client(address="198.51.100.20"), puzzle, BEST)
    assert other.cookies[GUEST_COOKIE].value != cookie.value
    assert PuzzleTry.objects.filter(user=None).count() == 2
    puzzle.refresh_from_db()
    assert puzzle.mu == START and puzzle.tries == 0


def test_an_answer_seen_as_a_guest_does_not_rate_the_account_that_answers_it_next(make_user, clock):
    """The probe: a guest collects the answer, then an account answers it
    right at its first try, from the same address or the same browser."""
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    _answer(_client(address="203.0.113.30"), puzzle, BLUNDER)  # collected, cookie dropped
    eva = _established(make_user("eva"))
    reply = _answer(_client(eva, address="203.0.113.30"), puzzle, BEST).json()
    assert reply["correct"] and not reply["rated"] and reply["unrated"] == "seen"
    assert reply["rating_after"] == reply["rating_before"] == 1500 and not reply["puzzle_rated"]
    # The guest of this browser (its cookie), signed in, from another address.
    browser = _client(address="198.51.100.31")
    _answer(browser, puzzle, BLUNDER)
    flor = _established(make_user("flor"))
    browser.force_login(flor)
    assert _answer(browser, puzzle, BEST).json()["unrated"] == "seen"
    assert not PuzzlePlayer.objects.filter(tries__gt=0).exists()
    puzzle.refresh_from_db()
    assert puzzle.mu == START and puzzle.tries == 0
    # Someone who saw nothing of it, elsewhere: rated, and the puzzle moves.
    gil = _established(make_user("gil"))
    fair = _answer(_client(gil, address="192.0.2.40"), puzzle, BEST).json()
    assert fair["rated"] and fair["puzzle_rated"] and fair["rating_after"] > 1500
    assert fair["unrated"] is None


def test_throwaway_accounts_do_not_move_a_puzzles_rating(make_user, clock):
    """The probe: three new accounts answer wrong to push the puzzle's rating
    up, so that the real account gains more."""
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    for n in range(3):
        throwaway = make_user(f"throwaway{n}")
        reply = _answer(_client(throwaway, address=f"203.0.113.{50 + n}"), puzzle, BLUNDER)
        body = reply.json()
        assert body["puzzle_rating"] == 1500
        assert body["rated"] and not body["puzzle_rated"]  # their own rating moves
    puzzle.refresh_from_db()
    assert puzzle.mu == START and puzzle.tries == 0
    real = _established(make_user("real"))
    body = _answer(_client(real, address="192.0.2.60"), puzzle, BEST).json()
    assert body["rated"] and body["puzzle_rated"] and body["puzzle_rating"] < 1500
    fresh = make_user("fresh")
    unearned = _answer(_client(fresh, address="192.0.2.61"), puzzle, BEST).json()
    assert unearned["rating_after"] < body["rating_after"]  # the puzzle was not pushed up


def test_one_addresss_tries_move_a_puzzles_rating_once(make_user, clock):
    _room, puzzle, _ana, _bruno = _published(make_user, clock)
    first, second = (_established(make_user(name)) for name in ("hana", "ivo"))
    one = _answer(_client(first, address="203.0.113.70"), puzzle, BLUNDER).json()
    puzzle.refresh_from_db()
    moved = puzzle.mu
    assert moved > START and puzzle.tries == 1 and one["puzzle_rated"]
    # A second established account from the same address: rated itself, the puzzle not again.
    two = _answer(_client(second, address="203.0.113.70"), puzzle, BLUNDER).json()
    assert two["puzzle_rating"] == one["puzzle_rating"]
    assert two["rated"] and not two["puzzle_rated"]
    puzzle.refresh_from_db()
    assert puzzle.mu == moved and puzzle.tries == 1
    # An IPv6 household is one address by its /64.
    jo, ka = (_established(make_user(name)) for name in ("jo", "ka"))
    assert _answer(_client(jo, address="2001:db8:1:2::a"), puzzle, BEST).json()["puzzle_rated"]
    assert not _answer(_client(ka, address="2001:db8:1:2::b"), puzzle, BEST).json()["puzzle_rated"]


def test_an_established_account_is_old_enough_and_has_played_enough_rated_matches(
    make_user, settings
):
    settings.ESTABLISHED_ACCOUNT_DAYS = 7
    settings.ESTABLISHED_ACCOUNT_MATCHES = 5
    assert established_account(user=_established(make_user("old"), days=8, matches=5))
    assert not established_account(user=_established(make_user("young"), days=6, matches=9))
    assert not established_account(user=_established(make_user("idle"), days=90, matches=4))
    assert not established_account(user=make_user("new"))
    assert not established_account(user=None)
    settings.ESTABLISHED_ACCOUNT_MATCHES = 0
    assert established_account(user=_established(make_user("watcher"), days=8, matches=0))
