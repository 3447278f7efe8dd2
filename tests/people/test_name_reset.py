"""A moderator's name reset never fails and never clashes (docs/site.md,
"Reports and moderation"): the names a reset gives (``player-<id>``) are
nobody's to take, at sign-up or at the rename after a reset, in any case or
in a look-alike spelling; an account that holds such a name from before (or
in another case, or in a look-alike) only moves the reset to the next free
name (``player-<id>-2``), never to an error page, and the offensive name goes
at once."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from people import moderation
from people.models import Report, Sanction
from tests.people.conftest import played_together
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db


def _report_name(ana, rude) -> Report:
    """``ana`` reports ``rude``'s name, after a round together (a report needs
    one: docs/site.md, "Reports and moderation")."""
    played_together(ana, rude, timezone.now())
    return moderation.report_make(reporter=ana, reported=rude, reason="name")


PASSWORD = "dominó-secreto-42"


def _client(user) -> Client:
    client = Client(REMOTE_ADDR="203.0.113.7")
    if user.is_staff:  # the admin asks staff for their second factor (tests/staff.py)
        sign_in_verified(client, user)
    else:
        client.force_login(user)
    return client


def _reset_through_the_admin(staff, report: Report):
    """The admin's "Reset the reported players' names" on ``report``, as staff
    click it (errors are raised, not turned into a 500 page, by the test client)."""
    response = _client(staff).post(
        "/admin/people/report/",
        {"action": "reset_name", "_selected_action": [report.pk]},
        follow=True,
    )
    assert response.status_code == 200
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("staff", password="x")


@pytest.mark.parametrize(
    "squatted",
    [
        "player-{pk}",  # taken before the rule (an admin's hand, or sign-up then)
        "Player-{pk}",  # another case: the reset made player-2 beside Player-2
        "pIayer-{pk}",  # a capital I for the l: the same name to the eye
    ],
)
def test_a_name_reset_moves_on_when_its_name_is_held_by_another_account(
    make_user, django_user_model, staff, squatted
):
    ana, rude = make_user("ana"), make_user("rude-word")
    squatter = django_user_model.objects.create_user(squatted.format(pk=rude.pk), password="x")
    report = _report_name(ana, rude)

    assert _reset_through_the_admin(staff, report) == ["1 report handled."]

    rude.refresh_from_db()
    squatter.refresh_from_db()
    assert rude.username == f"player-{rude.pk}-2"  # the offensive name is gone
    assert squatter.username == squatted.format(pk=rude.pk)  # theirs untouched
    usernames = [
        name.casefold() for name in django_user_model.objects.values_list("username", flat=True)
    ]
    assert len(usernames) == len(set(usernames))  # no two alike in any case
    sanction = Sanction.objects.get()
    assert (sanction.kind, sanction.old_name, sanction.by) == ("name_reset", "rude-word", staff)
    report.refresh_from_db()
    assert report.status == Report.Status.HANDLED
    # The player is asked for a new name on their own profile, and picks one.
    own = _client(rude).get(f"/players/{rude.username}/").content.decode()
    assert 'data-form="rename"' in own
    answer = _client(rude).post("/moderation/name/", {"username": "gentil"})
    assert answer["Location"] == "/players/gentil/"


def test_a_second_reset_of_a_reset_name_keeps_it(make_user, staff):
    ana, rude = make_user("ana"), make_user("rude-word")
    for _ in range(2):
        report = _report_name(ana, rude)
        assert _reset_through_the_admin(staff, report) == ["1 report handled."]
    rude.refresh_from_db()
    assert rude.username == f"player-{rude.pk}"  # its own, not a clash with itself


RESERVED_SPELLINGS = [
    "player-{n}",
    "PLAYER-{n}",
    "Player-{n}",
    "pIayer-{n}",  # capital I for l
    "p1ayer-{n}",  # digit 1 for l
    "рlayer-{n}",  # Cyrillic р
    "player-{n}-2",  # the reset's next name
    "player‐{n}",  # U+2010 hyphen
    "ｐｌａｙｅｒ-{n}",  # fullwidth
]


@pytest.mark.parametrize("spelling", RESERVED_SPELLINGS)
def test_a_reset_name_cannot_be_registered_at_sign_up(django_user_model, spelling):
    name = spelling.format(n=django_user_model.objects.count() + 7)
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    response = Client(REMOTE_ADDR="203.0.113.9").post(
        "/accounts/signup/", data, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200  # the form again, with the reason
    assert "kept for the names the moderators give" in response.content.decode()
    assert not django_user_model.objects.exists()


def test_names_near_the_reset_form_may_still_be_registered(django_user_model):
    for n, name in enumerate(["player", "player-one", "players-7", "the-player-7"]):
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        response = Client(REMOTE_ADDR=f"203.0.113.{20 + n}").post("/accounts/signup/", data)
        assert response.status_code == 302, name
    assert django_user_model.objects.count() == 4


@pytest.mark.parametrize("spelling", ["player-{n}", "PLAYER-{n}", "pIayer-{n}", "player-{own}"])
def test_a_reset_name_cannot_be_picked_at_the_rename_after_a_reset(make_user, staff, spelling):
    ana, rude = make_user("ana"), make_user("rude-word")
    report = _report_name(ana, rude)
    _reset_through_the_admin(staff, report)
    rude.refresh_from_db()
    name = spelling.format(n=rude.pk + 50, own=rude.pk)
    answer = _client(rude).post("/moderation/name/", {"username": name}, follow=True)
    assert [str(m) for m in answer.context["messages"]] == [
        "Names like “player-123” are kept for the names the moderators give: choose another one."
    ]
    rude.refresh_from_db()
    assert rude.username == f"player-{rude.pk}"


def test_a_name_taken_between_the_check_and_the_write_moves_the_reset_on(
    make_user, django_user_model, staff, monkeypatch
):
    """An account created under the chosen name after the check (a race) fails
    that write only, in its savepoint; the next name is taken."""
    ana, rude = make_user("ana"), make_user("rude-word")
    django_user_model.objects.create_user("raced", password="x")
    monkeypatch.setattr(moderation, "reset_names", lambda account: iter(["raced", "next-free"]))
    report = _report_name(ana, rude)
    assert _reset_through_the_admin(staff, report) == ["1 report handled."]
    rude.refresh_from_db()
    assert rude.username == "next-free"


def test_a_reset_that_finds_no_free_name_is_told_to_staff_and_changes_nothing(
    make_user, django_user_model, staff, monkeypatch
):
    ana, rude = make_user("ana"), make_user("rude-word")
    monkeypatch.setattr(moderation, "reset_names", lambda account: iter(["ana"] * 50))
    report = _report_name(ana, rude)
    told = _reset_through_the_admin(staff, report)
    assert told == ["The name could not be reset: try again.", "0 reports handled."]
    rude.refresh_from_db()
    report.refresh_from_db()
    assert rude.username == "rude-word" and report.status == Report.Status.OPEN
    assert not Sanction.objects.exists()
