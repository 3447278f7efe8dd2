"""How many challenges and reports a person may send (docs/site.md,
"Challenges" and "Reports and moderation"; people/limits.py): per person and
per target and window, refused past the limit with ``rate_limited`` and a
sentence saying how long to wait, nothing written and nothing pushed to the
target's ``ws/people/``; and a report is about someone one shared a match or
a table with (``not_met`` otherwise)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.realtime.asyncdb import db_async
from games.world import now_or
from people import challenges, moderation
from people.errors import PeopleError
from people.models import Challenge, Report
from rooms import services as rooms
from rooms.models import Room
from tests.people.test_presence import Page

HOME = "203.0.113.7"


def _client(user) -> Client:
    client = Client(REMOTE_ADDR=HOME)
    client.force_login(user)
    return client


def _said(answer) -> list[str]:
    return [str(m) for m in answer.context["messages"]]


def _send(challenger, challenged, now=None):
    return challenges.challenge_send(
        challenger=challenger, challenged=challenged, preset="duelo", move_seconds=20, now=now
    )


@pytest.mark.django_db(transaction=True)
async def test_challenges_past_the_limit_to_one_person_are_refused_and_push_nothing_to_them(
    live, django_user_model, settings
):
    """The probe: 40 challenges from one account to another in 3.1 s pushed 80
    frames to the target's socket. Now the first CHALLENGE_LIMIT_PER_PERSON are
    sent (each replacing the one before: a ``challenge`` and, after the first,
    a ``challenge_gone``), the rest refused, and nothing more reaches it."""
    settings.CHALLENGE_LIMIT_PER_PERSON = 3
    ana, bruno = await sync_to_async(
        lambda: [django_user_model.objects.create_user(n, password="x") for n in ("ana", "bruno")]
    )()
    target = await Page.open(bruno)
    await target.next("friends")
    form = {"preset": "duelo", "move_seconds": "20"}

    def post() -> list[str]:
        return _said(_client(ana).post("/friends/bruno/challenge/", form, follow=True))

    said = [await sync_to_async(post)() for _ in range(10)]
    assert all(s == ["Challenge sent to bruno: waiting for an answer."] for s in said[:3])
    for refusal in said[3:]:
        assert len(refusal) == 1 and refusal[0].startswith(
            "You challenged bruno too often: wait 10\xa0minutes before challenging them again."
        )
    while not await target.comm.receive_nothing(timeout=0.5):
        target.frames.append(await target.comm.receive_json_from())
    kinds = Counter(frame["type"] for frame in target.frames)
    assert (kinds["challenge"], kinds["challenge_gone"]) == (3, 2)
    assert await db_async(Challenge.objects.count)() == 3


@pytest.mark.django_db
def test_a_person_sends_so_many_challenges_a_window_in_all_and_to_each_person(
    make_user, settings, clock
):
    settings.CHALLENGE_LIMIT, settings.CHALLENGE_LIMIT_PER_PERSON = 4, 2
    ana, *others = [make_user(n) for n in ("ana", "bruno", "caio", "dora", "edu", "fabi")]
    start = clock()
    _send(ana, others[0], now=start)
    _send(ana, others[0], now=start + timedelta(minutes=1))
    with pytest.raises(PeopleError) as refused:
        _send(ana, others[0], now=start + timedelta(minutes=2))
    assert refused.value.code == "rate_limited"
    assert refused.value.message == (
        "You challenged bruno too often: wait 8\xa0minutes before challenging them again."
    )
    _send(ana, others[1], now=start + timedelta(minutes=2))  # another person is another count
    _send(ana, others[2], now=start + timedelta(minutes=3))
    with pytest.raises(PeopleError) as refused:
        _send(ana, others[3], now=start + timedelta(minutes=4))
    assert (refused.value.code, refused.value.message) == (
        "rate_limited",
        "You sent too many challenges: wait 6\xa0minutes before sending another.",
    )
    assert Challenge.objects.count() == 4  # the refusals wrote nothing
    _send(ana, others[3], now=start + timedelta(minutes=10, seconds=1))  # the first has aged out
    assert Challenge.objects.filter(challenged=others[3]).count() == 1
    # someone else's challenges are theirs
    _send(others[4], others[0], now=start + timedelta(minutes=4))


def _met(a, b) -> Room:
    """``a`` and ``b`` seated at one table (no match yet): they met."""
    room = rooms.room_create(user=a, name="Mesa", preset="duelo", ip_hash="a")
    rooms.seat_take(room=room, index=1, user=b, ip_hash="b")
    return room


@pytest.mark.django_db
def test_a_report_is_about_someone_one_shared_a_match_or_a_table_with(make_user):
    """The probe reported accounts it never met. A report needs a match the two
    played (`RoundPlayer`) or a table both sit at; from the table page only a
    table both sit at counts."""
    ana, bruno, caio = make_user("ana"), make_user("bruno"), make_user("caio")
    answer = _client(ana).post("/friends/caio/report/", {"reason": "name"}, follow=True)
    assert _said(answer) == [
        "You can report only a player you played with (a match or a table you shared)."
    ]
    assert not Report.objects.exists()
    elsewhere = _met(caio, bruno)  # a table of theirs, not ana's
    answer = _client(ana).post(
        "/friends/caio/report/", {"reason": "name", "room": elsewhere.code}, follow=True
    )
    assert _said(answer)[0].startswith("You can report only a player you played with")
    with pytest.raises(PeopleError) as refused:
        moderation.report_make(reporter=ana, reported=caio, reason="other", room=elsewhere)
    assert refused.value.code == "not_met"
    assert not Report.objects.exists()
    _met(ana, caio)
    answer = _client(ana).post("/friends/caio/report/", {"reason": "name"}, follow=True)
    assert _said(answer) == ["Thank you: the report goes to the moderators."]
    assert Report.objects.get().reported == caio


@pytest.mark.django_db
def test_reports_past_the_limit_are_refused_and_change_nothing(make_user, settings):
    """Per player: every sending counts, a new report or an update of the open
    one. Per reporter: the sendings about everyone."""
    settings.REPORT_LIMIT, settings.REPORT_LIMIT_PER_PERSON = 4, 2
    ana, bruno, caio, dora = [make_user(n) for n in ("ana", "bruno", "caio", "dora")]
    for person in (bruno, caio, dora):
        _met(ana, person)
    start = now_or(None)  # the pages' own clock: the form below is sent now

    def report(person, minutes, note=""):
        return moderation.report_make(
            reporter=ana,
            reported=person,
            reason="stalling",
            note=note,
            now=start + timedelta(minutes=minutes),
        )

    report(bruno, 0, "first")
    report(bruno, 1, "second")  # updates the open report, and counts
    with pytest.raises(PeopleError) as refused:
        report(bruno, 2, "third")
    assert refused.value.code == "rate_limited"
    assert refused.value.message == (
        "You reported bruno too often: wait 23\xa0hours, 58\xa0minutes before reporting them again."
    )
    assert Report.objects.get().note == "second"  # the refusal changed nothing
    report(caio, 3)
    report(dora, 4)
    with pytest.raises(PeopleError) as refused:
        report(caio, 5)
    assert refused.value.message.startswith("You sent too many reports: wait 23\xa0hours")
    answer = _client(ana).post("/friends/dora/report/", {"reason": "other"}, follow=True)
    assert _said(answer)[0].startswith("You sent too many reports")
    assert Report.objects.count() == 3
    report(bruno, 24 * 60 + 1, "a day later")  # the window has passed
    assert Report.objects.get(reported=bruno).note == "a day later"
